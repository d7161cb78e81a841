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

// built are the test servers built by this test process, by name.
var built sync.Map // name → *testBuild

type testBuild struct {
	once sync.Once
	path string
	err  error
}

// testServer returns the path of the mcpmanager/testdata/NAME binary
// (buildTestServer), failing tb when it does not build.
func testServer(tb testing.TB, name string) string {
	tb.Helper()
	p, err := buildTestServer(name)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// buildTestServer builds mcpmanager/testdata/NAME once per test process,
// into its own directory under the OS temp dir (TestMain removes
// filepath.Dir of the path).
func buildTestServer(name string) (string, error) {
	v, _ := built.LoadOrStore(name, &testBuild{})
	b := v.(*testBuild)
	b.once.Do(func() {
		_, self, _, _ := runtime.Caller(0)
		src := filepath.Join(filepath.Dir(self), "..", "testdata", name)
		dir, err := os.MkdirTemp("", "switchboard-"+name+"-")
		if err != nil {
			b.err = err
			return
		}
		b.path = filepath.Join(dir, name)
		if out, err := exec.Command("go", "build", "-o", b.path, src).CombinedOutput(); err != nil {
			b.err = fmt.Errorf("build %s: %v\n%s", name, err, out)
		}
	})
	return b.path, b.err
}

// RugPullServer returns the path of the mcpmanager/testdata/rugpull binary
// (a server that changes a tool's description after its first call).
func RugPullServer(tb testing.TB) string {
	tb.Helper()
	return testServer(tb, "rugpull")
}

// ModernServer returns the path of the mcpmanager/testdata/modernserver
// binary (a server that speaks MCP 2026-07-28 only).
func ModernServer(tb testing.TB) string {
	tb.Helper()
	return testServer(tb, "modernserver")
}
