package mcpmanager

import "testing"

// TestLogName: a server's log file is never a Windows device name or a
// path, whatever the server is called (config files come from outside).
func TestLogName(t *testing.T) {
	for _, c := range []struct{ server, want string }{
		{"github", "github.log"},
		{"my server/x", "my_server_x.log"},
		{"con", "_con.log"},
		{"COM¹", "COM_.log"},
		{"lpt1", "_lpt1.log"},
		{"..", "_.log"},
		{"conin$", "conin_.log"},
	} {
		if got := logName(c.server); got != c.want {
			t.Errorf("logName(%q) = %q, want %q", c.server, got, c.want)
		}
	}
}
