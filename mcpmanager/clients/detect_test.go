package clients

import (
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

func TestDetect(t *testing.T) {
	for _, c := range []struct {
		name, data string
		want       config.ClientStyle // "" when config.ParseContext's or none
	}{
		{"config.toml", "model = \"o3\"\n[mcp_servers.docs]\ncommand = \"d\"\n", config.StyleCodex},
		{"", "[mcp_servers.docs]\ncommand = \"d\"\n", config.StyleCodex}, // pasted
		{"config.toml", "model = \"o3\"\n", config.StyleCodex},           // a Codex file without servers: its own message
		{"config.yaml", "extensions:\n  github:\n    cmd: npx\n", config.StyleGoose},
		{"", "GOOSE_MODEL: x\nextensions: # mine\n  a:\n    cmd: a\n", config.StyleGoose},
		{"config.yaml", "name: c\nmcpServers:\n  - name: a\n    command: a\n", config.StyleContinue},
		{"opencode.json", `{"mcp": {"a": {"type": "local", "command": ["npx", "a"]}}}`, config.StyleOpencode},
		{"", "// opencode\n{\"mcp\": {\"a\": {\"type\": \"remote\", \"url\": \"https://x\"},},}", config.StyleOpencode},
		{"settings.json", `{"context_servers": {"a": {"command": "a"}}}`, config.StyleZed},
		// The mcpServers family is config.ParseContext's.
		{"claude_desktop_config.json", `{"mcpServers": {"a": {"command": "a"}}}`, ""},
		{"settings.json", `{"mcp": {"servers": {"a": {"command": "a"}}}}`, ""},
		{"settings.json", `{"mcp": {"a": {"command": "a"}}}`, ""},
		{"mcp.json", `{"servers": {"a": {"type": "stdio", "command": "a"}}}`, ""},
		// Neither.
		{"notes.yaml", "title: x\nitems: [1, 2]\n", ""},
		{"", "not a config", ""},
		{"", "", ""},
		{"broken.json", `{"mcp": {`, ""},
	} {
		f, ok := Detect(c.name, []byte(c.data))
		if ok != (c.want != "") || f.Style != c.want {
			t.Errorf("Detect(%q, %q) = %q, %v; want %q", c.name, c.data, f.Style, ok, c.want)
		}
		if ok && f.Path != c.name {
			t.Errorf("Detect(%q, …).Path = %q", c.name, f.Path)
		}
	}
}
