package provider

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sort"
	"strconv"
	"strings"
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
	// keys are the property names renamed in a tool's schema, by our tool
	// name: sent → the server's (propertyKeys).
	keys map[string]map[string]string
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

// setKeys records the property names renamed in our tool's schema.
func (n *toolNames) setKeys(tool string, keys map[string]string) {
	if len(keys) == 0 {
		return
	}
	if n.keys == nil {
		n.keys = map[string]map[string]string{}
	}
	n.keys[tool] = keys
}

// argsToOurs is a call's arguments, as the model wrote them for our tool,
// with the server's property names; argsToWire the other way, for a past
// call sent again. Arguments of a tool with no renames, or that are not
// an object, come back as they are.
func (n *toolNames) argsToOurs(tool string, args json.RawMessage) json.RawMessage {
	return renameArgs(args, n.keys[tool], false)
}

func (n *toolNames) argsToWire(tool string, args json.RawMessage) json.RawMessage {
	return renameArgs(args, n.keys[tool], true)
}

// renameArgs renames the top-level keys of args by keys (sent → the
// server's), or the other way when toWire.
func renameArgs(args json.RawMessage, keys map[string]string, toWire bool) json.RawMessage {
	if len(keys) == 0 {
		return args
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(args, &m) != nil || m == nil {
		return args
	}
	// Renamed in place: a sent name is one the API takes and the server's
	// is one it refuses, so no rename's target is another's source.
	for sent, ours := range keys {
		from, to := sent, ours
		if toWire {
			from, to = ours, sent
		}
		if v, ok := m[from]; ok {
			delete(m, from)
			m[to] = v
		}
	}
	b, err := json.Marshal(m)
	if err != nil {
		return args
	}
	return b
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
	return !digitFirst(s) && only(s, limit, nameByte)
}

// only reports whether s is 1 to limit bytes, each one ok takes.
func only(s string, limit int, ok func(byte) bool) bool {
	if s == "" || len(s) > limit {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !ok(s[i]) {
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

// maxKeyLen is the longest property name Anthropic takes.
const maxKeyLen = 64

// keyByte is a byte a property name may hold: ^[a-zA-Z0-9_.-]{1,64}$.
func keyByte(c byte) bool { return nameByte(c) || c == '.' }

func validKey(k string) bool { return only(k, maxKeyLen, keyByte) }

// propertyKeys renames the top-level property names of a translated
// schema s that the dialect refuses, in its properties and required, and
// returns the renames (sent → the server's), nil when there were none.
// A name becomes its runs of other bytes as one "_", trimmed ("$filter"
// → "filter", "rule_name[]" → "rule_name"), with a hash of the original
// appended when that is empty, too long or taken; its description says
// the server's name, which the tool's own description may use.
func propertyKeys(s map[string]any) map[string]string {
	props, _ := s["properties"].(map[string]any)
	var bad []string
	for k := range props {
		if !validKey(k) {
			bad = append(bad, k)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	sort.Strings(bad)
	keys := make(map[string]string, len(bad))
	sentFor := make(map[string]string, len(bad)) // the server's name → sent
	for _, k := range bad {
		base := wireKey(k)
		w := base
		if _, taken := props[w]; taken || !validKey(w) {
			w = hashedKey(k, base)
		}
		for i := 2; ; i++ {
			if _, taken := props[w]; !taken {
				break
			}
			suffix := "_" + strconv.Itoa(i)
			w = truncate(hashedKey(k, base), maxKeyLen-len(suffix)) + suffix
		}
		p := props[k]
		if m, ok := p.(map[string]any); ok {
			m = clone(m)
			m["description"] = joinNote(str(m["description"]), "The tool's name for it: "+strconv.Quote(k)+".")
			p = m
		}
		delete(props, k)
		props[w] = p
		keys[w], sentFor[k] = k, w
	}
	if req, ok := s["required"].([]any); ok {
		for i, r := range req {
			if w, ok := sentFor[str(r)]; ok {
				req[i] = w
			}
		}
	}
	return keys
}

// wireKey is k with each run of bytes a property name may not hold as
// one "_", trimmed of "_" at its ends.
func wireKey(k string) string {
	b := make([]byte, 0, len(k))
	for i := 0; i < len(k); i++ {
		switch c := k[i]; {
		case keyByte(c):
			b = append(b, c)
		case len(b) > 0 && b[len(b)-1] != '_':
			b = append(b, '_')
		}
	}
	return strings.Trim(string(b), "_")
}

// hashedKey is base (or "p") cut to fit, with a hash of k appended.
func hashedKey(k, base string) string {
	if base == "" {
		base = "p"
	}
	sum := sha256.Sum256([]byte(k))
	h := "_" + hex.EncodeToString(sum[:4])
	return truncate(base, maxKeyLen-len(h)) + h
}
