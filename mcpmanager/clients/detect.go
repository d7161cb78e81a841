package clients

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

var (
	codexTable   = regexp.MustCompile(`(?m)^[ \t]*\[mcp_servers\.`)
	gooseKey     = regexp.MustCompile(`(?m)^extensions:[ \t]*(#.*)?$`)
	continueList = regexp.MustCompile(`(?m)^mcpServers:[ \t]*(#.*)?$`)
)

// Detect says which app's own format a config file is in, for the
// formats config.ParseContext does not read: Codex's TOML
// ([mcp_servers.NAME]), Goose's YAML (extensions:), Continue's YAML
// (mcpServers: a list), opencode's JSON ("mcp" holding entries with a
// "type" of "local" or "remote") and Zed's ("context_servers"). name is
// the file's name or path ("" for pasted text): its extension settles
// TOML or YAML where the text alone does not. The ClientFile it returns
// has name as its Path, for Read; ok is false for every other file,
// those of the mcpServers family included.
func Detect(name string, data []byte) (f config.ClientFile, ok bool) {
	ext := strings.ToLower(filepath.Ext(name))
	text := bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))
	file := func(style config.ClientStyle, key string) (config.ClientFile, bool) {
		return config.ClientFile{Path: name, Style: style, Key: []string{key}}, true
	}
	if len(text) > 0 && (text[0] == '{' || text[0] == '/') { // JSON or JSONC
		root, err := config.ParseJSONC(name, data)
		if err != nil || root == nil || root.Kind != "object" {
			return config.ClientFile{}, false
		}
		if c := root.Get("context_servers"); c != nil && c.Kind == "object" && root.Get("mcpServers") == nil {
			return file(config.StyleZed, "context_servers")
		}
		if isOpencode(root.Get("mcp")) {
			return file(config.StyleOpencode, "mcp")
		}
		return config.ClientFile{}, false
	}
	switch {
	case ext == ".toml" || codexTable.Match(text):
		return file(config.StyleCodex, "mcp_servers")
	case gooseKey.Match(text):
		return file(config.StyleGoose, "extensions")
	case continueList.Match(text) && (ext == ".yaml" || ext == ".yml" || ext == ""):
		return file(config.StyleContinue, "mcpServers")
	}
	return config.ClientFile{}, false
}

// isOpencode says whether mcp is opencode's: an object of entries, none
// of them VS Code's "servers" or "inputs", each with a "type" of "local"
// or "remote" or a command written as one array.
func isOpencode(mcp *config.JSONValue) bool {
	if mcp == nil || mcp.Kind != "object" || len(mcp.Members) == 0 || mcp.Get("servers") != nil || mcp.Get("inputs") != nil {
		return false
	}
	for _, m := range mcp.Members {
		v := m.Value
		if v.Kind != "object" {
			return false
		}
		t, cmd := v.Get("type"), v.Get("command")
		local := t != nil && (t.Text == "local" || t.Text == "remote")
		if !local && (cmd == nil || cmd.Kind != "array") {
			return false
		}
	}
	return true
}

// Title names a style's app for messages ("Codex"): its config.ClientApps
// entry, which has the style's name for every app with a format of its own.
func Title(style config.ClientStyle) string {
	for _, a := range config.ClientApps() {
		if a.Name == string(style) {
			return a.Title
		}
	}
	return string(style)
}
