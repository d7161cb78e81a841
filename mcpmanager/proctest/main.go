package proctest

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Main is a TestMain for tests that start the test servers proctest builds:
// when faultServer is not nil it builds the testserver (FaultServer) first and stores its
// path there (a package's tests name it in many places), runs m, removes
// every server this process built and exits with m's code. A build that
// fails stops the run before any test.
//
//	func TestMain(m *testing.M) {
//		process.StopGrace = 500 * time.Millisecond // what the package's tests shorten
//		proctest.Main(m, &faultServer)
//	}
func Main(m *testing.M, faultServer *string) {
	if faultServer != nil {
		p, err := BuildFaultServer()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		*faultServer = p
	}
	code := m.Run()
	RemoveBuilds()
	os.Exit(code)
}

// RemoveBuilds deletes every test server this process built (Main calls it;
// a TestMain of its own calls it after m.Run). A build handed down by a
// parent test process (EnvFaultServer) was not built here and stays.
func RemoveBuilds() {
	built.Range(func(_, v any) bool {
		// A mode's link lies in its program's directory, removed with it.
		if b := v.(*testBuild); b.path != "" {
			_ = os.RemoveAll(filepath.Dir(b.path))
		}
		return true
	})
}

// NPM returns the path of a pinned npm server's command (NAME in
// mcpmanager/testdata/npm/node_modules/.bin: mcp-server-everything,
// mcp-server-filesystem, mcp-server-memory, …), failing tb with how to
// install them when it is missing.
func NPM(tb testing.TB, name string) string {
	tb.Helper()
	p := filepath.Join(npmBin(), name)
	if _, err := os.Stat(p); err != nil {
		tb.Fatalf("%s is not installed: run 'make test-go' (npm ci in mcpmanager/testdata/npm): %v", name, err)
	}
	return p
}

// npmBin is mcpmanager/testdata/npm/node_modules/.bin, found from this
// file so that every package's tests reach it alike.
func npmBin() string {
	_, self, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(self), "..", "testdata", "npm", "node_modules", ".bin")
}
