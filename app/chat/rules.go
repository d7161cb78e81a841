package chat

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// ErrBadRule means a rule's tool, effect, path or pattern cannot be used.
var ErrBadRule = errors.New("the approval rule cannot be used")

// Rule allows or denies the calls of a tool whose arguments match: allow
// workspace__execute_shell when command matches "git status*". A deny
// rule always wins, over allow rules, over "always allow" answers and over
// the CLI's --yes; an allow rule runs a call without asking unless the
// tool's own policy is deny.
type Rule struct {
	ID string `json:"id"`
	// Tool is an exposed name (server__tool) or every tool of a server
	// (server__*), as Policies are keyed.
	Tool   string `json:"tool"`
	Effect Policy `json:"effect"` // PolicyAllow or PolicyDeny
	// Match lists conditions; all must hold.
	Match []Match `json:"match"`
}

// Match is one condition on the arguments: the value at Path matches Glob
// or Regex (one of them). Strings are matched as they are; numbers,
// booleans, objects and arrays as their JSON. A missing value never matches.
type Match struct {
	// Path into the arguments object: "command", "options.recursive",
	// "paths[0]"; a leading "$." is allowed.
	Path string `json:"path"`
	// Glob: * is any run of characters (slashes and spaces too), ? one
	// character, [abc] one of a set; the whole value must match.
	Glob string `json:"glob,omitempty"`
	// Regex is a Go regular expression matched against the whole value;
	// in a deny rule "." matches a newline too.
	Regex string `json:"regex,omitempty"`
}

// Separators start another command in a shell, or redirect one. An allow
// rule does not match a value with more of one than its own pattern shows:
// "git status*" approves "git status --short", never "git status; rm -rf
// ~" or "git status\nrm -rf ~", which are asked about instead.
var Separators = []string{"\n", "\r", ";", "&", "|", "`", "$(", ">", "<"}

// RuleError says which rule and field is wrong and what to do.
type RuleError struct {
	Tool  string
	Field string // "match[0].regex", "effect", ...
	Err   error
}

func (e *RuleError) Error() string {
	return fmt.Sprintf("approval rule for %s: %s: %v (fix it on the Tools page, under Approval rules)", e.Tool, e.Field, e.Err)
}

func (e *RuleError) Unwrap() error { return ErrBadRule }

// Validate checks a rule; the error names the field.
func (r Rule) Validate() error {
	_, err := r.compile()
	return err
}

// compiled is a rule ready to match.
type compiled struct {
	rule  Rule
	paths [][]step
	res   []*regexp.Regexp
}

// step is one key or index of a path.
type step struct {
	key   string
	index int // -1 for a key
}

func (r Rule) compile() (compiled, error) {
	bad := func(field string, err error) (compiled, error) {
		return compiled{}, &RuleError{Tool: r.Tool, Field: field, Err: err}
	}
	if strings.TrimSpace(r.Tool) == "" {
		return bad("tool", errors.New("empty: name a tool (server__tool) or a server (server__*)"))
	}
	if r.Effect != PolicyAllow && r.Effect != PolicyDeny {
		return bad("effect", fmt.Errorf("%q: use allow or deny", r.Effect))
	}
	if len(r.Match) == 0 {
		return bad("match", errors.New("no condition: a rule without one would be the tool's policy; set that instead"))
	}
	c := compiled{rule: r}
	for i, m := range r.Match {
		field := fmt.Sprintf("match[%d]", i)
		p, err := parsePath(m.Path)
		if err != nil {
			return bad(field+".path", err)
		}
		var re *regexp.Regexp
		switch {
		case m.Glob != "" && m.Regex != "":
			return bad(field, errors.New("both glob and regex: keep one"))
		case m.Regex != "":
			if _, err = regexp.Compile(m.Regex); err == nil { // the error quotes the user's own pattern
				flags := "" // an allow regex's "." stops at a newline, which Separators hold to anyway
				if r.Effect == PolicyDeny {
					flags = "(?s)" // a deny rule sees the whole value, lines after the first too
				}
				re, err = regexp.Compile(flags + `^(?:` + m.Regex + `)$`)
			}
			if err != nil {
				return bad(field+".regex", err)
			}
		default:
			if re, err = globRegexp(m.Glob); err != nil {
				return bad(field+".glob", err)
			}
		}
		c.paths = append(c.paths, p)
		c.res = append(c.res, re)
	}
	return c, nil
}

// parsePath reads "a.b[2].c" (optionally "$.a...").
func parsePath(p string) ([]step, error) {
	s := strings.TrimPrefix(strings.TrimSpace(p), "$.")
	if s == "" {
		return nil, errors.New("empty: name an argument, e.g. command or options.path")
	}
	var out []step
	for part := range strings.SplitSeq(s, ".") {
		key, rest, _ := strings.Cut(part, "[")
		if key == "" && len(out) == 0 && rest == "" {
			return nil, fmt.Errorf("%q: an empty name between dots", p)
		}
		if key != "" {
			out = append(out, step{key: key, index: -1})
		} else if rest == "" {
			return nil, fmt.Errorf("%q: an empty name between dots", p)
		}
		for rest != "" {
			num, after, ok := strings.Cut(rest, "]")
			n, err := strconv.Atoi(num)
			if !ok || err != nil || n < 0 {
				return nil, fmt.Errorf("%q: an index must be [0], [1], …", p)
			}
			out = append(out, step{index: n})
			if after == "" {
				break
			}
			if !strings.HasPrefix(after, "[") {
				return nil, fmt.Errorf("%q: write a.b[0].c", p)
			}
			rest = after[1:]
		}
	}
	return out, nil
}

