package config

import (
	"path/filepath"
	"strings"
	"testing"
)

// Every app's files on each OS, as the apps' documentation gives them.
// Paths are relative to a fake root; Windows and macOS run here as data.
func TestClientAppFiles(t *testing.T) {
	want := map[string]map[string][]string{
		"linux": {
			"claude-desktop":  {"user home/.config/Claude/claude_desktop_config.json"},
			"claude-code":     {"user home/.claude.json", "local home/.claude.json", "project proj/.mcp.json"},
			"cursor":          {"user home/.cursor/mcp.json", "project proj/.cursor/mcp.json"},
			"vscode":          {"user home/.config/Code/User/mcp.json", "user home/.config/Code/User/settings.json", "project proj/.vscode/mcp.json"},
			"windsurf":        {"user home/.codeium/windsurf/mcp_config.json"},
			"zed":             {"user home/.config/zed/settings.json", "project proj/.zed/settings.json"},
			"gemini":          {"user home/.gemini/settings.json", "project proj/.gemini/settings.json"},
			"codex":           {"user home/.codex/config.toml"},
			"goose":           {"user home/.config/goose/config.yaml"},
			"continue":        {"user home/.continue/config.yaml"},
			"lmstudio":        {"user home/.lmstudio/mcp.json"},
			"opencode":        {"user home/.config/opencode/opencode.json", "user home/.config/opencode/opencode.jsonc", "project proj/opencode.json", "project proj/opencode.jsonc"},
			"cline":           {"user home/.config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json", "user home/.cline/data/settings/cline_mcp_settings.json"},
			"roo":             {"user home/.config/Code/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json", "project proj/.roo/mcp.json"},
			"kiro":            {"user home/.kiro/settings/mcp.json", "project proj/.kiro/settings/mcp.json"},
			"vscodium":        {"user home/.config/VSCodium/User/mcp.json", "user home/.config/VSCodium/User/settings.json", "project proj/.vscode/mcp.json"},
			"vscode-insiders": {"user home/.config/Code - Insiders/User/mcp.json", "user home/.config/Code - Insiders/User/settings.json", "project proj/.vscode/mcp.json"},
		},
		"darwin": {
			"claude-desktop": {"user home/Library/Application Support/Claude/claude_desktop_config.json"},
			"vscode":         {"user home/Library/Application Support/Code/User/mcp.json", "user home/Library/Application Support/Code/User/settings.json", "project proj/.vscode/mcp.json"},
			"zed":            {"user home/.config/zed/settings.json", "project proj/.zed/settings.json"},
			"goose":          {"user home/.config/goose/config.yaml"},
			"opencode":       {"user home/.config/opencode/opencode.json", "user home/.config/opencode/opencode.jsonc", "project proj/opencode.json", "project proj/opencode.jsonc"},
			"cline":          {"user home/Library/Application Support/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json", "user home/.cline/data/settings/cline_mcp_settings.json"},
			"codex":          {"user home/.codex/config.toml"},
		},
		"windows": {
			"claude-desktop": {"user appdata/Claude/claude_desktop_config.json"},
			"claude-code":    {"user home/.claude.json", "local home/.claude.json", "project proj/.mcp.json"},
			"vscode":         {"user appdata/Code/User/mcp.json", "user appdata/Code/User/settings.json", "project proj/.vscode/mcp.json"},
			"zed":            {"user appdata/Zed/settings.json", "project proj/.zed/settings.json"},
			"goose":          {"user appdata/Block/goose/config/config.yaml"},
			"continue":       {"user home/.continue/config.yaml"},
			"lmstudio":       {"user home/.lmstudio/mcp.json"},
			"opencode":       {"user home/.config/opencode/opencode.json", "user home/.config/opencode/opencode.jsonc", "project proj/opencode.json", "project proj/opencode.jsonc"},
			"windsurf":       {"user home/.codeium/windsurf/mcp_config.json"},
		},
	}
	root := t.TempDir()
	for goos, apps := range want {
		env := Env{GOOS: goos, Home: filepath.Join(root, "home"), WorkDir: filepath.Join(root, "proj"), Getenv: func(k string) string {
			if k == "APPDATA" {
				return filepath.Join(root, "appdata")
			}
			return ""
		}}
		for name, files := range apps {
			a, ok := ClientAppNamed(name)
			if !ok {
				t.Fatalf("no app %s", name)
			}
			var got []string
			for _, f := range a.Files(env) {
				rel, _ := filepath.Rel(root, f.Path)
				got = append(got, f.Scope+" "+filepath.ToSlash(rel))
			}
			if strings.Join(got, "\n") != strings.Join(files, "\n") {
				t.Errorf("%s on %s:\ngot  %q\nwant %q", name, goos, got, files)
			}
		}
	}
}

// The environment variables the apps document move their files.
func TestClientAppFilesFromEnv(t *testing.T) {
	env := Env{GOOS: "linux", Home: "/h", Getenv: func(k string) string {
		return map[string]string{"CLAUDE_CONFIG_DIR": "/cc", "CODEX_HOME": "/cx", "XDG_CONFIG_HOME": "/x"}[k]
	}}
	for name, want := range map[string]string{"claude-code": "/cc/.claude.json", "codex": "/cx/config.toml", "goose": "/x/goose/config.yaml", "zed": "/x/zed/settings.json"} {
		a, _ := ClientAppNamed(name)
		if got := a.Files(env)[0].Path; got != filepath.FromSlash(want) {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}
}

// The short names are the issue's, stable for scripts.
func TestClientAppNames(t *testing.T) {
	for _, n := range strings.Fields("claude-desktop claude-code cursor vscode windsurf zed gemini codex goose continue lmstudio opencode cline kiro") {
		if _, ok := ClientAppNamed(n); !ok {
			t.Errorf("no app named %s", n)
		}
	}
}
