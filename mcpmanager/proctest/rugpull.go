package proctest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

var rugpull struct {
	once sync.Once
	path string
	err  error
}

// RugPullServer returns the path of the mcpmanager/testdata/rugpull binary
// (a server that changes a tool's description after its first call),
// building it once per test process into its own directory under the OS
// temp dir, as FaultServer does.
func RugPullServer(tb testing.TB) string {
	tb.Helper()
	rugpull.once.Do(func() {
		_, self, _, _ := runtime.Caller(0)
		src := filepath.Join(filepath.Dir(self), "..", "testdata", "rugpull")
		dir, err := os.MkdirTemp("", "switchboard-rugpull-")
		if err != nil {
			rugpull.err = err
			return
		}
		rugpull.path = filepath.Join(dir, "rugpull")
		if out, err := exec.Command("go", "build", "-o", rugpull.path, src).CombinedOutput(); err != nil {
			rugpull.err = fmt.Errorf("build rugpull: %v\n%s", err, out)
		}
	})
	if rugpull.err != nil {
		tb.Fatal(rugpull.err)
	}
	return rugpull.path
}
