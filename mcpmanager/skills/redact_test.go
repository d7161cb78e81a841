package skills

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// skillSecret is a keyring value a server's skill holds.
const skillSecret = "SEKRIT-0042-skill"

// oneSecret is a Redactor that knows skillSecret.
type oneSecret struct{}

func (oneSecret) Redact(s string) string {
	return strings.ReplaceAll(s, skillSecret, "••••kill")
}
func (oneSecret) InJSON(raw []byte) bool { return bytes.Contains(raw, []byte(skillSecret)) }
func (oneSecret) Empty() bool            { return false }

// TestSkillsMasked: a server's skill that holds a secret (its description,
// frontmatter, SKILL.md and another file) reaches every reader masked:
// the listing, skills/get, a load (still verified against the digest the
// server listed) and a relayed read. The user's own skills (OwnData) are
// left as they are.
func TestSkillsMasked(t *testing.T) {
	md := "---\nname: pdf\ndescription: Fill PDF forms with " + skillSecret + "\n---\n\nUse token " + skillSecret + ".\n"
	entry := pdfEntry(md)
	entry["frontmatter"] = map[string]any{"name": "pdf", "description": "Fill PDF forms with " + skillSecret}
	forms := "forms " + skillSecret
	entry["resources"].([]any)[1] = map[string]any{"uri": "skill://pdf/forms/FORMS.md", "digest": Digest([]byte(forms)), "size": len(forms)}
	for _, c := range []struct {
		name   string
		own    bool
		masked bool
	}{
		{"a server's skill", false, true},
		{"the user's own skill", true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := &fakeSession{entries: []any{entry}, files: map[string]string{"skill://pdf/SKILL.md": md, "skill://pdf/forms/FORMS.md": forms}}
			cat := New(fakeSessions{"srv": f}, Options{Redact: oneSecret{}, OwnData: func(string) bool { return c.own }})
			ctx := t.Context()
			listing, err := cat.List(ctx, "srv")
			if err != nil || len(listing.Skills) != 1 {
				t.Fatalf("List = %+v, %v", listing, err)
			}
			sk := listing.Skills[0]
			loaded, err := cat.Load(ctx, sk)
			if err != nil {
				t.Fatalf("Load: %v; want the masked SKILL.md verified against the listing", err)
			}
			file, err := cat.Read(ctx, sk, "skill://pdf/forms/FORMS.md")
			if err != nil {
				t.Fatal(err)
			}
			raw, err := cat.ReadRaw(ctx, "srv", "skill://pdf/SKILL.md")
			if err != nil {
				t.Fatal(err)
			}
			var read struct {
				Contents []struct{ Text string } `json:"contents"`
			}
			if err := json.Unmarshal(raw, &read); err != nil || len(read.Contents) != 1 {
				t.Fatalf("ReadRaw = %s, %v; want a resources/read answer", raw, err)
			}
			for door, v := range map[string]any{"List": sk, "Load": loaded.Text, "Read": string(file), "ReadRaw": read.Contents[0].Text} {
				b, _ := json.Marshal(v)
				if holds := strings.Contains(string(b), skillSecret); holds == c.masked || c.masked != strings.Contains(string(b), "••••kill") {
					t.Errorf("%s: %s; want masked %v", door, b, c.masked)
				}
			}
		})
	}
}
