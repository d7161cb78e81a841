// Package toolcheck looks for hidden instructions in a tool's definition
// ("tool poisoning"): a description is read by the model, not by the user,
// so a server can write into it text addressed to the model — an
// <IMPORTANT> block telling it to read ~/.ssh/id_rsa first and not to
// mention it, characters the user cannot see, or pages of text no person
// reads.
//
// Check returns findings, each with a kind, a reason a person can read and
// an excerpt with invisible characters written out (\u200b). It never
// changes the tool: the caller shows the findings (a warning badge on the
// tool and its server, again in the approval card) and the user decides.
//
//	for _, f := range toolcheck.Check(tool) {
//		fmt.Println(f.Kind, f.Reason, f.Excerpt)
//	}
//
// The rules are tuned on the 300+ tools of real servers in
// testdata/clean.json: none of them is flagged.
//
// CheckSkill checks a skill's text (SKILL.md, its other files) by the same
// rules, less what is ordinary in text written to instruct a model (a BOM,
// emoji sequences, tags in code, "do not show the user X until …"); a
// tool's description is checked as before.
package toolcheck

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"
)

// Kinds of finding.
const (
	KindAddressed   = "addressed-to-model" // an <IMPORTANT> block, "ignore previous instructions"
	KindSecrecy     = "secrecy"            // asks to keep something from the user
	KindCredentials = "credentials"        // asks to read key files or pass secrets on
	KindInvisible   = "invisible-text"     // zero-width, bidirectional or tag characters
	KindLength      = "long-description"   // far longer than tool descriptions usually are
)

// MaxDescription is the longest description not flagged as unusually long,
// in characters. The longest of the 321 real tools in testdata/clean.json
// is 6,549 (Desktop Commander's start_search), most are under 500; a
// variable so a test or a setting can change it.
var MaxDescription = 10000

// Finding is one reason to distrust a tool definition.
type Finding struct {
	Kind   string `json:"kind"`
	Reason string `json:"reason"`
	// Where is "description" or the JSON path of a schema text
	// ("inputSchema.properties.path.description").
	Where string `json:"where"`
	// Excerpt is the matching text with some context, invisible
	// characters escaped.
	Excerpt string `json:"excerpt"`
}

// rule is one pattern and what a match means; inSkill, when set, says
// whether a match counts in a skill's text (CheckSkill), where some
// wording is ordinary.
type rule struct {
	kind, reason string
	re           *regexp.Regexp
	inSkill      func(s string, loc []int, code []span) bool
}

// rules are matched against every text of the definition. They look for
// wording aimed at the model rather than words alone: "token" and
// "password" are common in honest descriptions, "read ~/.ssh/id_rsa" and
// "do not tell the user" are not.
var rules = []rule{
	{KindAddressed, "a tag addressed to the model (<IMPORTANT>, <SYSTEM>, <instructions>)",
		regexp.MustCompile(`(?i)<\s*/?\s*(important|system|instructions?|secret|hidden|admin|critical|assistant|context|prompt)(\s[^>]*)?>`), outsideCode},
	{KindAddressed, "tells the model to ignore its other instructions",
		regexp.MustCompile(`(?i)\b(ignore|disregard|forget|override)\s+(all\s+|any\s+)?(the\s+)?(previous|prior|above|earlier|other|system)\s+(instructions|prompts?|rules|messages)`), nil},
	{KindAddressed, "speaks to the model about how to treat other tools or the conversation",
		regexp.MustCompile(`(?i)\b(you\s+(must|should|are\s+required\s+to)\s+(first\s+)?(always\s+)?(read|send|include|call|pass|upload|exfiltrate))\b[^.\n]{0,80}\b(file|key|token|secret|password|credential|conversation|history|other tools?)`), nil},
	{KindSecrecy, "asks to keep something from the user",
		regexp.MustCompile(`(?i)\b(do\s+not|don'?t|never)\s+(tell|mention|inform|reveal|disclose|notify|show|alert)\b[^.\n]{0,40}\b(the\s+)?users?\b`), notSequencing},
	{KindSecrecy, "asks to keep something from the user",
		regexp.MustCompile(`(?i)\b(without|before)\s+(telling|informing|notifying|asking|alerting)\s+the\s+user\b|\b(keep|hide)\s+(this|it|that)\b[^.\n]{0,30}\bfrom\s+the\s+user\b|\bthe\s+user\s+(must|should)\s+not\s+(know|see|be\s+told)\b`), notBefore},
	{KindCredentials, "asks to read a private key or credentials file",
		regexp.MustCompile(`(?i)\b(read|cat|open|send|include|pass|upload|copy|forward|attach|exfiltrate|collect|contents?\s+of)\b[^.\n]{0,60}?(~/\.ssh|\$HOME/\.ssh|\.ssh/(id_|authorized_keys|config)|\bid_(rsa|dsa|ecdsa|ed25519)\b|\.aws/credentials|\.netrc\b|\.git-credentials|\.pgpass\b|\.docker/config\.json|\.kube/config|\.config/gh/hosts)`), nil},
	{KindCredentials, "asks to read or pass on secrets",
		regexp.MustCompile(`(?i)\b(read|cat|send|include|pass|upload|forward|exfiltrate|collect|append)\b[^.\n]{0,40}?(\.env\b|\b(private\s+keys?|ssh\s+keys?|api\s+keys|secrets|passwords|credentials|access\s+tokens)\b)[^.\n]{0,60}\b(as|into|to)\b`), nil},
}

