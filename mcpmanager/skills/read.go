package skills

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
)

// Loaded is a skill's SKILL.md, verified, as the model gets it.
type Loaded struct {
	Skill Skill
	Text  string // SKILL.md, frontmatter included
}

// Load reads sk's SKILL.md (and nothing else), verifies it against the
// entry (digest and size when listed; its frontmatter field by field
// always: as written, or as Listed makes it for the listed name, which is
// how the local skills list one a lenient reader loads) and returns it. A
// mismatch is an ErrVerify error naming the server, skill and file, and the
// content is not returned.
func (c *Catalog) Load(ctx context.Context, sk Skill) (Loaded, error) {
	b, err := c.Read(ctx, sk, sk.URI)
	if err != nil {
		return Loaded{}, err
	}
	md, err := ParseSkillMD(b)
	if err != nil {
		return Loaded{}, fmt.Errorf("%s: skill %s: %s: %w: %v", sk.Server, sk.Name, sk.URI, ErrVerify, err)
	}
	if field, ok := sameFrontmatter(md.Frontmatter, sk.Frontmatter); !ok {
		if listed, _, err := Listed(md, sk.Name); err == nil {
			field, ok = sameFrontmatter(listed, sk.Frontmatter)
		}
		if !ok {
			return Loaded{}, fmt.Errorf("%s: skill %s: %s: %w: its frontmatter's %q is not what the server listed; the skill is not loaded", sk.Server, sk.Name, sk.URI, ErrVerify, field)
		}
	}
	return Loaded{Skill: sk, Text: string(b)}, nil
}

// Read reads one file of sk (a URI its entry lists; for a dynamic skill,
// any URI within its directory) through resources/read, verifies it
// against the entry's digest and size, and masks its text (Options.Redact).
func (c *Catalog) Read(ctx context.Context, sk Skill, uri string) ([]byte, error) {
	fail := func(format string, a ...any) error {
		return fmt.Errorf("%s: skill %s: %s: "+format, append([]any{sk.Server, sk.Name, sk.Path(uri)}, a...)...)
	}
	var want *File
	for i := range sk.Files {
		if sk.Files[i].URI == uri {
			want = &sk.Files[i]
		}
	}
	rel, inDir := strings.CutPrefix(uri, sk.Dir()+"/")
	switch {
	case want == nil && !sk.Dynamic:
		return nil, fail("%w: the skill lists no such file (its files: %s)", ErrUnknownSkill, strings.Join(sk.paths(), ", "))
	case want == nil && !inDir:
		return nil, fail("the file is outside the skill's directory")
	}
	if want == nil {
		// A dynamic skill's file is any path within its directory, but
		// never one that could leave it ("references/../../secrets").
		if err := CheckPath(rel); err != nil {
			return nil, fail("%w", err)
		}
	}
	s, err := c.sessions.Session(sk.Server)
	if err != nil {
		return nil, err
	}
	raw, err := c.send(ctx, s, "resources/read", map[string]any{"uri": uri})
	if err != nil {
		return nil, fail("resources/read: %w", err)
	}
	b, err := contents(raw, uri)
	if err != nil {
		return nil, fail("%w", err)
	}
	if want == nil {
		if len(b) > MaxSize {
			return nil, fail("%w: %d bytes, more than a skill may hold (%d)", ErrVerify, len(b), MaxSize)
		}
		return redactFile(c.redactor(sk.Server), b), nil
	}
	if int64(len(b)) != want.Size {
		return nil, fail("%w: %d bytes read, the listing says %d; the content is not used (the server serves other content than it lists: tell its author)", ErrVerify, len(b), want.Size)
	}
	if d := Digest(b); d != want.Digest {
		return nil, fail("%w: its digest is %s, the listing says %s; the content is not used (the server serves other content than it lists: tell its author)", ErrVerify, d, want.Digest)
	}
	return redactFile(c.redactor(sk.Server), b), nil // verified as sent, then masked
}

func (s Skill) paths() []string {
	out := make([]string, 0, len(s.Files))
	for _, f := range s.Files {
		out = append(out, s.Path(f.URI))
	}
	return out
}

// contents is the bytes of a resources/read answer's content for uri
// (text as UTF-8, a blob decoded).
func contents(raw json.RawMessage, uri string) ([]byte, error) {
	var r struct {
		Contents []struct {
			URI  string  `json:"uri"`
			Text *string `json:"text"`
			Blob *string `json:"blob"`
		} `json:"contents"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("resources/read answered with no contents: %w", err)
	}
	for _, c := range r.Contents {
		if c.URI != "" && c.URI != uri && len(r.Contents) > 1 {
			continue
		}
		switch {
		case c.Text != nil:
			return []byte(*c.Text), nil
		case c.Blob != nil:
			b, err := base64.StdEncoding.DecodeString(*c.Blob)
			if err != nil {
				return nil, fmt.Errorf("resources/read: the blob is not base64: %w", err)
			}
			return b, nil
		}
	}
	return nil, fmt.Errorf("resources/read answered with no content for %s", uri)
}

// sameFrontmatter compares two frontmatters field by field as JSON values
// (YAML's integers and JSON's numbers alike); on a difference it names the
// first field that differs.
func sameFrontmatter(got, listed map[string]any) (field string, ok bool) {
	norm := func(m map[string]any) map[string]any {
		b, err := json.Marshal(m)
		if err != nil {
			return nil
		}
		var out map[string]any
		_ = json.Unmarshal(b, &out)
		return out
	}
	g, l := norm(got), norm(listed)
	keys := slices.Sorted(maps.Keys(l)) // the first field that differs, the same each time
	for _, k := range keys {
		if !reflect.DeepEqual(g[k], l[k]) {
			return k, false
		}
	}
	for _, k := range slices.Sorted(maps.Keys(g)) {
		if _, in := l[k]; !in {
			return k, false
		}
	}
	return "", true
}
