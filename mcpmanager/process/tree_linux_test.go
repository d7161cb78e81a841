//go:build linux

package process

import (
	"bufio"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

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
// whether the server quits on stdin close or needs SIGKILL. A daemon whose
// parent exited before the stop is only traceable in a cgroup.
func TestStopEndsSetsidDescendants(t *testing.T) {
	shorten(t)
	bin := setsidServer(t)
	for _, mode := range modes(t) {
		cases := []string{"stdin", "stubborn"}
		if mode == "cgroup" {
			cases = append(cases, "daemon")
		}
		for _, c := range cases {
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
				if cg := p.tree.cg; cg != nil {
					if _, err := os.Stat(cg.dir); !os.IsNotExist(err) {
						t.Errorf("cgroup %s left behind (%v)", cg.dir, err)
					}
				}
			})
		}
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
// watchdog must end the server's cgroup, setsid descendant included. (Found
// by ancestry, such a descendant cannot be: the app is gone before anyone
// looks, as the README says.)
func TestSetsidDescendantDiesWithApp(t *testing.T) {
	if !cgroupsUsable() {
		t.Logf("no delegated cgroup v2 here: a setsid descendant outlives a killed app (README)")
		return
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	parent := exec.Command(exe, "-test.run=^$")
	parent.Env = append(os.Environ(), "PROCESS_TEST_PARENT=1", "PROCESS_TEST_COMMAND="+setsidServer(t))
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
}