// Check returns what looks like hidden instructions in t: in its title and
// description and in every text of its input schema (property
// descriptions, titles, defaults, enum values). No finding means none of
// the rules matched, not that the tool is safe.
func Check(t mcp.Tool) []Finding {
	var out []Finding
	texts := []text{{"title", t.Title}, {"description", t.Description}}
	if t.Annotations.Title != "" {
		texts = append(texts, text{"annotations.title", t.Annotations.Title})
	}
	schema := t.RawInputSchema
	if len(schema) == 0 {
		schema, _ = json.Marshal(t.InputSchema)
	}
	var v any
	if json.Unmarshal(schema, &v) == nil {
		texts = append(texts, schemaTexts(v, "inputSchema")...)
	}
	for _, tx := range texts {
		out = append(out, checkText(tx)...)
	}
	if n := utf8.RuneCountInString(t.Description); n > MaxDescription {
		out = append(out, Finding{Kind: KindLength, Where: "description",
			Reason:  fmt.Sprintf("the description is %d characters long; tool descriptions are rarely over %d, and a long one can hide instructions in text nobody reads", n, MaxDescription),
			Excerpt: excerpt(t.Description, len(t.Description)-200, len(t.Description))})
	}
	return out
}

type text struct{ where, s string }

// schemaTexts collects the string values under v with their JSON paths.
func schemaTexts(v any, path string) []text {
	switch v := v.(type) {
	case string:
		return []text{{path, v}}
	case map[string]any:
		var out []text
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			out = append(out, schemaTexts(v[k], path+"."+k)...)
			if hidden(k) { // a property name can hide characters too
				out = append(out, text{path + "." + k + " (name)", k})
			}
		}
		return out
	case []any:
		var out []text
		for i, e := range v {
			out = append(out, schemaTexts(e, fmt.Sprintf("%s[%d]", path, i))...)
		}
		return out
	}
	return nil
}

func checkText(tx text) []Finding { return checkIn(tx, false) }

// checkIn checks tx; skill marks a skill's text (CheckSkill).
func checkIn(tx text, skill bool) []Finding {
	if tx.s == "" {
		return nil
	}
	var code []span
	if skill {
		code = codeSpans(tx.s)
	}
	var out []Finding
	for _, r := range rules {
		if slices.ContainsFunc(out, func(f Finding) bool { return f.Reason == r.reason }) {
			continue
		}
		if loc := r.match(tx.s, skill, code); loc != nil {
			out = append(out, Finding{Kind: r.kind, Reason: r.reason, Where: tx.where, Excerpt: excerpt(tx.s, loc[0], loc[1])})
		}
	}
	if i, r, n := firstInvisible(tx.s, skill); n > 0 {
		out = append(out, Finding{Kind: KindInvisible, Where: tx.where,
			Reason:  fmt.Sprintf("contains %d invisible or direction-changing characters (the first is %s), which can hide text from the user", n, name(r)),
			Excerpt: excerpt(tx.s, i, i+utf8.RuneLen(r))})
	}
	return out
}

// match is where r first matches s (nil: nowhere); in a skill's text, the
// first match that counts there.
func (r rule) match(s string, skill bool, code []span) []int {
	if !skill || r.inSkill == nil {
		return r.re.FindStringIndex(s)
	}
	for _, loc := range r.re.FindAllStringIndex(s, -1) {
		if r.inSkill(s, loc, code) {
			return loc
		}
	}
	return nil
}

// invisible reports characters a person does not see but a model reads:
// format characters (zero-width space and joiners, bidirectional
// controls, the word joiner, the BOM, soft hyphen) and the Unicode tag
// block that can spell out a whole hidden message.
func invisible(r rune) bool {
	return unicode.Is(unicode.Cf, r) || (r >= 0xE0000 && r <= 0xE007F)
}

func hidden(s string) bool { return strings.IndexFunc(s, invisible) >= 0 }

func name(r rune) string {
	switch {
	case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069:
		return fmt.Sprintf("U+%04X, a bidirectional control", r)
	case r >= 0xE0000 && r <= 0xE007F:
		return fmt.Sprintf("U+%04X, a Unicode tag character", r)
	}
	return fmt.Sprintf("U+%04X", r)
}

// excerpt is s[start:end] with up to 60 bytes either side, cut at rune
// boundaries, with invisible characters and line breaks escaped.
func excerpt(s string, start, end int) string {
	const pad = 60
	a, b := max(0, start-pad), min(len(s), end+pad)
	for a > 0 && !utf8.RuneStart(s[a]) {
		a--
	}
	for b < len(s) && !utf8.RuneStart(s[b]) {
		b++
	}
	var sb strings.Builder
	if a > 0 {
		sb.WriteString("…")
	}
	sb.WriteString(Escape(s[a:b]))
	if b < len(s) {
		sb.WriteString("…")
	}
	return sb.String()
}

// Escape writes invisible characters out as \uXXXX (\U000XXXXX beyond the
// BMP) and line breaks as \n, so a person sees what a model reads.
func Escape(s string) string {
	var sb strings.Builder
	for _, r := range s {
		switch {
		case r == '\n':
			sb.WriteString(`\n`)
		case invisible(r) && r > 0xFFFF:
			fmt.Fprintf(&sb, `\U%08X`, r)
		case invisible(r):
			fmt.Fprintf(&sb, `\u%04X`, r)
		default:
			sb.WriteRune(r)
		}
	}
	return sb.String()
}

// Summary joins the reasons of findings, each once: "a tag addressed to
// the model (…); asks to keep something from the user".
func Summary(fs []Finding) string {
	var rs []string
	for _, f := range fs {
		if !slices.Contains(rs, f.Reason) {
			rs = append(rs, f.Reason)
		}
	}
	return strings.Join(rs, "; ")
}
