package mcpmanager

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"
)

// hash8 is the 8 hex digits a hashed log name carries.
func hash8(name string) string {
	sum := sha256.Sum256([]byte(name))
	return hex.EncodeToString(sum[:4])
}

// TestLogName: a server's log file is never a Windows device name or a
// path, whatever the server is called (config files come from outside);
// a name that had to change, or that differs only in case from another
// server's (one file on macOS and Windows), carries a hash of itself, so
// no two servers share a file. A plain name, and the all-lower-case one
// of names alike but for case, keeps its file.
func TestLogName(t *testing.T) {
	for _, c := range []struct {
		server  string
		servers []string
		want    string
	}{
		{"github", nil, "github.log"},
		{"GitHub", []string{"GitHub", "gitlab"}, "GitHub.log"},
		{"my server/x", nil, "my_server_x-" + hash8("my server/x") + ".log"},
		{"con", nil, "_con-" + hash8("con") + ".log"},
		{"COM¹", nil, "COM_-" + hash8("COM¹") + ".log"},
		{"lpt1", nil, "_lpt1-" + hash8("lpt1") + ".log"},
		{"..", nil, "_-" + hash8("..") + ".log"},
		{"conin$", nil, "conin_-" + hash8("conin$") + ".log"},
		{"データ", []string{"データ", "サービス"}, "_-" + hash8("データ") + ".log"},
		{"サービス", []string{"データ", "サービス"}, "_-" + hash8("サービス") + ".log"},
		{"odd server", []string{"odd server", "odd_server"}, "odd_server-" + hash8("odd server") + ".log"},
		{"odd_server", []string{"odd server", "odd_server"}, "odd_server.log"},
		{"odd", []string{"odd", "Odd"}, "odd.log"},
		{"Odd", []string{"odd", "Odd"}, "Odd-" + hash8("Odd") + ".log"},
		{"Odd", []string{"ODD", "Odd"}, "Odd-" + hash8("Odd") + ".log"},
	} {
		if got := logNameAmong(c.server, c.servers); got != c.want {
			t.Errorf("log of %q among %q = %q, want %q", c.server, c.servers, got, c.want)
		}
	}
}
