package skills

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// A SKILL.md is read leniently, as Claude Code 2.1 and the Agent Skills
// client guide read one: a skill they load is not refused here for a
// problem they only warn of. ParseSkillMD reads the file as it is written
// (the frontmatter block's fields and the body); Listed makes of that the
// frontmatter a skill is listed with (skills/list), within the Agent Skills
// specification's rules, and says what it changed. Both are deterministic,
// so Load verifies a listed SKILL.md against what Listed makes of it.

// Limits of the Agent Skills specification that a lenient reader warns of
// instead of refusing the skill.
const (
	// MaxCompatibility bounds a skill's compatibility text, in characters.
	MaxCompatibility = 500
	// MaxDerived bounds a description taken from a skill's body, as
	// Claude Code cuts one (97 characters and "...").
	MaxDerived = 100
)

// SkillMD is a SKILL.md as written.
type SkillMD struct {
	// Frontmatter is the fields of its frontmatter block; empty when it has
	// none, or when the block is not YAML even with its values quoted.
	Frontmatter map[string]any
	// Body is the text after the block (all of it without one).
	Body string
	// Problems say what a strict reader refuses that this one read (no
	// frontmatter, YAML read only with its values quoted), in words.
	Problems []string
}

// ErrNoDescription means a SKILL.md has no description and no body text to
// take one from: a model could not tell what the skill is for.
var ErrNoDescription = errors.New("no usable description")

// needsQuotes is what Claude Code's retry quotes a value for: a YAML
// indicator, or ": " inside it ("description: Use it: for PDFs").
var (
	needsQuotes = regexp.MustCompile("[{}\\[\\]*&#!|>%@`]|: ")
	keyValue    = regexp.MustCompile(`^([a-zA-Z_-]+):\s+(.+)$`)
	heading     = regexp.MustCompile(`^#+\s+(.+)$`)
)

// ParseSkillMD reads a SKILL.md: a UTF-8 BOM and CRLF line ends are
// allowed, the block's --- lines may end in spaces. YAML that fails is read
// again with each top-level "key: value" line's value quoted where it holds
// ": " or starts with an indicator (as Claude Code does); YAML that still
// fails, and a file without a block, are read as having no fields (Claude
// Code loads them too). Only a block that is never closed is an error: where
// its body starts cannot be told.
func ParseSkillMD(b []byte) (SkillMD, error) {
	s := strings.TrimPrefix(string(b), "\ufeff")
	first, rest, _ := strings.Cut(s, "\n")
	if strings.TrimRight(first, " \t\r") != "---" {
		return SkillMD{Frontmatter: map[string]any{}, Body: s,
			Problems: []string{"SKILL.md has no frontmatter (a --- block with name and description at its top)"}}, nil
	}
	lines := strings.SplitAfter(rest, "\n")
	end := slices.IndexFunc(lines, func(l string) bool { return strings.TrimRight(l, " \t\r\n") == "---" })
	if end < 0 {
		return SkillMD{}, errors.New("SKILL.md's frontmatter block (the --- at its top) has no closing --- line; add one after its last field")
	}
	md := SkillMD{Body: strings.Join(lines[end+1:], "")}
	block := strings.ReplaceAll(strings.Join(lines[:end], ""), "\r\n", "\n")
	fm, err := parseYAML(block)
	if err == nil {
		md.Frontmatter = fm
		return md, nil
	}
	if fm, qerr := parseYAML(quoteValues(block)); qerr == nil {
		md.Frontmatter = fm
		md.Problems = append(md.Problems, fmt.Sprintf("its frontmatter is not valid YAML (%s); it was read with its values quoted, as Claude Code reads it: put quotes around a value that holds \": \" or starts with a special character", yamlError(err)))
		return md, nil
	}
	md.Frontmatter = map[string]any{}
	md.Problems = append(md.Problems, fmt.Sprintf("its frontmatter is not valid YAML, even with its values quoted (%s); it is read as if it had none", yamlError(err)))
	return md, nil
}

// yamlError is err's message without the library's prefix, on one line.
func yamlError(err error) string {
	return Clean(strings.TrimPrefix(err.Error(), "yaml: "), 200)
}

// parseYAML reads a frontmatter block: a map of fields (nothing: none).
func parseYAML(block string) (map[string]any, error) {
	var v any
	if err := yaml.Unmarshal([]byte(block), &v); err != nil {
		return nil, err
	}
	switch v := jsonable(v).(type) {
	case nil:
		return map[string]any{}, nil
	case map[string]any:
		return v, nil
	}
	return nil, errors.New("it is not a map of fields")
}

