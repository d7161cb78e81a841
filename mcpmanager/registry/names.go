package registry

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strings"
)

// Separator joins server and tool names: "github__create_issue".
const Separator = "__"

// maxName is the longest tool name every major LLM provider accepts.
const maxName = 64

var invalidRune = regexp.MustCompile(`[^a-zA-Z0-9_-]+`)

// Namespace returns the exposed name of tool on server: server__tool,
// sanitized to ^[a-zA-Z0-9_-]{1,64}$. Names that had to be changed (or cut to
// 64) carry a short hash of the original so two different tools do not end
// up with the same name.
func Namespace(server, tool string) string {
	raw := server + Separator + tool
	clean := sanitize(server) + Separator + sanitize(tool)
	if clean == raw && len(clean) <= maxName {
		return clean
	}
	sum := sha256.Sum256([]byte(raw))
	suffix := "_" + hex.EncodeToString(sum[:])[:6]
	if len(clean)+len(suffix) > maxName {
		clean = clean[:maxName-len(suffix)]
	}
	return clean + suffix
}

func sanitize(s string) string {
	s = invalidRune.ReplaceAllString(s, "_")
	s = strings.Trim(s, "_")
	if s == "" {
		return "x"
	}
	return s
}

// Prefix is how every exposed name of server's tools begins (server__).
func Prefix(server string) string { return sanitize(server) + Separator }
