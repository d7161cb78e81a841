package config

import (
	"path/filepath"
)

// ClientStyle is the shape an app gives one server entry in its file.
type ClientStyle string

// The entry shapes of the apps in ClientApps.
const (
	// StyleMCPServers is Claude Desktop's {"command","args","env"} or
	// {"url","headers"} under "mcpServers", which most apps copied.
	StyleMCPServers ClientStyle = "mcpServers"
	// StyleTyped is StyleMCPServers with a "type" ("stdio", "http"), as
	// Claude Code and VS Code write it.
	StyleTyped ClientStyle = "typed"
	// StyleZed is Zed's "context_servers": {"command","args","env"}.
	StyleZed ClientStyle = "zed"
	// StyleOpencode is opencode's "mcp": {"type":"local","command":[...],
	// "environment":{...},"enabled":true}: the command is one array.
	StyleOpencode ClientStyle = "opencode"
	// StyleCodex is Codex's TOML: [mcp_servers.NAME] command, args, env.
	StyleCodex ClientStyle = "codex"
	// StyleGoose is Goose's YAML "extensions:" map of {type: stdio, cmd,
	// args, envs, enabled, name, timeout}.
	StyleGoose ClientStyle = "goose"
	// StyleContinue is Continue's YAML "mcpServers:" list of {name,
	// command, args, env}.
	StyleContinue ClientStyle = "continue"
)

// Syntax is the file format an app's config is written in.
func (s ClientStyle) Syntax() string {
	switch s {
	case StyleCodex:
		return "toml"
	case StyleGoose, StyleContinue:
		return "yaml"
	}
	return "json"
}

// ClientApp is an MCP client app this user may have: where it keeps its
// servers on each OS, in which shape. ClientApps lists them; Discover
// (what 'servers discover' and the import wizard show) and the clients
// package (connect, disconnect, move) both read this one list.
type ClientApp struct {
	// Name is short and stable, what the command line takes ("claude-code").
	Name string `json:"name"`
	// Title is what people call it ("Claude Code").
	Title string `json:"title"`
	// Processes are the executable names the app runs as, to tell whether
	// it is running (it must then be restarted to see a change).
	Processes []string `json:"-"`
	// Rewrites says the app writes its file while it runs or when it
	// quits, so an edit made while it runs can be lost.
	Rewrites bool `json:"-"`
	files    func(d appDirs) []ClientFile
}

// ClientFile is one file where an app keeps servers.
type ClientFile struct {
	Path string `json:"path"`
	// Scope is "user", "local" (one project's section of a user file:
	// Claude Code's projects.<path>.mcpServers) or "project" (a file in
	// the project, often kept in git).
	Scope string `json:"scope"`
	// Key is the path to the servers object (or list) in the file.
	Key   []string    `json:"key"`
	Style ClientStyle `json:"style"`
	// ReadOnly files are read ('servers discover', import) but connect
	// writes the app's other file (VS Code's settings.json: mcp.json is
	// where VS Code keeps servers now).
	ReadOnly bool `json:"readOnly,omitempty"`
}

// Importable says config.Parse reads the file's servers: a JSON file
// with "mcpServers", "servers" or "mcp.servers".
func (f ClientFile) Importable() bool {
	return f.Style == StyleMCPServers || f.Style == StyleTyped
}

// Files are the app's file locations on env's machine, existing or not,
// user scope first; project files only when env.WorkDir is set.
func (a ClientApp) Files(env Env) []ClientFile {
	d := dirsOf(env)
	if d.home == "" && d.appConfig == "" {
		return nil
	}
	var out []ClientFile
	for _, f := range a.files(d) {
		if f.Path == "" || (f.Scope != "user" && env.WorkDir == "") {
			continue
		}
		f.Path = filepath.Clean(f.Path)
		out = append(out, f)
	}
	return out
}

// appDirs are the base directories an app's files are under.
type appDirs struct {
	goos      string
	home      string
	appConfig string // ~/.config, ~/Library/Application Support, %APPDATA%
	xdg       string // $XDG_CONFIG_HOME or ~/.config, on every OS (CLI tools use it)
	work      string
	getenv    func(string) string
}

func dirsOf(env Env) appDirs {
	getenv := env.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	d := appDirs{goos: env.GOOS, home: env.Home, work: env.WorkDir, getenv: getenv}
	under := func(parts ...string) string {
		if env.Home == "" {
			return ""
		}
		return filepath.Join(append([]string{env.Home}, parts...)...)
	}
	d.xdg = under(".config")
	switch env.GOOS {
	case "darwin":
		d.appConfig = under("Library", "Application Support")
	case "windows":
		d.appConfig = getenv("APPDATA")
		if d.appConfig == "" {
			d.appConfig = under("AppData", "Roaming")
		}
	default:
		if x := getenv("XDG_CONFIG_HOME"); x != "" {
			d.xdg = x
		}
		d.appConfig = d.xdg
	}
	return d
}

