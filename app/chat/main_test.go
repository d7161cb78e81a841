package chat_test

import (
	"os"
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/codemode"
)

func TestMain(m *testing.M) {
	codemode.MaybeChild() // code mode's scripts run in a child process: this test binary
	os.Exit(m.Run())
}
