//go:build bench

package bench_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/process"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

// faultServer is the misbehaving test server (mcpmanager/testdata/faultserver),
// built once per run: the slow and broken servers of the start-up and
// window rows.
var faultServer string

// npmBin is where make installs the pinned real servers the rows run
// (mcpmanager/testdata/npm, shared with mcpmanager's own tests).
var npmBin, _ = filepath.Abs("../mcpmanager/testdata/npm/node_modules/.bin")

func TestMain(m *testing.M) {
	var err error
	if faultServer, err = proctest.BuildFaultServer(); err != nil {
		panic(err)
	}
	// The same short grace periods as mcpmanager's tests had when these
	// rows lived there: they shorten the untimed Close between rounds
	// (and keep the figures comparable with earlier runs).
	process.StopGrace, process.TermGrace = 500*time.Millisecond, 500*time.Millisecond
	supervisor.DefaultRestartDelay = 20 * time.Millisecond
	code := m.Run()
	os.RemoveAll(filepath.Dir(faultServer))
	os.Exit(code)
}

// npm is the path of a pinned npm server's binary.
func npm(t *testing.T, bin string) string {
	t.Helper()
	p := filepath.Join(npmBin, bin)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("%s is not installed: run 'make bench' (it runs npm ci in mcpmanager/testdata/npm): %v", bin, err)
	}
	return p
}
