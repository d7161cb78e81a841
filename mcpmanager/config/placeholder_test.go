package config

import "testing"

func TestPlaceholder(t *testing.T) {
	for v, want := range map[string]bool{
		"<YOUR_TOKEN>": true, "Bearer <YOUR_TOKEN>": true, "Bearer YOUR_API_KEY": true, "[API KEY]": true,
		"{{github_token}}": true, "YOUR_API_KEY": true, "your-api-key": true, "paste_your_key_here": true,
		"API_KEY_HERE": true, "sk-xxxxxxxx": true, "ghp_XXXXXXXXXXXX": true, "sk-...": true, "xxxxxxxx": true,
		"***": true, "REPLACE_ME": true, "changeme": true, "placeholder": true,

		"": false, "ghp_abcdefghijklmnop0123": false, "[]": false, "<>": false, "/home/me/docs": false,
		"--start-here": false, "here": false, "yourself": false, "true": false, "https://api.example.com": false,
		"${env:GITHUB_TOKEN}": false, "Bearer eyJhbGciOiJIUzI1NiJ9.e30.x": false, "-y": false, "...": false,
	} {
		if got := Placeholder(v); got != want {
			t.Errorf("Placeholder(%q) = %v, want %v", v, got, want)
		}
	}
}

// A config copied from a README with its stand-ins parses, with a warning
// naming each.
func TestPlaceholderWarned(t *testing.T) {
	f, err := ParseContext(t.Context(), "claude_desktop_config.json", []byte(`{"mcpServers": {"gh": {"command": "npx", "args": ["-y", "srv", "--token", "YOUR_TOKEN"],
		"env": {"GITHUB_TOKEN": "<YOUR_TOKEN>", "DEBUG": "1"}},
		"linear": {"url": "https://mcp.linear.app/mcp", "headers": {"Authorization": "Bearer <LINEAR_API_KEY>"}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, e := range f.Entries {
		for _, p := range e.Problems {
			if p.Severity == SeverityWarning {
				paths = append(paths, p.Path)
			}
		}
	}
	want := map[string]bool{"mcpServers.gh.args[3]": true, "mcpServers.gh.env.GITHUB_TOKEN": true, "mcpServers.linear.headers.Authorization": true}
	if len(paths) != len(want) {
		t.Fatalf("warnings at %v, want %v", paths, want)
	}
	for _, p := range paths {
		if !want[p] {
			t.Errorf("warning at %s, want one of %v", p, want)
		}
	}
}
