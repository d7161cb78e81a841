package config

import (
	"fmt"
	"strings"
)

// geminiOnlyKeys are server keys only Gemini CLI writes: a file whose
// entries use them is Gemini CLI's settings.json. ("includeTools" and
// "excludeTools" are Switchboard's keys too, but Switchboard never writes
// "timeout", the key this is asked for.)
var geminiOnlyKeys = []string{"httpUrl", "trust", "includeTools", "excludeTools"}

// geminiFile says why the file is Gemini CLI's settings.json, or "" when
// nothing says so: its path (~/.gemini/settings.json, a project's
// .gemini/settings.json), its "mcp": {"allowed"/"excluded"} lists, or a
// key only Gemini CLI gives a server. servers is the server map (nil when
// there is none). The reading of "timeout" depends on it: Gemini CLI's
// is in milliseconds.
func geminiFile(name string, root, servers *node) string {
	if p := strings.ToLower(strings.ReplaceAll(name, `\`, "/")); strings.HasSuffix(p, ".gemini/settings.json") {
		return "its path ends in .gemini/settings.json"
	}
	if mcp := root.get("mcp"); mcp != nil {
		for _, k := range []string{"allowed", "excluded"} {
			if v := mcp.get(k); v != nil && v.kind == kindArray {
				return fmt.Sprintf(`it has "mcp.%s"`, k)
			}
		}
	}
	if servers == nil || servers.kind != kindObject {
		return ""
	}
	for _, m := range servers.members {
		for _, k := range geminiOnlyKeys {
			if m.val.get(k) != nil {
				return fmt.Sprintf("its server %q has %q", m.key, k)
			}
		}
	}
	return ""
}
