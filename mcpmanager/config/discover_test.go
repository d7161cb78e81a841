package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// touch creates the files (relative to root) that Discover should find.
func touch(t *testing.T, root string, rel ...string) {
	t.Helper()
	for _, r := range rel {
		p := filepath.Join(root, filepath.FromSlash(r))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(`{"mcpServers": {}}`), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

func TestDiscover(t *testing.T) {
	tests := []struct {
		name  string
		goos  string
		env   map[string]string // values are relative to the temp root
		files []string
		want  []string // "App|scope|path relative to the temp root"
	}{
		{
			name: "linux",
			goos: "linux",
			files: []string{
				"home/.config/Claude/claude_desktop_config.json",
				"home/.claude.json",
				"home/.cursor/mcp.json",
				"home/.config/Code/User/mcp.json",
				"home/.config/Code/User/settings.json",
				"home/.config/Code - Insiders/User/settings.json",
				"home/.codeium/windsurf/mcp_config.json",
				"home/Library/Application Support/Claude/claude_desktop_config.json", // wrong OS: ignored
			},
			want: []string{
				"Claude Desktop|user|home/.config/Claude/claude_desktop_config.json",
				"Claude Code|user|home/.claude.json",
				"Cursor|user|home/.cursor/mcp.json",
				"VS Code|user|home/.config/Code/User/mcp.json",
				"VS Code|user|home/.config/Code/User/settings.json",
				"VS Code Insiders|user|home/.config/Code - Insiders/User/settings.json",
				"Windsurf|user|home/.codeium/windsurf/mcp_config.json",
			},
		},
		{
			name:  "linux with XDG_CONFIG_HOME",
			goos:  "linux",
			env:   map[string]string{"XDG_CONFIG_HOME": "xdg"},
			files: []string{"xdg/Claude/claude_desktop_config.json", "home/.config/Claude/claude_desktop_config.json"},
			want:  []string{"Claude Desktop|user|xdg/Claude/claude_desktop_config.json"},
		},
		{
			name: "macOS",
			goos: "darwin",
			files: []string{
				"home/Library/Application Support/Claude/claude_desktop_config.json",
				"home/Library/Application Support/Code/User/mcp.json",
				"home/Library/Application Support/VSCodium/User/settings.json",
				"home/.cursor/mcp.json",
			},
			want: []string{
				"Claude Desktop|user|home/Library/Application Support/Claude/claude_desktop_config.json",
				"Cursor|user|home/.cursor/mcp.json",
				"VS Code|user|home/Library/Application Support/Code/User/mcp.json",
				"VSCodium|user|home/Library/Application Support/VSCodium/User/settings.json",
			},
		},
		{
			name: "windows",
			goos: "windows",
			env:  map[string]string{"APPDATA": "home/AppData/Roaming"},
			files: []string{
				"home/AppData/Roaming/Claude/claude_desktop_config.json",
				"home/AppData/Roaming/Code/User/settings.json",
				"home/.claude.json",
				"home/.codeium/windsurf/mcp_config.json",
			},
			want: []string{
				"Claude Desktop|user|home/AppData/Roaming/Claude/claude_desktop_config.json",
				"Claude Code|user|home/.claude.json",
				"VS Code|user|home/AppData/Roaming/Code/User/settings.json",
				"Windsurf|user|home/.codeium/windsurf/mcp_config.json",
			},
		},
		{
			name:  "windows without APPDATA falls back to the profile",
			goos:  "windows",
			files: []string{"home/AppData/Roaming/Claude/claude_desktop_config.json"},
			want:  []string{"Claude Desktop|user|home/AppData/Roaming/Claude/claude_desktop_config.json"},
		},
		{
			name:  "project files",
			goos:  "linux",
			files: []string{"proj/.mcp.json", "proj/.cursor/mcp.json", "proj/.vscode/mcp.json", "proj/.vscode/settings.json"},
			want: []string{
				"Claude Code|project|proj/.mcp.json",
				"Cursor|project|proj/.cursor/mcp.json",
				"VS Code|project|proj/.vscode/mcp.json",
			},
		},
		{
			name:  "directories are not files",
			goos:  "linux",
			files: []string{"home/.cursor/mcp.json/inner"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			touch(t, root, tt.files...)
			env := Env{
				GOOS:    tt.goos,
				Home:    filepath.Join(root, "home"),
				WorkDir: filepath.Join(root, "proj"),
				Getenv: func(k string) string {
					if v, ok := tt.env[k]; ok {
						return filepath.Join(root, filepath.FromSlash(v))
					}
					return ""
				},
			}
			var got []string
			for _, c := range Discover(env) {
				rel, err := filepath.Rel(root, c.Path)
				if err != nil || strings.HasPrefix(rel, "..") {
					t.Fatalf("%s is outside the test root", c.Path)
				}
				got = append(got, c.App+"|"+c.Scope+"|"+filepath.ToSlash(rel))
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// A zero Env must find nothing, rather than fall back to the real home.
func TestDiscoverZeroEnv(t *testing.T) {
	if got := Discover(Env{}); len(got) != 0 {
		t.Errorf("Discover(Env{}) = %v", got)
	}
	if got := Discover(Env{GOOS: "windows"}); len(got) != 0 {
		t.Errorf("Discover(windows) = %v", got)
	}
}

// Home and work dir being the same directory must not list a file twice.
func TestDiscoverDedupes(t *testing.T) {
	root := t.TempDir()
	touch(t, root, ".cursor/mcp.json")
	got := Discover(Env{GOOS: "linux", Home: root, WorkDir: root})
	if len(got) != 1 || got[0].Scope != "user" {
		t.Errorf("got %v", got)
	}
}
