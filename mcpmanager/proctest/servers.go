package proctest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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

// once runs make for key once per test process and remembers its result.
func once(key string, make func() (string, error)) (string, error) {
	v, _ := built.LoadOrStore(key, &testBuild{})
	b := v.(*testBuild)
	b.once.Do(func() { b.path, b.err = make() })
	return b.path, b.err
}

// program builds mcpmanager/testdata/NAME once per test process, into its
// own directory under the OS temp dir (RemoveBuilds removes it).
func program(name string) (string, error) {
	return buildOnce(name, filepath.Join(Root(), "mcpmanager", "testdata", name))
}

// buildOnce builds the main package in src as NAME once per test process,
// into its own directory under the OS temp dir (RemoveBuilds removes it).
func buildOnce(name, src string) (string, error) {
	return once(name, func() (string, error) {
		dir, err := os.MkdirTemp("", "switchboard-"+name+"-")
		if err != nil {
			return "", err
		}
		bin := filepath.Join(dir, name)
		if out, err := exec.Command("go", "build", "-o", bin, src).CombinedOutput(); err != nil {
			return "", fmt.Errorf("build %s: %v\n%s", name, err, out)
		}
		return bin, nil
	})
}

// Switchboard is the switchboard binary (the module's main package, built
// as 'make build' would but without the window's tags), built once per test
// process however many tests run it: each build links the whole app, some
// 10 s on 2 cores. The package's TestMain calls RemoveBuilds.
func Switchboard(tb testing.TB) string {
	tb.Helper()
	p, err := buildOnce("switchboard", Root())
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// Build returns the path of mcpmanager/testdata/testserver under the name
// of mode: run with no -mode, it serves that mode, so a config's command
// alone names the server. The program is built once per test process and
// linked under each mode's name beside it.
func Build(mode string) (string, error) {
	bin, err := program("testserver")
	if err != nil {
		return "", err
	}
	return once("testserver:"+mode, func() (string, error) {
		link := filepath.Join(filepath.Dir(bin), mode)
		if err := os.Link(bin, link); err != nil {
			return "", fmt.Errorf("testserver as %s: %w", mode, err)
		}
		return link, nil
	})
}

// Server is Build for a test: the testserver serving mode (see its package
// doc for the modes: rugpull, canary, urlserver, huge-line, …); a
// build that fails fails tb.
func Server(tb testing.TB, mode string) string {
	tb.Helper()
	p, err := Build(mode)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// RugPullServer returns the path of the testserver in mode rugpull (a
// server that changes a tool's description after its first call).
func RugPullServer(tb testing.TB) string {
	tb.Helper()
	return Server(tb, "rugpull")
}

// ModernServer returns the path of the testserver in mode modernserver
// (a server that speaks MCP 2026-07-28 only).
func ModernServer(tb testing.TB) string {
	tb.Helper()
	return Server(tb, "modernserver")
}
