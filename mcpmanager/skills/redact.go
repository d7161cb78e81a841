package skills

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// Redactor masks the secrets servers were started with (the keyring's
// values) in text; router.Redactor and *secrets.Redactor satisfy it. It
// must be safe for concurrent use.
type Redactor interface {
	// Redact returns s with every secret masked, or s when it holds none.
	Redact(s string) string
	// InJSON reports whether JSON text may hold a secret in a string.
	InJSON(raw []byte) bool
	// Empty reports whether no secret is known.
	Empty() bool
}

// A server's skills are masked (Options.Redact) as they enter, as the
// router masks what a server says: an entry's description and frontmatter
// when it is listed or got, and a file's text once it was verified
// against the digest and size listed (which hold for what the server
// sent), so the window, a chat's model and a client of serve get the
// masked text. A relayed read (ReadRaw) is masked too: a client that
// verifies it against the listed digest then refuses a file that held a
// secret, which is the point. The user's own skills (Options.OwnData: the
// skills on this computer) are left as they are.

// redactor is what masks server's skills, or nil.
func (c *Catalog) redactor(server string) Redactor {
	rd := c.opts.Redact
	if rd == nil || rd.Empty() || c.opts.OwnData != nil && c.opts.OwnData(server) {
		return nil
	}
	return rd
}

// redactSkill is sk with its description and frontmatter masked.
func redactSkill(rd Redactor, sk Skill) Skill {
	if rd == nil {
		return sk
	}
	sk.Description = rd.Redact(sk.Description)
	if fm, ok := redactValue(rd, sk.Frontmatter).(map[string]any); ok {
		sk.Frontmatter = fm
	}
	return sk
}

// redactFile is a skill file's content masked when it is text (a binary
// file is left as it is).
func redactFile(rd Redactor, b []byte) []byte {
	if rd == nil || !utf8.Valid(b) {
		return b
	}
	if m := rd.Redact(string(b)); m != string(b) {
		return []byte(m)
	}
	return b
}

// redactRaw is a relayed resources/read answer with its strings masked;
// decoded only when it may hold a secret.
func redactRaw(rd Redactor, raw json.RawMessage) json.RawMessage {
	if rd == nil || !rd.InJSON(raw) {
		return raw
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return raw
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(redactValue(rd, v)) != nil {
		return raw
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// redactValue is a decoded JSON value with every string masked, in a copy
// (the value may be a cached entry's).
func redactValue(rd Redactor, v any) any {
	switch v := v.(type) {
	case string:
		return rd.Redact(v)
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = redactValue(rd, e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = redactValue(rd, e)
		}
		return out
	}
	return v
}
