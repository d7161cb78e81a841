package config

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// fenceLine is a Markdown code fence line: ``` or ~~~, with or without a
// language tag ("```json", "``` jsonc").
var fenceLine = regexp.MustCompile("^[ \t]*(```+|~~~+)[ \t]*([A-Za-z0-9_+.-]*)[ \t]*\r?$")

// unfence returns data without the Markdown code fence around it (a
// README's block pasted with its ```json and ``` lines), and the line of
// its opening fence (0 when there is none). The fence lines become
// spaces, so every line:column still points at the text as written.
func unfence(data []byte) ([]byte, int) {
	start := len(data) - len(bytes.TrimLeft(data, " \t\r\n"))
	end := len(bytes.TrimRight(data, " \t\r\n"))
	if start >= end {
		return data, 0
	}
	lineAt := func(off int) (from, to int) {
		from = bytes.LastIndexByte(data[:off], '\n') + 1
		to = len(data)
		if i := bytes.IndexByte(data[off:], '\n'); i >= 0 {
			to = off + i
		}
		return from, to
	}
	of, ot := lineAt(start)
	cf, ct := lineAt(end - 1)
	if of == cf {
		return data, 0
	}
	open, closing := fenceLine.FindSubmatch(data[of:ot]), fenceLine.FindSubmatch(data[cf:ct])
	if open == nil || closing == nil || len(closing[2]) > 0 || closing[1][0] != open[1][0] {
		return data, 0
	}
	out := slices.Clone(data)
	for _, span := range [][2]int{{of, ot}, {cf, ct}} {
		for j := span[0]; j < span[1]; j++ {
			if out[j] != '\r' {
				out[j] = ' '
			}
		}
	}
	return out, 1 + bytes.Count(data[:of], []byte("\n"))
}

// fencedNote is the warning a file read from inside a code fence gets,
// at the opening fence's line.
func fencedNote(line int) Problem {
	return Problem{Severity: SeverityWarning, Line: line, Col: 1,
		Message: "the text is a Markdown code block: only what is between its ``` lines was read"}
}

// whatInstead is err, the syntax error of a file read for its servers,
// saying what the text is instead of JSON when that can be told (see
// notJSON), and that it was inside a code block when it was (data is
// then without the fence lines).
func whatInstead(err error, data []byte, fenced int) error {
	var ve *ValidationError
	if !errors.As(err, &ve) || ve.Kind != ErrSyntax || len(ve.Problems) != 1 {
		return err
	}
	p := &ve.Problems[0]
	if fenced > 0 {
		p.Message = "the text is a Markdown code block, and what is between its ``` lines is not JSON: " + p.Message
		return err
	}
	first := len(data) - len(bytes.TrimLeft(data, " \t\r\n"))
	l, c := position(data, first)
	if why := notJSON(data, p.Line == l && p.Col == c); why != "" {
		p.Message = why
	}
	return err
}

// notJSON explains a syntax error by what the text is instead of JSON:
// Markdown with a code block (anywhere), or, for an error at the very
// start, a path (a symbolic link git checked out as a plain file), a web
// page, YAML or TOML, or something else. "" for an error further in a
// text that is none of them (a JSON file with a mistake in it), which
// its own message and line:column say best.
func notJSON(data []byte, atStart bool) string {
	if n := fenceAt(data); n > 0 {
		return fmt.Sprintf("this looks like Markdown (a ``` line at line %d): paste or import only what is between the ``` lines", n)
	}
	text := bytes.TrimSpace(data)
	first, _, _ := bytes.Cut(text, []byte("\n"))
	if tomlTable.Match(bytes.TrimSpace(first)) { // "[" starts a JSON array too: the error is further in
		return yamlOrTOMLText()
	}
	if len(text) == 0 || !atStart {
		return ""
	}
	if p := string(text); pathLike.MatchString(p) {
		return fmt.Sprintf("the file holds only the path %q, not JSON: it is likely a symbolic link that git checked out as a plain file (or a note of where the config is); import the file that path names", p)
	}
	switch {
	case text[0] == '<':
		return "the file is HTML or XML, not JSON (a web page saved instead of the raw file?); " + expected
	case yamlOrTOML.Match(text):
		return yamlOrTOMLText()
	}
	return "the file is not JSON; " + expected
}