// globRegexp turns a glob into an anchored regexp.
func globRegexp(g string) (*regexp.Regexp, error) {
	var b strings.Builder
	b.WriteString(`^(?s:`)
	for i := 0; i < len(g); i++ {
		switch c := g[i]; c {
		case '*':
			b.WriteString(`.*`)
		case '?':
			b.WriteString(`.`)
		case '[':
			end := strings.IndexByte(g[i+1:], ']')
			if end < 0 {
				return nil, fmt.Errorf("%q: a [ without its ]", g)
			}
			set := g[i+1 : i+1+end]
			if strings.HasPrefix(set, "!") {
				set = "^" + set[1:]
			}
			b.WriteString("[" + strings.ReplaceAll(set, `\`, `\\`) + "]")
			i += end + 1
		case '\\':
			if i+1 < len(g) {
				i++
				b.WriteString(regexp.QuoteMeta(g[i : i+1]))
			}
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString(`)$`)
	return regexp.Compile(b.String())
}

// matches reports whether every condition holds for args; an allow rule's
// value may not have more Separators than its pattern.
func (c compiled) matches(args map[string]any) bool {
	for i, p := range c.paths {
		v, ok := lookup(args, p)
		if !ok {
			return false
		}
		s := text(v)
		if !c.res[i].MatchString(s) {
			return false
		}
		if m := c.rule.Match[i]; c.rule.Effect == PolicyAllow && smuggles(s, m.Glob+m.Regex) {
			return false
		}
	}
	return true
}

// smuggles reports whether value has more of a separator than pattern.
func smuggles(value, pattern string) bool {
	for _, sep := range Separators {
		if strings.Count(value, sep) > strings.Count(pattern, sep) {
			return true
		}
	}
	return false
}

func lookup(v any, p []step) (any, bool) {
	for _, s := range p {
		switch x := v.(type) {
		case map[string]any:
			if s.index >= 0 {
				return nil, false
			}
			var ok bool
			if v, ok = x[s.key]; !ok {
				return nil, false
			}
		case []any:
			if s.index < 0 || s.index >= len(x) {
				return nil, false
			}
			v = x[s.index]
		default:
			return nil, false
		}
	}
	return v, true
}

func text(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	raw, _ := json.Marshal(v)
	return string(raw)
}

// appliesTo reports whether the rule names t (exactly, or its server's
// wildcard).
func (r Rule) appliesTo(t router.Tool) bool {
	return r.Tool == t.Name || r.Tool == t.Server+router.Separator+"*"
}

// Rules are the approval rules of settings.
type Rules []Rule

// Decide says what the rules make of a call of t with args: PolicyDeny when
// a deny rule matches (or a rule naming t cannot be read: a broken rule
// must not let calls through), PolicyAllow when an allow rule matches and
// no deny rule does, "" when none applies. rule is the deciding rule.
func (rs Rules) Decide(t router.Tool, args map[string]any) (p Policy, rule *Rule, err error) {
	var allow *Rule
	for i := range rs {
		r := &rs[i]
		if !r.appliesTo(t) {
			continue
		}
		c, err := r.compile()
		if err != nil {
			return PolicyDeny, r, err
		}
		if !c.matches(args) {
			continue
		}
		if r.Effect == PolicyDeny {
			return PolicyDeny, r, nil
		}
		if allow == nil {
			allow = r
		}
	}
	if allow != nil {
		return PolicyAllow, allow, nil
	}
	return "", nil, nil
}

// Describe is a rule in one line: "allow workspace__execute_shell when
// command matches git status*".
func (r Rule) Describe() string {
	var conds []string
	for _, m := range r.Match {
		if m.Regex != "" {
			conds = append(conds, fmt.Sprintf("%s matches /%s/", m.Path, m.Regex))
		} else {
			conds = append(conds, fmt.Sprintf("%s matches %s", m.Path, m.Glob))
		}
	}
	return fmt.Sprintf("%s %s when %s", r.Effect, r.Tool, strings.Join(conds, " and "))
}

// ProposeRule is the rule "always allow calls like this" offers for a call
// of tool with args: allow, with each top-level argument that is a string,
// number or boolean matched exactly (as a glob with * ? [ escaped). The
// user edits it (command: "git status" → "git status*") before it is saved.
func ProposeRule(tool string, args json.RawMessage) Rule {
	r := Rule{Tool: tool, Effect: PolicyAllow}
	var m map[string]any
	if json.Unmarshal(args, &m) != nil {
		return r
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		switch m[k].(type) {
		case string, float64, bool:
			r.Match = append(r.Match, Match{Path: k, Glob: globEscape(text(m[k]))})
		}
	}
	return r
}

func globEscape(s string) string {
	var b strings.Builder
	for _, c := range s {
		if strings.ContainsRune(`*?[\`, c) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	return b.String()
}
