package cli

import (
	"context"
	"encoding/json"
	"os"
	"os/signal"
	"syscall"
	"testing"

	"github.com/switchboard-app/switchboard/app/secrets/secretstest"
	"github.com/switchboard-app/switchboard/mcpmanager/codemode"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
)

// TestMain keeps every test of this package away from the user's keyring,
// and removes the binaries its tests built (proctest.Switchboard).
func TestMain(m *testing.M) {
	codemode.MaybeChild() // code mode's scripts run in a child process: this test binary
	if args := os.Getenv(runCLI); args != "" {
		// A child the test started as the switchboard binary (cliProcess).
		var a []string
		if err := json.Unmarshal([]byte(args), &a); err != nil {
			panic(err)
		}
		secretstest.UseMockKeyring()
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		code := Run(ctx, a, Env{})
		stop()
		os.Exit(code)
	}
	if os.Getenv(realKeyring) != "1" {
		secretstest.UseMockKeyring()
	}
	code := m.Run()
	proctest.RemoveBuilds()
	os.Exit(code)
}
