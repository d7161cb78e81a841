// Package proctest helps tests that run real child processes: it builds the
// misbehaving MCP server of mcpmanager/testdata/faultserver and checks that
// processes are gone.
//
//	bin := proctest.FaultServer(t)          // built once per test binary
//	...
//	proctest.WaitGone(t, pid)               // fails the test if pid survives
package proctest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// EnvFaultServer names an already built faultserver for child test processes.
const EnvFaultServer = "SWITCHBOARD_TEST_FAULTSERVER"

var build struct {
	once sync.Once
	path string
	err  error
}

// FaultServer returns the path of the faultserver binary, building it on first use.
func FaultServer(tb testing.TB) string {
	tb.Helper()
	p, err := BuildFaultServer()
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// BuildFaultServer builds the faultserver once per process (for TestMain).
// It lives in its own temp dir; TestMain removes filepath.Dir of the path.
func BuildFaultServer() (string, error) {
	build.once.Do(func() {
		// A parent test that re-executes itself hands its build down.
		if p := os.Getenv(EnvFaultServer); p != "" {
			build.path = p
			return
		}
		_, self, _, _ := runtime.Caller(0)
		src := filepath.Join(filepath.Dir(self), "..", "testdata", "faultserver")
		dir, err := os.MkdirTemp("", "switchboard-faultserver-")
		if err != nil {
			build.err = err
			return
		}
		build.path = filepath.Join(dir, "faultserver")
		if out, err := exec.Command("go", "build", "-o", build.path, src).CombinedOutput(); err != nil {
			build.err = fmt.Errorf("build faultserver: %v\n%s", err, out)
		}
	})
	return build.path, build.err
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
	deadline := time.Now().Add(5 * time.Second)
	for _, pid := range pids {
		for !Gone(pid) {
			if time.Now().After(deadline) {
				tb.Fatalf("pid %d still running", pid)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}
