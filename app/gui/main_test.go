package gui

import (
	"testing"

	"github.com/switchboard-app/switchboard/app/secrets/secretstest"
	"github.com/switchboard-app/switchboard/mcpmanager/codemode"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
)

// TestMain keeps every test of this package away from the user's keyring.
func TestMain(m *testing.M) {
	codemode.MaybeChild() // code mode's scripts run in a child process: this test binary
	secretstest.UseMockKeyring()
	proctest.Main(m, nil) // removes the test servers it built
}
