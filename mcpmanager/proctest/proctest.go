// Package proctest helps tests that run real child processes: it builds the
// misbehaving MCP servers of mcpmanager/testdata/testserver, finds the
// pinned npm servers, runs a package's TestMain and checks that processes
// are gone.
//
//	func TestMain(m *testing.M) { proctest.Main(m, &faultServer) } // builds, runs, removes the builds
//	bin := proctest.FaultServer(t)          // built once per test binary
//	everything := proctest.NPM(t, "mcp-server-everything")
//	...
//	proctest.WaitGone(t, pid)               // fails the test if pid survives
package proctest

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/builtin/mcptest"
)

// EnvFaultServer names an already built testserver (FaultServer) for child test processes.
const EnvFaultServer = "SWITCHBOARD_TEST_FAULTSERVER"

// FaultServer returns the path of mcpmanager/testdata/testserver under its own
// name: mode ok, or the fault its -mode argument picks. It is built on first use.
func FaultServer(tb testing.TB) string {
	tb.Helper()
	p, err := BuildFaultServer()
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// BuildFaultServer builds FaultServer's program once per process (for TestMain).
// It lives in its own temp dir; TestMain removes filepath.Dir of the path.
func BuildFaultServer() (string, error) {
	// A parent test that re-executes itself hands its build down.
	if p := os.Getenv(EnvFaultServer); p != "" {
		return p, nil
	}
	// The testserver under its own name serves mode ok; tests pick the
	// fault with -mode.
	return program("testserver")
}

// Gone reports whether pid no longer runs; a zombie (exited, not yet reaped)
// counts as gone.
func Gone(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	s := string(b)
	return strings.HasPrefix(s[strings.LastIndexByte(s, ')')+2:], "Z")
}

// WaitGone fails the test unless every pid is gone within 5 seconds.
func WaitGone(tb testing.TB, pids ...int) {
	tb.Helper()
	mcptest.Within(tb, 5*time.Second, fmt.Sprintf("pids %v to be gone", pids), func() error {
		for _, pid := range pids {
			if !Gone(pid) {
				return fmt.Errorf("pid %d still running", pid)
			}
		}
		return nil
	})
}

// Descendants lists the live processes under pid, children before their
// own children (read from /proc; a zombie counts as gone, as in Gone, and
// so does whatever it left behind, which now belongs to another parent).
func Descendants(pid int) []int {
	children := map[int][]int{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p))
		if err != nil {
			continue
		}
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
		if len(f) > 1 && f[0] != "Z" {
			parent, _ := strconv.Atoi(f[1])
			children[parent] = append(children[parent], p)
		}
	}
	var out []int
	var walk func(int)
	walk = func(p int) {
		for _, c := range children[p] {
			out = append(out, c)
			walk(c)
		}
	}
	walk(pid)
	return out
}

// Cmdline is pid's command line, its arguments a space apart ("" once it
// is gone).
func Cmdline(pid int) string {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	return strings.ReplaceAll(string(b), "\x00", " ")
}

// Rerun starts this test binary again as a child running only the test t
// runs, with env added to the environment (the child's test reads it and
// takes its other role), its stderr on ours and its stdout returned; the
// child is killed and reaped when the test ends. Crash tests kill it at a
// moment of their choosing.
func Rerun(t *testing.T, env ...string) (*exec.Cmd, io.Reader) {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^"+regexp.QuoteMeta(t.Name())+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	return cmd, out
}
