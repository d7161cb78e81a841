package proctest

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
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
	return filepath.Join(Root(), "mcpmanager", "testdata", "npm", "node_modules", ".bin")
}

// Root is the module's root directory, found by walking up from the working
// directory (go test runs a package's tests in its own directory) to go.mod.
// It is not found from this file's compiled path (runtime.Caller): the tests
// are built with -trimpath, so that a clone in another directory reuses the
// build cache, and then that path is the import path, not a file.
func Root() string {
	rootOnce.Do(func() {
		dir, err := os.Getwd()
		if err != nil {
			panic(err)
		}
		for {
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				root = dir
				return
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				panic("proctest.Root: no go.mod above the working directory")
			}
			dir = parent
		}
	})
	return root
}

var (
	rootOnce sync.Once
	root     string
)
