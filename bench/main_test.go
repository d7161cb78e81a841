//go:build bench

package bench_test

import (
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/process"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

// faultServer is the misbehaving test server (mcpmanager/testdata/testserver),
// built once per run: the slow and broken servers of the start-up and
// window rows.
var faultServer string

func TestMain(m *testing.M) {
	// The same short grace periods as mcpmanager's tests had when these
	// rows lived there: they shorten the untimed Close between rounds
	// (and keep the figures comparable with earlier runs).
	process.StopGrace, process.TermGrace = 500*time.Millisecond, 500*time.Millisecond
	supervisor.DefaultRestartDelay = 20 * time.Millisecond
	proctest.Main(m, &faultServer)
}
