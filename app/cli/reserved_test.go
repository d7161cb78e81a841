package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A server cannot be added or imported under a built-in's name: it would
// replace the built-in (issue 16, item 3). 'servers add' saves through the
// window's form's call (Servers.Save), so it says what the form says.
func TestBuiltinNamesAreRefused(t *testing.T) {
	file := writeFile(t, "mcp.json", `{"mcpServers": {"workspace": {"command": "npx", "args": ["fake-workspace"]}}}`)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"add", []string{"servers", "add", "workspace", "--", "npx", "fake-workspace"},
			`name: "workspace" is the name of a server built into Switchboard; choose another name`},
		{"add in other case", []string{"servers", "add", "Content-Store", "--url", "https://example.com/mcp"},
			`name: "Content-Store" is the name of a server built into Switchboard; choose another name`},
		{"import", []string{"servers", "import", file},
			`mcpServers.workspace: the name "workspace" is reserved for Switchboard's built-in server; rename this server in`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := t.TempDir()
			code, out, errOut := runIn(t, data, tt.args...)
			if !strings.Contains(out+errOut, tt.want) {
				t.Fatalf("exit %d\nstdout: %s\nstderr: %s\nwant %q", code, out, errOut, tt.want)
			}
			if tt.name != "import" && code != ExitUsage {
				t.Errorf("exit %d, want %d", code, ExitUsage)
			}
			b, _ := os.ReadFile(filepath.Join(data, "config.json")) // none: nothing was written
			if cfg := strings.ToLower(string(b)); strings.Contains(cfg, `"workspace"`) || strings.Contains(cfg, `"content-store"`) {
				t.Errorf("config.json took it: %s", b)
			}
		})
	}
}

// A server already in the config under a built-in's name is not started:
// 'tools list' says so once on stderr, and the built-in keeps its tools.
func TestToolsListShowsRefusedServer(t *testing.T) {
	file := writeFile(t, "mcp.json", `{"mcpServers": {"workspace": {"command": "npx", "args": ["fake-workspace"]}}}`)
	code, out, errOut := runIn(t, t.TempDir(), "tools", "list", "--config", file)
	refused := `the name "workspace" is reserved for Switchboard's built-in server; rename this server`
	if code != 0 || !strings.Contains(out, "workspace__read_file") || strings.Count(errOut, refused) != 1 {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s\nwant %q once on stderr", code, out, errOut, refused)
	}
}
