package clients

import (
	"bytes"
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// yamlDoc is a YAML file in block style (Goose's config.yaml, Continue's):
// the parser gives each entry's first line, indentation gives its last,
// and edits cut or insert whole lines.
type yamlDoc struct {
	f     config.ClientFile
	data  []byte
	lines []int // offset of each line's start
	key   *yaml.Node
	val   *yaml.Node
	items []yamlItem
}

type yamlItem struct {
	name       string
	node       *yaml.Node
	start, end int // byte span, whole lines
	indent     int
}

func readYAML(f config.ClientFile, data []byte) (*yamlDoc, error) {
	d := &yamlDoc{f: f, data: data, lines: []int{0}}
	for i, c := range data {
		if c == '\n' && i+1 < len(data) {
			d.lines = append(d.lines, i+1)
		}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		reason := strings.TrimPrefix(err.Error(), "yaml: ")
		se := &SyntaxError{Path: f.Path, Err: fmt.Errorf("%s: %s", f.Path, reason), Reason: reason}
		if m := yamlLine.FindStringSubmatch(reason); m != nil { // "line 3: did not find expected key"
			se.Line, _ = strconv.Atoi(m[1])
			se.Col = 1 // yaml.v3 names the line only
			se.Reason = m[2]
		}
		return nil, se
	}
	if len(doc.Content) == 0 {
		return d, nil
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, shapeError(f, "the top level is not a mapping; Switchboard changes nothing in it")
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == f.Key[0] {
			d.key, d.val = root.Content[i], root.Content[i+1]
		}
	}
	if d.val == nil || d.isNull() {
		return d, nil
	}
	want := yaml.MappingNode
	if f.Style == config.StyleContinue {
		want = yaml.SequenceNode
	}
	if d.val.Kind != want {
		return nil, shapeError(f, fmt.Sprintf("%s (line %d) is not a %s of servers; fix it in the file", f.Key[0], d.val.Line, kindName(want)))
	}
	if d.val.Style&yaml.FlowStyle != 0 && len(d.val.Content) > 0 {
		return nil, shapeError(f, fmt.Sprintf("%s (line %d) is written in flow style ({...} or [...]); Switchboard edits block style only: write it one entry per line", f.Key[0], d.val.Line))
	}
	add := func(name string, n *yaml.Node, line int) {
		indent := lineIndentWidth(d.lineText(line))
		start, end := d.lines[line-1], d.blockEnd(line, indent)
		d.items = append(d.items, yamlItem{name: name, node: n, start: start, end: end, indent: indent})
	}
	if want == yaml.MappingNode {
		for i := 0; i+1 < len(d.val.Content); i += 2 {
			add(d.val.Content[i].Value, d.val.Content[i+1], d.val.Content[i].Line)
		}
	} else {
		for _, it := range d.val.Content {
			var name string
			if it.Kind == yaml.MappingNode {
				for i := 0; i+1 < len(it.Content); i += 2 {
					if it.Content[i].Value == "name" {
						name = it.Content[i+1].Value
					}
				}
			}
			add(name, it, it.Line)
		}
	}
	return d, nil
}

func kindName(k yaml.Kind) string {
	if k == yaml.SequenceNode {
		return "list"
	}
	return "mapping"
}

func (d *yamlDoc) isNull() bool {
	return d.val.Kind == yaml.ScalarNode && d.val.Tag == "!!null"
}

// lineText is line n (1-based) without its newline.
func (d *yamlDoc) lineText(n int) string {
	start := d.lines[n-1]
	end := len(d.data)
	if n < len(d.lines) {
		end = d.lines[n]
	}
	return strings.TrimRight(string(d.data[start:end]), "\r\n")
}

func lineIndentWidth(s string) int { return len(s) - len(strings.TrimLeft(s, " ")) }

// blank says a line holds nothing an entry owns: spaces or a comment.
func blank(s string) bool {
	t := strings.TrimSpace(s)
	return t == "" || strings.HasPrefix(t, "#")
}

// blockEnd is the offset after the last line of the entry starting at
// line (1-based) with the given indentation: the lines after it that are
// indented deeper, without trailing blank and comment lines (they belong
// to what follows).
func (d *yamlDoc) blockEnd(line, indent int) int {
	last := line
	for n := line + 1; n <= len(d.lines); n++ {
		s := d.lineText(n)
		if blank(s) {
			continue
		}
		if lineIndentWidth(s) <= indent {
			break
		}
		last = n
	}
	if last < len(d.lines) {
		return d.lines[last]
	}
	return len(d.data)
}

func (d *yamlDoc) hasContainer() bool { return d.val != nil }

func (d *yamlDoc) servers() ([]Server, error) {
	var out []Server
	for _, it := range d.items {
		var s Server
		if d.f.Style == config.StyleContinue {
			s = continueServer(it.node)
		} else {
			s = gooseServer(it.node)
		}
		s.Name = it.name
		s.Text = string(d.data[it.start:it.end])
		out = append(out, s)
	}
	return out, nil
}

// yamlEntry is the keys of a Goose or Continue entry this package reads.
type yamlEntry struct {
	Cmd, Command, URL, URI, Type, Cwd string
	Args                              []string
	Env, Envs, Headers                map[string]string
	Enabled                           *bool
	EnvKeys                           []string `yaml:"env_keys"`        // Goose's: values in its own keyring
	Timeout                           float64  `yaml:"timeout"`         // Goose's, in seconds
	AvailableTools                    []string `yaml:"available_tools"` // Goose's tool allow-list
	ConnectionTimeout                 float64  `yaml:"connectionTimeout"`
	RequestOptions                    struct {
		Headers map[string]string
	} `yaml:"requestOptions"`
}

// gooseKnown and continueKnown are the keys read below, and those that
// change nothing a server does (a name, a description); an import says it
// leaves out any other.
var (
	gooseKnown = []string{"name", "type", "cmd", "args", "envs", "env_keys", "timeout", "enabled", "bundled",
		"description", "display_name", "uri", "headers", "available_tools"}
	continueKnown = []string{"name", "serverName", "faviconUrl", "sourceFile", "type", "command", "args", "env",
		"cwd", "url", "connectionTimeout", "requestOptions"}
)

// gooseAppOnly are Goose's extension types that run inside Goose.
var gooseAppOnly = []string{"builtin", "platform", "frontend", "inline_python"}

func gooseServer(n *yaml.Node) Server {
	var raw yamlEntry
	_ = n.Decode(&raw) // a field of another type is left empty
	s := Server{Command: cmp.Or(raw.Cmd, raw.Command), Args: raw.Args, URL: cmp.Or(raw.URI, raw.URL), Headers: raw.Headers, Env: raw.Envs}
	// Goose keeps these values in its own keyring, which no other app
	// reads: the server reads them from the environment here, and a start
	// without one says which is missing.
	for _, k := range raw.EnvKeys {
		if _, ok := s.Env[k]; !ok && k != "" {
			if s.Env == nil {
				s.Env = map[string]string{}
			}
			s.Env[k] = "${env:" + k + "}"
		}
	}
	if raw.Timeout > 0 && raw.Timeout < 1e9 {
		s.ToolTimeout = time.Duration(raw.Timeout * float64(time.Second))
	}
	s.IncludeTools = raw.AvailableTools
	s.Disabled = raw.Enabled != nil && !*raw.Enabled
	s.SSE = s.URL != "" && strings.EqualFold(raw.Type, "sse")
	if slices.Contains(gooseAppOnly, raw.Type) || s.Command == "" && s.URL == "" {
		s.AppOnly = fmt.Sprintf("one of Goose's own extensions (type %s), which only Goose can start", cmp.Or(raw.Type, "unset"))
	}
	s.Unmapped = yamlUnmapped(n, gooseKnown, "")
	return s
}

func continueServer(n *yaml.Node) Server {
	var raw yamlEntry
	_ = n.Decode(&raw)
	s := Server{Command: cmp.Or(raw.Command, raw.Cmd), Args: raw.Args, URL: cmp.Or(raw.URL, raw.URI), Env: raw.Env, Cwd: raw.Cwd,
		Headers: raw.RequestOptions.Headers, Disabled: raw.Enabled != nil && !*raw.Enabled}
	if s.Headers == nil {
		s.Headers = raw.Headers
	}
	if raw.ConnectionTimeout > 0 && raw.ConnectionTimeout < 1e12 { // milliseconds to connect and list the tools
		s.StartupTimeout = time.Duration(raw.ConnectionTimeout * float64(time.Millisecond))
	}
	s.SSE = s.URL != "" && strings.EqualFold(raw.Type, "sse")
	s.Unmapped = yamlUnmapped(n, continueKnown, "")
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == "requestOptions" {
			s.Unmapped = append(s.Unmapped, yamlUnmapped(n.Content[i+1], []string{"headers"}, "requestOptions.")...)
		}
	}
	return s
}

