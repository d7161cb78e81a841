package chat_test

import (
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/codemode"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
)

func TestMain(m *testing.M) {
	codemode.MaybeChild() // code mode's scripts run in a child process: this test binary
	proctest.Main(m, nil) // removes the test servers it built
}
