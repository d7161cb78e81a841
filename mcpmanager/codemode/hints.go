package codemode

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// The mistakes models make most in a script are named in its error, with
// what to write instead: goja's own words ("Cannot read property 'x' of
// undefined", "tiny is not defined") say what broke, not why.

// fence is a Markdown code fence's line: ``` with an optional language.
var fence = regexp.MustCompile("^\\s*```[\\w+-]*\\s*$")

// unfence is script without the Markdown fence a model wrapped it in
// (```js … ```), which JavaScript reads as template literals and fails on
// with "Value is not an object". The fence lines become blank lines, so
// an error's line is still the line the model wrote.
func unfence(script string) string {
	lines := strings.Split(script, "\n")
	first := slices.IndexFunc(lines, func(l string) bool { return strings.TrimSpace(l) != "" })
	if first < 0 || !fence.MatchString(lines[first]) {
		return script
	}
	lines[first] = ""
	for i := len(lines) - 1; i > first; i-- {
		if strings.TrimSpace(lines[i]) == "" {
			continue
		}
		if fence.MatchString(lines[i]) && strings.TrimSpace(lines[i]) == "```" {
			lines[i] = ""
		}
		break
	}
	return strings.Join(lines, "\n")
}

var (
	// serverRef is a server named after tools: tools.name or tools["name"].
	serverRef = regexp.MustCompile(`\btools\s*(?:\.\s*([A-Za-z_$][\w$]*)|\[\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')\s*\])`)
	// dashed is a member written with dots that goes on with a dash:
	// tools.everything.get-tiny-image reads as get minus tiny minus image.
	dashed = regexp.MustCompile(`\btools\s*\.\s*([A-Za-z_$][\w$]*)\s*\.\s*([A-Za-z_$][\w$]*(?:-[A-Za-z_$][\w$]*)+)`)
	// unawaited is a call's promise kept in a variable: const g = tools.a.b(…).
	unawaited = regexp.MustCompile(`\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(tools\s*(?:\.\s*[A-Za-z_$][\w$]*|\[[^\]\n]*\]){2})\s*\(`)
)

// hint is what to write instead, for a script that failed with msg (as
// "uncaught TypeError: …"): a server that does not exist, a dashed name
// written with dots, a call's promise used without await. "" when none
// applies.
func hint(script string, fns []Function, msg string) string {
	if h := dashedHint(script, fns); h != "" && strings.Contains(msg, "ReferenceError") {
		return h
	}
	if !strings.Contains(msg, "TypeError") {
		return ""
	}
	if h := serverHint(script, fns); h != "" {
		return h
	}
	return awaitHint(script)
}

// serverHint names the first server the script names that none of fns is
// from, and the servers there are.
func serverHint(script string, fns []Function) string {
	servers := map[string]bool{}
	var names []string
	for _, f := range fns {
		if !servers[f.Server] {
			servers[f.Server] = true
			names = append(names, "tools"+member(f.Server))
		}
	}
	for _, m := range serverRef.FindAllStringSubmatch(script, -1) {
		name := m[1]
		if m[1] == "" {
			name = unquote(m[2])
		}
		if !servers[name] && !keptOff[name] {
			return fmt.Sprintf("there is no server %q: the servers are %s (list_functions lists their functions)", name, strings.Join(names, ", "))
		}
	}
	return ""
}

// unquote is a JavaScript string literal's text ("a" or 'a').
func unquote(lit string) string {
	if strings.HasPrefix(lit, "'") {
		lit = `"` + strings.ReplaceAll(strings.Trim(lit, "'"), `"`, `\"`) + `"`
	}
	var s string
	if json.Unmarshal([]byte(lit), &s) != nil {
		return strings.Trim(lit, `"'`)
	}
	return s
}

// dashedHint is how to call a function whose name has a dash that the
// script wrote with dots.
func dashedHint(script string, fns []Function) string {
	for _, m := range dashed.FindAllStringSubmatch(script, -1) {
		for _, f := range fns {
			if f.Server == m[1] && strings.HasPrefix(f.Tool, m[2]) {
				return fmt.Sprintf("a name with a dash takes brackets: write %s(…), not tools.%s.%s(…)", f.Path(), m[1], m[2])
			}
		}
	}
	return ""
}

// awaitHint names the first call whose promise the script keeps without
// awaiting it.
func awaitHint(script string) string {
	m := unawaited.FindStringSubmatchIndex(script)
	if m == nil {
		return ""
	}
	line := strings.Count(script[:m[0]], "\n") + 1
	v, call := script[m[2]:m[3]], script[m[4]:m[5]]
	return fmt.Sprintf("line %d keeps %s(…) in %s without await: a call gives a promise, so write %s = await %s(…)", line, call, v, v, call)
}