// yamlUnmapped are the keys of the mapping n that are not in known and
// set something (prefixed with prefix).
func yamlUnmapped(n *yaml.Node, known []string, prefix string) []string {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	var out []string
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i].Value, n.Content[i+1]
		if slices.Contains(known, k) || yamlEmpty(v) {
			continue
		}
		out = append(out, prefix+k)
	}
	return out
}

// yamlEmpty says whether v sets nothing: null, false, "", {} or [].
func yamlEmpty(v *yaml.Node) bool {
	switch v.Kind {
	case yaml.MappingNode, yaml.SequenceNode:
		return len(v.Content) == 0
	case yaml.ScalarNode:
		return v.Tag == "!!null" || v.Value == "" || v.Tag == "!!bool" && strings.EqualFold(v.Value, "false")
	}
	return false
}

// yamlLine is the position yaml.v3 puts in a syntax error's message.
var yamlLine = regexp.MustCompile(`^line (\d+): (.*)$`)

var plainYAML = regexp.MustCompile(`^[A-Za-z0-9_/][A-Za-z0-9_./-]*$`)

// yamlScalar writes s plain when YAML reads it back as the same string.
func yamlScalar(s string) string {
	switch strings.ToLower(s) {
	case "true", "false", "yes", "no", "on", "off", "null", "y", "n":
		return quote(s)
	}
	if plainYAML.MatchString(s) && strings.Trim(s, "0123456789.") != "" {
		return s
	}
	return quote(s)
}