// expected says what a config file should hold.
const expected = `expected a JSON object such as {"mcpServers": {"name": {"command": "…"}}}`

// yamlOrTOMLText is what a YAML or TOML file none of the apps' readers
// took is told, naming the apps whose YAML or TOML is read.
func yamlOrTOMLText() string {
	var apps []string
	dirs := sampleDirs()
	for _, a := range ClientApps() {
		if slices.ContainsFunc(a.files(dirs), func(f ClientFile) bool { return f.Style.Syntax() != "json" }) {
			apps = append(apps, a.Title)
		}
	}
	return "the file looks like YAML or TOML, not JSON, and not the config of an app whose YAML or TOML Switchboard reads (" +
		strings.Join(apps, ", ") + "); " + expected
}

// tomlTable is a TOML table's header line: "[mcp_servers.x]".
var tomlTable = regexp.MustCompile(`^\[\[?[\w."-]+\]\]?$`)

// pathLike is text that is only a file path: what a symbolic link holds.
var pathLike = regexp.MustCompile(`^(?:~|\.{1,2}|[A-Za-z]:)?[\\/][^\n\r"{}\[\]]*$`)

// yamlOrTOML is a first line that is a "key:" (YAML), "[table]" or
// "key = value" (TOML), or a "#" comment.
var yamlOrTOML = regexp.MustCompile(`^(?:#|[A-Za-z_][\w.-]*\s*:|\[[\w."-]+\]|[A-Za-z_][\w.-]*\s*=)`)

// fenceAt is the 1-based line of the first Markdown fence line in data, 0
// when there is none.
func fenceAt(data []byte) int {
	for i, l := range bytes.Split(data, []byte("\n")) {
		if fenceLine.Match(l) {
			return i + 1
		}
	}
	return 0
}

// serverKeys describes where the apps Switchboard reads keep their
// servers, from ClientApps (so an app is listed as soon as it is read):
// each key, and the apps that use it; keys of the same apps are given
// together ("servers" or "mcp.servers" (VS Code, …)).
func serverKeys() string {
	var order []string // the keys, in ClientApps' order
	apps := map[string][]string{}
	dirs := sampleDirs()
	for _, a := range ClientApps() {
		for _, f := range a.files(dirs) {
			k := strings.ReplaceAll(strings.Join(f.Key, "."), dirs.work, "*") // Claude Code's projects.<dir>
			if !slices.Contains(order, k) {
				order = append(order, k)
			}
			if !slices.Contains(apps[k], a.Title) {
				apps[k] = append(apps[k], a.Title)
			}
		}
	}
	var groups []string // the apps of a key, joined
	keys := map[string][]string{}
	for _, k := range order {
		g := strings.Join(apps[k], ", ")
		if !slices.Contains(groups, g) {
			groups = append(groups, g)
		}
		keys[g] = append(keys[g], fmt.Sprintf("%q", k))
	}
	out := make([]string, len(groups))
	for i, g := range groups {
		out[i] = strings.Join(keys[g], " or ") + " (" + g + ")"
	}
	return strings.Join(out, ", ")
}

// topKeys lists an object's first keys, for a message about what a file
// has instead.
func topKeys(n *node) string {
	var ks []string
	for i, m := range n.members {
		if i == 5 {
			ks = append(ks, "…")
			break
		}
		ks = append(ks, fmt.Sprintf("%q", m.key))
	}
	if len(ks) == 0 {
		return "it is an empty object"
	}
	return "its top-level keys are " + strings.Join(ks, ", ")
}

// sampleDirs are directories to list every app's files with, whatever
// this machine has: the messages need their keys, not their paths. The
// project folder is "\x00", which no key holds.
func sampleDirs() appDirs {
	return appDirs{home: "/h", appConfig: "/h/c", xdg: "/h/c", work: "\x00", getenv: func(string) string { return "" }}
}
