package host

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/datadir"
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

func open(t *testing.T) *Host {
	t.Helper()
	dir := datadir.Dir(t.TempDir())
	if err := dir.Ensure(); err != nil {
		t.Fatal(err)
	}
	h := Open(Options{Dir: dir})
	t.Cleanup(func() { h.Close(context.Background()) })
	return h
}

func chatSettings(t *testing.T, raw string) chat.Settings {
	t.Helper()
	s, err := chat.LoadSettings(json.RawMessage(raw))
	if err != nil {
		t.Fatal(err)
	}
	return s
}