// quoteValues is Claude Code's retry of a block that is not YAML: each
// top-level "key: value" line whose value is not quoted and needs it is
// written key: "value".
func quoteValues(block string) string {
	lines := strings.Split(block, "\n")
	for i, l := range lines {
		m := keyValue.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		v := m[2]
		if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') || !needsQuotes.MatchString(v) {
			continue
		}
		lines[i] = m[1] + `: "` + strings.ReplaceAll(strings.ReplaceAll(v, `\`, `\\`), `"`, `\"`) + `"`
	}
	return strings.Join(lines, "\n")
}

// jsonable is v with every map keyed by text (YAML allows numbers as keys,
// JSON does not) and every number JSON can carry: a listing is JSON.
func jsonable(v any) any {
	switch v := v.(type) {
	case map[any]any:
		m := make(map[string]any, len(v))
		for k, e := range v {
			m[fmt.Sprint(k)] = jsonable(e)
		}
		return m
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, e := range v {
			m[k] = jsonable(e)
		}
		return m
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = jsonable(e)
		}
		return out
	case float64:
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return fmt.Sprint(v)
		}
	}
	return v
}

// DescriptionFromBody is what Claude Code shows for a skill without a
// description: its body's first line with text (a heading without its #s),
// at most MaxDerived characters; "" when the body has no text.
func DescriptionFromBody(body string) string {
	for _, l := range strings.Split(body, "\n") {
		l = strings.TrimSpace(l)
		if Clean(l, 0) == "" {
			continue
		}
		if m := heading.FindStringSubmatch(l); m != nil {
			l = m[1]
		}
		if utf8.RuneCountInString(l) > MaxDerived {
			l = string([]rune(l)[:MaxDerived-3]) + "..."
		}
		return l
	}
	return ""
}

// Listed is the frontmatter of md as a skill named name is listed: its
// fields as written, but name set to name (the listing's identity), a
// description taken from the body when it has none (an error when the
// body has no text either), and each field the specification types made
// that type or left out: a list of licenses joined, metadata values that
// are not text kept as their JSON text, an empty compatibility or an
// allowed-tools that is neither text nor a list of texts left out. The
// warnings say each change, and what the specification's limits exceed.
func Listed(md SkillMD, name string) (map[string]any, []string, error) {
	fm := make(map[string]any, len(md.Frontmatter)+2)
	for k, v := range md.Frontmatter {
		fm[k] = jsonable(v)
	}
	fm["name"] = name
	desc, warns, err := description(md)
	if err != nil {
		return nil, nil, err
	}
	fm["description"] = desc
	warns = append(warns, typedFields(fm)...)
	return fm, warns, nil
}

// description is md's description as listed, and what was made of it.
func description(md SkillMD) (string, []string, error) {
	v, in := md.Frontmatter["description"]
	var why string
	switch d := v.(type) {
	case string:
		if Clean(d, 0) != "" {
			var warns []string
			if n := utf8.RuneCountInString(d); n > MaxDescription {
				warns = append(warns, fmt.Sprintf("its description is %d characters long (the Agent Skills limit is %d); the model gets its first %d", n, MaxDescription, MaxDescription))
			}
			return d, warns, nil
		}
		why = "its description is empty"
		if strings.TrimSpace(d) != "" {
			why = "its description has no visible text"
		}
	case bool, int, int64, uint64, float64:
		s := fmt.Sprint(d)
		return s, []string{fmt.Sprintf("its description is not text; it is read as %q", s)}, nil
	case nil:
		why = "its frontmatter has no description"
		if in {
			why = "its description is empty"
		}
	default:
		why = "its description is not text (a list or a map)"
	}
	line := DescriptionFromBody(md.Body)
	if line == "" {
		return "", nil, fmt.Errorf("%w: %s and its body has no text to stand for one; add a description: line saying what the skill does and when to use it", ErrNoDescription, why)
	}
	return line, []string{why + "; the first line of its body stands for one (as Claude Code reads it): add a description: line saying what the skill does and when to use it"}, nil
}

// typedFields makes license, compatibility, metadata and allowed-tools of
// fm the types the specification gives them, and says what it changed.
func typedFields(fm map[string]any) []string {
	var warns []string
	drop := func(key, why string) {
		delete(fm, key)
		warns = append(warns, fmt.Sprintf("its %s %s; it is left out", key, why))
	}
	if v, in := fm["license"]; in {
		switch l := v.(type) {
		case string:
		case []any:
			var parts []string
			for _, e := range l {
				parts = append(parts, fmt.Sprint(e))
			}
			fm["license"] = strings.Join(parts, ", ")
			warns = append(warns, fmt.Sprintf("its license is a list, not text; it is read as %q", fm["license"]))
		default:
			drop("license", "is not text")
		}
	}
	if v, in := fm["compatibility"]; in {
		switch c, ok := v.(string); {
		case !ok && v != nil:
			drop("compatibility", "is not text")
		case c == "":
			drop("compatibility", "is empty")
		case utf8.RuneCountInString(c) > MaxCompatibility:
			warns = append(warns, fmt.Sprintf("its compatibility is %d characters long (the Agent Skills limit is %d)", utf8.RuneCountInString(c), MaxCompatibility))
		}
	}
	if v, in := fm["metadata"]; in {
		m, ok := v.(map[string]any)
		if !ok {
			drop("metadata", "is not a map of names to texts")
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if _, ok := m[k].(string); ok {
				continue
			}
			b, _ := json.Marshal(m[k])
			m[k] = string(b)
			warns = append(warns, fmt.Sprintf("its metadata's %q is not text; it is kept as the JSON text %s", k, Clean(string(b), 80)))
		}
	}
	if v, in := fm["allowed-tools"]; in {
		ok := false
		switch t := v.(type) {
		case string:
			ok = true
		case []any:
			ok = !slices.ContainsFunc(t, func(e any) bool { _, s := e.(string); return !s })
		}
		if !ok {
			drop("allowed-tools", "is not text or a list of texts")
		}
	}
	return warns
}