// render writes the entry as lines at indentation ind.
func (d *yamlDoc) render(name string, e Entry, ind string) string {
	args := quoteList(e.Args)
	if d.f.Style == config.StyleContinue {
		return fmt.Sprintf("%s- name: %s\n%s  command: %s\n%s  args: %s\n", ind, yamlScalar(name), ind, yamlScalar(e.Command), ind, args)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s%s:\n", ind, yamlScalar(name))
	for _, kv := range [][2]string{
		{"name", yamlScalar(name)}, {"type", "stdio"}, {"cmd", yamlScalar(e.Command)}, {"args", args},
		{"enabled", "true"}, {"envs", "{}"}, {"env_keys", "[]"}, {"timeout", "300"}, {"bundled", "null"},
		{"description", quote("Your Switchboard servers")},
	} {
		fmt.Fprintf(&b, "%s  %s: %s\n", ind, kv[0], kv[1])
	}
	return b.String()
}

func (d *yamlDoc) add(name string, v value) ([]byte, error) {
	text := func(ind string) string {
		if v.entry != nil {
			return d.render(name, *v.entry, ind)
		}
		return v.raw
	}
	if n := len(d.items); n > 0 {
		last := d.items[n-1]
		t := text(strings.Repeat(" ", last.indent))
		if last.end == len(d.data) && !bytes.HasSuffix(d.data, []byte("\n")) {
			t = "\n" + strings.TrimSuffix(t, "\n") // and the file keeps ending without a line break
		}
		return splice(d.data, last.end, last.end, t), nil
	}
	if d.val == nil {
		out := bytes.Clone(d.data)
		if len(out) > 0 && !bytes.HasSuffix(out, []byte("\n")) {
			out = append(out, '\n')
		}
		if len(bytes.TrimSpace(out)) == 0 && d.f.Style == config.StyleContinue {
			out = append(out, "name: Switchboard\nversion: 0.0.1\nschema: v1\n"...) // what Continue requires of a config.yaml
		}
		return append(out, d.f.Key[0]+":\n"+text("  ")...), nil
	}
	// An empty container (key: {}, key: [] or key: with nothing): the
	// value goes, the entry follows the key's line (a comment on it stays).
	line := d.key.Line
	if d.val.Line != line && !d.isNull() {
		return nil, shapeError(d.f, fmt.Sprintf("%s (line %d) has an unexpected value", d.f.Key[0], line))
	}
	out := d.data
	after := lineEnd(out, d.lines[line-1])
	if d.val.Line == line && d.val.Value == "" && (d.val.Kind == yaml.MappingNode || d.val.Kind == yaml.SequenceNode) {
		colon := d.colon()
		rest := string(out[colon:after])
		tok := strings.Index(rest, "{}")
		if d.val.Kind == yaml.SequenceNode {
			tok = strings.Index(rest, "[]")
		}
		if tok < 0 || strings.TrimSpace(rest[:tok]) != "" {
			return nil, shapeError(d.f, fmt.Sprintf("%s (line %d): write its empty value as {} or [] on the key's line", d.f.Key[0], line))
		}
		out = splice(out, colon, colon+tok+2, "")
		after -= tok + 2
	}
	t := text(strings.Repeat(" ", lineIndentWidth(d.lineText(line))+2))
	if after == len(out) && !bytes.HasSuffix(out, []byte("\n")) {
		t = "\n" + t
	}
	return splice(out, after, after, t), nil
}

// colon is the offset just past the container key's colon.
func (d *yamlDoc) colon() int {
	return d.lines[d.key.Line-1] + strings.Index(d.lineText(d.key.Line), ":") + 1
}

func (d *yamlDoc) take(name string) ([]byte, Slot, bool, error) {
	for i, it := range d.items {
		if it.name != name {
			continue
		}
		var s Slot
		if len(d.items) > 1 {
			from := blankAbove(d.data, it.start)
			s.Lead = string(d.data[from:it.start])
			if i+1 < len(d.items) {
				s.Before = d.items[i+1].name
				s.Gap = bytes.Count(d.data[it.end:d.items[i+1].start], []byte("\n"))
			} else {
				s.Gap = bytes.Count(d.data[it.end:d.contentAfter(it.end)], []byte("\n"))
			}
			if it.end == len(d.data) && !bytes.HasSuffix(d.data, []byte("\n")) && from > 0 {
				from-- // the line break before it: the file keeps ending without one
			}
			return splice(d.data, from, it.end, ""), s, false, nil
		}
		// The only entry: the container becomes empty again.
		empty := " {}"
		if d.f.Style == config.StyleContinue {
			empty = " []"
		}
		out := splice(d.data, it.start, it.end, "")
		colon := d.colon()
		return splice(out, colon, colon, empty), s, true, nil
	}
	return d.data, Slot{}, false, nil
}

// contentAfter is the start of the first line from off on that is
// neither blank nor a comment (the end of the file when there is none).
func (d *yamlDoc) contentAfter(off int) int {
	for off < len(d.data) {
		e := lineEnd(d.data, off)
		if !blank(string(d.data[off:e])) {
			break
		}
		off = e
	}
	return off
}

func (d *yamlDoc) put(name, text string, s Slot) ([]byte, error) {
	if len(d.items) == 0 {
		return d.add(name, value{raw: text})
	}
	at := -1
	for _, it := range d.items {
		if s.Before != "" && it.name == s.Before {
			at = it.start
			break
		}
	}
	if at < 0 && s.Before != "" {
		return d.add(name, value{raw: text}) // what followed it is gone: at the end
	}
	if at < 0 {
		at = d.contentAfter(d.items[len(d.items)-1].end)
	}
	at = linesAbove(d.data, at, s.Gap)
	if at == len(d.data) && len(d.data) > 0 && !bytes.HasSuffix(d.data, []byte("\n")) {
		return splice(d.data, at, at, "\n"+s.Lead+strings.TrimSuffix(text, "\n")), nil
	}
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	return splice(d.data, at, at, s.Lead+text), nil
}

func (d *yamlDoc) removeContainer() ([]byte, error) {
	if d.key == nil {
		return d.data, nil
	}
	start := d.lines[d.key.Line-1]
	end := d.blockEnd(d.key.Line, lineIndentWidth(d.lineText(d.key.Line)))
	return splice(d.data, start, end, ""), nil
}