// join is filepath.Join that stays "" when the base is unknown.
func join(base string, parts ...string) string {
	if base == "" {
		return ""
	}
	return filepath.Join(append([]string{base}, parts...)...)
}

func user(path string, style ClientStyle, key ...string) ClientFile {
	return ClientFile{Path: path, Scope: "user", Key: key, Style: style}
}

func project(path string, style ClientStyle, key ...string) ClientFile {
	return ClientFile{Path: path, Scope: "project", Key: key, Style: style}
}

// vscodeFamily is the files of VS Code and its forks that keep its layout.
func vscodeFamily(dir string) func(d appDirs) []ClientFile {
	return func(d appDirs) []ClientFile {
		settings := user(join(d.appConfig, dir, "User", "settings.json"), StyleTyped, "mcp", "servers")
		settings.ReadOnly = true
		return []ClientFile{
			user(join(d.appConfig, dir, "User", "mcp.json"), StyleTyped, "servers"),
			settings,
			project(join(d.work, ".vscode", "mcp.json"), StyleTyped, "servers"),
		}
	}
}

// ClientApps is every MCP client app Switchboard knows, in the order
// they are listed. The locations are each app's documented ones:
// Claude Desktop (modelcontextprotocol.io's quickstart), Claude Code
// (~/.claude.json, or $CLAUDE_CONFIG_DIR/.claude.json, and a project's
// .mcp.json), Cursor, VS Code (User/mcp.json, .vscode/mcp.json),
// Windsurf, Zed (settings.json "context_servers"), Gemini CLI, Codex
// ($CODEX_HOME/config.toml), Goose (config.yaml, on Windows
// %APPDATA%\Block\goose\config), Continue (~/.continue/config.yaml), LM
// Studio, opencode (~/.config/opencode on every OS), Cline and Roo Code
// (their VS Code extension storage; Roo Code's .roo/mcp.json) and Kiro.
func ClientApps() []ClientApp {
	return []ClientApp{
		{Name: "claude-desktop", Title: "Claude Desktop", Processes: []string{"Claude", "claude-desktop"}, Rewrites: true,
			files: func(d appDirs) []ClientFile {
				return []ClientFile{user(join(d.appConfig, "Claude", "claude_desktop_config.json"), StyleMCPServers, "mcpServers")}
			}},
		{Name: "claude-code", Title: "Claude Code", Processes: []string{"claude"}, Rewrites: true,
			files: func(d appDirs) []ClientFile {
				file := join(d.home, ".claude.json")
				if dir := d.getenv("CLAUDE_CONFIG_DIR"); dir != "" {
					file = filepath.Join(dir, ".claude.json")
				}
				local := ClientFile{Path: file, Scope: "local", Key: []string{"projects", d.work, "mcpServers"}, Style: StyleTyped}
				return []ClientFile{
					user(file, StyleTyped, "mcpServers"),
					local,
					project(join(d.work, ".mcp.json"), StyleTyped, "mcpServers"),
				}
			}},
		{Name: "cursor", Title: "Cursor", Processes: []string{"Cursor", "cursor"},
			files: func(d appDirs) []ClientFile {
				return []ClientFile{
					user(join(d.home, ".cursor", "mcp.json"), StyleMCPServers, "mcpServers"),
					project(join(d.work, ".cursor", "mcp.json"), StyleMCPServers, "mcpServers"),
				}
			}},
		{Name: "vscode", Title: "VS Code", Processes: []string{"code", "Code", "Electron"}, files: vscodeFamily("Code")},
		{Name: "vscode-insiders", Title: "VS Code Insiders", Processes: []string{"code-insiders", "Code - Insiders"}, files: vscodeFamily("Code - Insiders")},
		{Name: "vscodium", Title: "VSCodium", Processes: []string{"codium", "VSCodium"}, files: vscodeFamily("VSCodium")},
		{Name: "windsurf", Title: "Windsurf", Processes: []string{"windsurf", "Windsurf"},
			files: func(d appDirs) []ClientFile {
				return []ClientFile{user(join(d.home, ".codeium", "windsurf", "mcp_config.json"), StyleMCPServers, "mcpServers")}
			}},
		{Name: "zed", Title: "Zed", Processes: []string{"zed", "zed-editor", "Zed"},
			files: func(d appDirs) []ClientFile {
				dir := join(d.xdg, "zed")
				if d.goos == "windows" {
					dir = join(d.appConfig, "Zed")
				}
				return []ClientFile{
					user(join(dir, "settings.json"), StyleZed, "context_servers"),
					project(join(d.work, ".zed", "settings.json"), StyleZed, "context_servers"),
				}
			}},
		{Name: "gemini", Title: "Gemini CLI", Processes: []string{"gemini"},
			files: func(d appDirs) []ClientFile {
				return []ClientFile{
					user(join(d.home, ".gemini", "settings.json"), StyleMCPServers, "mcpServers"),
					project(join(d.work, ".gemini", "settings.json"), StyleMCPServers, "mcpServers"),
				}
			}},
		{Name: "codex", Title: "Codex", Processes: []string{"codex"},
			files: func(d appDirs) []ClientFile {
				dir := join(d.home, ".codex")
				if h := d.getenv("CODEX_HOME"); h != "" {
					dir = h
				}
				return []ClientFile{user(join(dir, "config.toml"), StyleCodex, "mcp_servers")}
			}},
		{Name: "goose", Title: "Goose", Processes: []string{"goose", "Goose"},
			files: func(d appDirs) []ClientFile {
				dir := join(d.xdg, "goose")
				if d.goos == "windows" {
					dir = join(d.appConfig, "Block", "goose", "config")
				}
				return []ClientFile{user(join(dir, "config.yaml"), StyleGoose, "extensions")}
			}},
		{Name: "continue", Title: "Continue",
			files: func(d appDirs) []ClientFile {
				return []ClientFile{user(join(d.home, ".continue", "config.yaml"), StyleContinue, "mcpServers")}
			}},
		{Name: "lmstudio", Title: "LM Studio", Processes: []string{"LM Studio", "lm-studio", "lmstudio"},
			files: func(d appDirs) []ClientFile {
				return []ClientFile{user(join(d.home, ".lmstudio", "mcp.json"), StyleMCPServers, "mcpServers")}
			}},
		{Name: "opencode", Title: "opencode", Processes: []string{"opencode"}, files: opencodeFiles},
		{Name: "cline", Title: "Cline", Processes: []string{"code", "Code", "cline"},
			files: func(d appDirs) []ClientFile {
				return []ClientFile{
					user(join(d.appConfig, "Code", "User", "globalStorage", "saoudrizwan.claude-dev", "settings", "cline_mcp_settings.json"), StyleMCPServers, "mcpServers"),
					user(join(d.home, ".cline", "data", "settings", "cline_mcp_settings.json"), StyleMCPServers, "mcpServers"),
				}
			}},
		{Name: "roo", Title: "Roo Code", Processes: []string{"code", "Code"},
			files: func(d appDirs) []ClientFile {
				return []ClientFile{
					user(join(d.appConfig, "Code", "User", "globalStorage", "rooveterinaryinc.roo-cline", "settings", "mcp_settings.json"), StyleMCPServers, "mcpServers"),
					project(join(d.work, ".roo", "mcp.json"), StyleMCPServers, "mcpServers"),
				}
			}},
		{Name: "kiro", Title: "Kiro", Processes: []string{"kiro", "Kiro"},
			files: func(d appDirs) []ClientFile {
				return []ClientFile{
					user(join(d.home, ".kiro", "settings", "mcp.json"), StyleMCPServers, "mcpServers"),
					project(join(d.work, ".kiro", "settings", "mcp.json"), StyleMCPServers, "mcpServers"),
				}
			}},
	}
}

// ClientAppNamed returns the app with the short name, and whether there is one.
func ClientAppNamed(name string) (ClientApp, bool) {
	for _, a := range ClientApps() {
		if a.Name == name {
			return a, true
		}
	}
	return ClientApp{}, false
}

// opencodeFiles are opencode's: ~/.config/opencode on every OS (it does
// not use the platform's own folder), JSON or JSONC.
func opencodeFiles(d appDirs) []ClientFile {
	dir := join(d.xdg, "opencode")
	if d.goos == "windows" || d.goos == "darwin" {
		dir = join(d.home, ".config", "opencode")
	}
	return []ClientFile{
		user(join(dir, "opencode.json"), StyleOpencode, "mcp"),
		user(join(dir, "opencode.jsonc"), StyleOpencode, "mcp"),
		project(join(d.work, "opencode.json"), StyleOpencode, "mcp"),
		project(join(d.work, "opencode.jsonc"), StyleOpencode, "mcp"),
	}
}
