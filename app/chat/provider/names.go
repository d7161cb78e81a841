package provider

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
)

// Longest tool name each API accepts; all allow only [a-zA-Z0-9_-], and
// Gemini's no digit first.
const (
	openAINameLimit    = 64
	anthropicNameLimit = 128
)

// toolNames maps our tool names to names an API accepts and back. A name
// the API already accepts is sent as is; any other gets its bad characters
// replaced and a hash of the original appended (truncating to fit), so the
// alias is the same on every turn and two names that sanitise alike still
// differ. It is built per request and used by one goroutine.
type toolNames struct {
	limit int
	wire  map[string]string // ours → wire
	ours  map[string]string // wire → ours
}

func newToolNames(limit int, req Request) *toolNames {
	n := &toolNames{limit: limit, wire: map[string]string{}, ours: map[string]string{}}
	for _, t := range req.Tools {
		n.add(t.Name)
	}
	// Calls in the history may name tools no longer offered.
	for _, m := range req.Messages {
		for _, c := range m.ToolCalls {
			n.add(c.Name)
		}
	}
	return n
}

func (n *toolNames) add(name string) {
	if _, ok := n.wire[name]; ok {
		return
	}
	alias := name
	switch {
	case validName(name, n.limit):
	case digitFirst(name) && validName("_"+name, n.limit):
		alias = "_" + name // "1password__read": a digit may not start a name for Gemini
	default:
		alias = hashedName(name, n.limit)
	}
	for i := 2; ; i++ {
		if _, taken := n.ours[alias]; !taken {
			break
		}
		suffix := "_" + strconv.Itoa(i)
		alias = truncate(hashedName(name, n.limit), n.limit-len(suffix)) + suffix
	}
	n.wire[name], n.ours[alias] = alias, name
}

// toWire is the alias sent for our name.
func (n *toolNames) toWire(name string) string {
	if w, ok := n.wire[name]; ok {
		return w
	}
	n.add(name)
	return n.wire[name]
}

// toOurs is our name for an alias the model used; a name we never sent (a
// model inventing tools) comes back unchanged, for the tool loop to refuse.
func (n *toolNames) toOurs(alias string) string {
	if o, ok := n.ours[alias]; ok {
		return o
	}
	return alias
}

// validName reports whether every API takes s as it is: [a-zA-Z0-9_-]
// within limit, not starting with a digit (Gemini's "Must start with a
// letter or an underscore").
func validName(s string, limit int) bool {
	if s == "" || len(s) > limit || digitFirst(s) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !nameByte(s[i]) {
			return false
		}
	}
	return true
}

// digitFirst reports whether s starts with a digit, which Gemini takes
// in no tool name.
func digitFirst(s string) bool { return s != "" && s[0] >= '0' && s[0] <= '9' }

func nameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// hashedName is name with bad bytes replaced by '_', cut to fit, plus
// "_" and 8 hex digits of the original's SHA-256.
func hashedName(name string, limit int) string {
	b := []byte(name)
	for i, c := range b {
		if !nameByte(c) {
			b[i] = '_'
		}
	}
	sum := sha256.Sum256([]byte(name))
	suffix := "_" + hex.EncodeToString(sum[:4])
	prefix := ""
	if len(b) == 0 || digitFirst(string(b)) {
		prefix = "_" // no digit first (Gemini), and never empty
	}
	return prefix + truncate(string(b), limit-len(suffix)-len(prefix)) + suffix
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
