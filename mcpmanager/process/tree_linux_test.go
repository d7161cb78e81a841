//go:build linux

package process

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
)

// setsidServer is the testserver in mode setsid, built once per test binary.
func setsidServer(t *testing.T) string {
	t.Helper()
	return proctest.Server(t, "setsid")
}

// withCgroups runs the test with cgroups on or off, as decided for the process.
func withCgroups(t *testing.T, on bool) {
	t.Helper()
	cgroupsUsable() // decide once, so the switch below is not overwritten
	was := cgroups.off.Load()
	cgroups.off.Store(!on)
	t.Cleanup(func() { cgroups.off.Store(was) })
}

// modes are the ways descendants are found that this system offers:
// ancestry always, a cgroup where one is delegated to this user.
func modes(t *testing.T) []string {
	m := []string{"ancestry"}
	if cgroupsUsable() {
		m = append(m, "cgroup")
	} else {
		t.Logf("no delegated cgroup v2 here (running as uid %d): only ancestry is tested", os.Getuid())
	}
	return m
}

// killAfter ends pids when the test ends, in case it failed with them alive.
func killAfter(t *testing.T, pids []int) {
	t.Cleanup(func() {
		for _, pid := range pids {
			if !proctest.Gone(pid) {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
}

// TestStopEndsSetsidDescendants: a descendant that left the process group
// and session with setsid (and ignores SIGTERM) must be gone after Stop,
// whether the server quits on stdin close or needs SIGKILL, and so must a
// daemon whose parent exited before the stop began (found in a cgroup, or
// by its mark without one), none left a zombie of the app's.
func TestStopEndsSetsidDescendants(t *testing.T) {
	shorten(t)
	bin := setsidServer(t)
	for _, mode := range modes(t) {
		for _, c := range []string{"stdin", "stubborn", "daemon"} {
			t.Run(mode+"/"+c, func(t *testing.T) {
				withCgroups(t, mode == "cgroup")
				p, err := Start(Spec{Command: bin, Args: []string{c}, Env: os.Environ()})
				if err != nil {
					t.Fatal(err)
				}
				pids := readPIDs(t, bufio.NewReader(p.Stdout))
				killAfter(t, pids)
				if inCgroup := p.tree.cg != nil; inCgroup != (mode == "cgroup") {
					t.Fatalf("started in a cgroup: %v, want %v", inCgroup, mode == "cgroup")
				}
				if sid, _ := unix.Getsid(pids[1]); sid != pids[1] {
					t.Fatalf("descendant %d is not in a session of its own (sid %d)", pids[1], sid)
				}
				if err := p.Stop(t.Context()); err != nil {
					t.Fatal(err)
				}
				proctest.WaitGone(t, pids...)
				waitReaped(t, pids...)
				if cg := p.tree.cg; cg != nil {
					if _, err := os.Stat(cg.dir); !os.IsNotExist(err) {
						t.Errorf("cgroup %s left behind (%v)", cg.dir, err)
					}
				}
			})
		}
	}
}

// waitReaped fails the test unless, within 5 s, no pid is a zombie left to
// this process to reap. (One an init adopted is that init's to reap, when
// it gets to it.)
func waitReaped(t *testing.T, pids ...int) {
	t.Helper()
	mcptest.Within(t, 5*time.Second, fmt.Sprintf("pids %v to be reaped", pids), func() error {
		for _, pid := range pids {
			if st, ok := readStat(pid); ok && st.ppid == os.Getpid() {
				return fmt.Errorf("pid %d is still a child of this process (zombie %v)", pid, st.zombie)
			}
		}
		return nil
	})
}

// TestMarkFindsOrphan: a process carrying the tree's mark is found however
// it was started; one with another tree's mark, or none, is not.
func TestMarkFindsOrphan(t *testing.T) {
	withCgroups(t, false)
	p, err := Start(Spec{Command: "/bin/sh", Args: []string{"-c", "cat"}, Env: os.Environ()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Stop(context.WithoutCancel(t.Context())) })
	own := MarkVar + "=" + p.tree.mark
	tests := []struct {
		name string
		env  []string
		want bool
	}{
		{"own mark", []string{own}, true},
		{"own mark among others", []string{"A=1", own, "B=2"}, true},
		{"a sibling tree's mark", []string{own + "0"}, false},
		{"no mark", []string{"A=1"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Not a descendant: started by the test itself.
			cmd := exec.CommandContext(t.Context(), "sleep", "60")
			cmd.Env = tt.env
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
			p.tree.snapshot()
			p.tree.mu.Lock()
			_, got := p.tree.known[cmd.Process.Pid]
			p.tree.mu.Unlock()
			if got != tt.want {
				t.Errorf("found %v, want %v", got, tt.want)
			}
		})
	}
}

func TestParseStat(t *testing.T) {
	tests := []struct {
		line string
		want procStat
		ok   bool
	}{
		{"42 (sleep) S 7 42 42 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 123456 0 0", procStat{ppid: 7, start: 123456}, true},
		{"9 (a) b) (c) Z 1 9 9 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 99 0", procStat{ppid: 1, start: 99, zombie: true}, true},
		{"9 (short) S 1 2", procStat{}, false},
		{"garbage", procStat{}, false},
	}
	for _, tt := range tests {
		got, ok := parseStat([]byte(tt.line))
		if got != tt.want || ok != tt.ok {
			t.Errorf("parseStat(%q) = %+v, %v; want %+v, %v", tt.line, got, ok, tt.want, tt.ok)
		}
	}
	if got := unescapeMount(`/sys/fs/cgroup\040x`); got != "/sys/fs/cgroup x" {
		t.Errorf("unescapeMount = %q", got)
	}
	if !strings.HasPrefix(procRoot, "/") {
		t.Fatal("procRoot")
	}
}

// TestSetsidDescendantDiesWithApp kills a stand-in app by SIGKILL: the
// watchdog must end the server's tree, a setsid descendant included, and a
// daemon whose parent had exited: in the server's cgroup, or by its mark.
func TestSetsidDescendantDiesWithApp(t *testing.T) {
	bin := setsidServer(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range modes(t) {
		for _, c := range []string{"stdin", "daemon"} {
			t.Run(mode+"/"+c, func(t *testing.T) {
				parent := exec.Command(exe, "-test.run=^$")
				parent.Env = append(os.Environ(), "PROCESS_TEST_PARENT=1", "PROCESS_TEST_COMMAND="+bin, "PROCESS_TEST_ARG="+c)
				if mode != "cgroup" {
					parent.Env = append(parent.Env, envNoCgroup+"=1")
				}
				out, err := parent.StdoutPipe()
				if err != nil {
					t.Fatal(err)
				}
				if err := parent.Start(); err != nil {
					t.Fatal(err)
				}
				pids := readPIDs(t, bufio.NewReader(out))
				killAfter(t, pids)
				_ = parent.Process.Signal(syscall.SIGKILL)
				_ = parent.Wait()
				proctest.WaitGone(t, pids...)
			})
		}
	}
}

// envNoCgroup has a stand-in app (TestMain) start its server without a cgroup.
const envNoCgroup = "PROCESS_TEST_NO_CGROUP"

func init() {
	if os.Getenv(envNoCgroup) == "1" {
		cgroups.once.Do(func() {})
		cgroups.off.Store(true)
	}
}
