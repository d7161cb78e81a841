package host

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// A file without a single server (an app's file before any was added, as
// people commit them) is refused, saying so, and nothing is written; a
// move out of an app's file whose servers all stayed is not refused.
func TestImportOfNoServersWritesNothing(t *testing.T) {
	h := open(t)
	for _, c := range []struct{ name, data, where string }{
		{"cline_mcp_settings.json", "{\n  \"mcpServers\": {\n    \n  }\n}", `"mcpServers" is empty`},
		{".mcp.json", `{"mcpServers": {}}`, `"mcpServers" is empty`},
		{".claude.json", `{"mcpServers": {}, "projects": {"/home/me/app": {"mcpServers": {}}}}`, `"mcpServers" is empty`},
		{".vscode/mcp.json", `{"inputs": [], "servers": {}}`, `"servers" is empty`},
		{"settings.json", `{"mcp": {"servers": {}}}`, `"mcp.servers" is empty`},
	} {
		for _, dry := range []bool{true, false} {
			_, err := h.ServerFiles.Import(t.Context(), ImportRequest{Name: c.name, Data: []byte(c.data), DryRun: dry})
			want := "no servers in " + c.name + ": " + c.where + ", so there is nothing to import"
			if !errors.Is(err, config.ErrEmpty) || !strings.Contains(err.Error(), want) {
				t.Errorf("%s (dry run %v): err = %v, want %q", c.name, dry, err, want)
			}
		}
	}
	if _, err := os.Stat(h.Dir().Config()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("config.json was written: %v", err)
	}
	if _, err := h.ServerFiles.Import(t.Context(), ImportRequest{Name: ".mcp.json", Data: []byte(`{"mcpServers": {"a": {"command": "x"}}}`), Only: []string{}, DryRun: true}); err != nil {
		t.Errorf("a move of no server: %v", err)
	}
}
