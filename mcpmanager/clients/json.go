package clients

import (
	"bytes"
	"cmp"
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// jsonDoc is a JSON or JSONC file (comments and trailing commas kept).
type jsonDoc struct {
	f    config.ClientFile
	data []byte
	root *config.JSONValue // nil for an empty file
}

func readJSON(f config.ClientFile, data []byte) (*jsonDoc, error) {
	root, err := config.ParseJSONC(f.Path, data)
	if err != nil {
		return nil, &SyntaxError{Path: f.Path, Err: err}
	}
	if root != nil && root.Kind != "object" {
		return nil, shapeError(f, "the top level is not an object; Switchboard changes nothing in it")
	}
	return &jsonDoc{f: f, data: data, root: root}, nil
}

// container is the object the servers are in, nil when it is missing,
// and the deepest object that is there on the way to it.
func (d *jsonDoc) container() (c, deepest *config.JSONValue, depth int, err error) {
	cur := d.root
	for i, k := range d.f.Key {
		next := cur.Get(k)
		if next == nil {
			return nil, cur, i, nil
		}
		if next.Kind != "object" {
			return nil, nil, 0, shapeError(d.f, keyPathTo(d.f.Key[:i+1])+" is a "+next.Kind+", not an object of servers; fix it in the file")
		}
		cur = next
	}
	return cur, cur, len(d.f.Key), nil
}

func (d *jsonDoc) hasContainer() bool {
	c, _, _, _ := d.container()
	return c != nil
}

func (d *jsonDoc) servers() ([]Server, error) {
	if d.root == nil {
		return nil, nil
	}
	c, _, _, err := d.container()
	if err != nil || c == nil {
		return nil, err
	}
	var out []Server
	for _, m := range c.Members {
		if m.Value.Kind != "object" {
			continue
		}
		s := jsonServer(d.f.Style, m.Value)
		s.Name = m.Key
		s.Text = string(d.data[m.Value.Off:m.Value.End])
		out = append(out, s)
	}
	return out, nil
}

// jsonServer reads one entry in the app's style.
func jsonServer(style config.ClientStyle, v *config.JSONValue) Server {
	var s Server
	str := func(n *config.JSONValue) string {
		if n != nil && n.Kind == "string" {
			return n.Text
		}
		return ""
	}
	list := func(n *config.JSONValue) []string {
		if n == nil {
			return nil
		}
		var out []string
		for _, e := range n.Elems {
			out = append(out, str(e))
		}
		return out
	}
	dict := func(n *config.JSONValue) map[string]string {
		if n == nil || len(n.Members) == 0 {
			return nil
		}
		out := map[string]string{}
		for _, m := range n.Members {
			out[m.Key] = str(m.Value)
		}
		return out
	}
	switch cmd := v.Get("command"); {
	case style == config.StyleOpencode:
		if parts := list(cmd); len(parts) > 0 {
			s.Command, s.Args = parts[0], parts[1:]
		}
		s.Env = dict(v.Get("environment"))
		s.Disabled = v.Get("enabled") != nil && v.Get("enabled").Text == "false"
	case cmd != nil && cmd.Kind == "object": // Zed's older {"command": {"path", "args", "env"}}
		s.Command, s.Args, s.Env = str(cmd.Get("path")), list(cmd.Get("args")), dict(cmd.Get("env"))
	default:
		s.Command, s.Args, s.Env = str(cmd), list(v.Get("args")), dict(v.Get("env"))
		s.Disabled = v.Get("disabled") != nil && v.Get("disabled").Text == "true"
	}
	if e := v.Get("enabled"); e != nil && e.Text == "false" {
		s.Disabled = true // Zed's switch, as opencode's
	}
	s.URL = cmp.Or(str(v.Get("url")), str(v.Get("serverUrl")), str(v.Get("httpUrl"))) // Windsurf's, Gemini CLI's
	s.Headers = dict(v.Get("headers"))
	switch style {
	case config.StyleOpencode:
		opencodeVariables(&s)
		opencodeTimeouts(&s, v.Get("timeout"))
		s.Cwd = str(v.Get("cwd"))
		if d := v.Get("disabled"); d != nil && d.Text == "true" {
			s.Disabled = true
		}
	case config.StyleZed:
		if str(v.Get("source")) == "extension" || s.Command == "" && s.URL == "" {
			s.AppOnly = `a Zed extension's server ("source": "extension"), which only Zed can start`
		}
	}
	if known, ok := jsonKnown[style]; ok {
		for _, m := range v.Members {
			if !slices.Contains(known, m.Key) && !jsonEmpty(m.Value) {
				s.Unmapped = append(s.Unmapped, m.Key)
			}
		}
	}
	return s
}

// jsonKnown are the keys read above, and those that change nothing a
// server does, of the JSON apps whose files an import reads through this
// package; any other key of theirs is one an import says it leaves out.
var jsonKnown = map[config.ClientStyle][]string{
	config.StyleZed:      {"source", "command", "args", "env", "url", "headers", "enabled"},
	config.StyleOpencode: {"type", "command", "environment", "enabled", "disabled", "url", "headers", "timeout", "cwd"},
}

// jsonEmpty says whether v sets nothing: null, false, "", {} or [].
func jsonEmpty(v *config.JSONValue) bool {
	switch v.Kind {
	case "null":
		return true
	case "bool":
		return v.Text == "false"
	case "string":
		return v.Text == ""
	case "object":
		return len(v.Members) == 0
	case "array":
		return len(v.Elems) == 0
	}
	return false
}

// opencodeTimeouts reads opencode's "timeout": milliseconds to connect and
// list the tools (a number), or {"startup", "request"} in milliseconds.
func opencodeTimeouts(s *Server, t *config.JSONValue) {
	ms := func(v *config.JSONValue) time.Duration {
		if v == nil || v.Kind != "number" {
			return 0
		}
		n, err := strconv.ParseFloat(v.Text, 64)
		if err != nil || n <= 0 || n > 1e12 {
			return 0
		}
		return time.Duration(n * float64(time.Millisecond))
	}
	if t != nil && t.Kind == "object" {
		s.StartupTimeout, s.ToolTimeout = ms(t.Get("startup")), ms(t.Get("request"))
		return
	}
	s.StartupTimeout = ms(t)
}

// opencodeEnv is opencode's {env:NAME}, the value of an environment variable.
var opencodeEnv = regexp.MustCompile(`\{env:([A-Za-z_][A-Za-z0-9_]*)\}`)

// opencodeVariables writes opencode's {env:NAME} as ${env:NAME}, which
// Switchboard reads from the environment at each start in the same way;
// otherwise a header "Bearer {env:TOKEN}" would be taken for a token and
// kept in the keyring as it is written.
func opencodeVariables(s *Server) {
	sub := func(v string) string { return opencodeEnv.ReplaceAllString(v, "$${env:$1}") }
	s.Command, s.URL = sub(s.Command), sub(s.URL)
	for i, a := range s.Args {
		s.Args[i] = sub(a)
	}
	for _, m := range []map[string]string{s.Env, s.Headers} {
		for k, v := range m {
			m[k] = sub(v)
		}
	}
}

func (d *jsonDoc) add(name string, v value) ([]byte, error) {
	if d.root == nil {
		// An empty file: write the whole document.
		var b strings.Builder
		b.WriteString("{\n")
		ind := "  "
		for _, k := range d.f.Key {
			b.WriteString(ind + quote(k) + ": {\n")
			ind += "  "
		}
		b.WriteString(ind + quote(name) + ": " + d.render(v, jsonLayout{ind: ind, step: "  ", sep: ": "}) + "\n")
		for range d.f.Key {
			ind = ind[2:]
			b.WriteString(ind + "}\n")
		}
		b.WriteString("}\n")
		return append(bytes.Clone(d.data), b.String()...), nil
	}
	c, deepest, depth, err := d.container()
	if err != nil {
		return nil, err
	}
	if c != nil {
		return d.appendMember(c, name, func(lay jsonLayout) string { return d.render(v, lay) }), nil
	}
	// Create the missing objects on the way, with the entry inside.
	missing := d.f.Key[depth:]
	return d.appendMember(deepest, missing[0], func(lay jsonLayout) string {
		if lay.inline {
			text := "{" + quote(name) + lay.sep + d.render(v, lay) + "}"
			for i := len(missing) - 1; i > 0; i-- {
				text = "{" + quote(missing[i]) + lay.sep + text + "}"
			}
			return text
		}
		var b strings.Builder
		in, step := lay.ind, lay.step
		for _, k := range missing[1:] {
			b.WriteString("{\n" + in + step + quote(k) + lay.sep)
			in += step
		}
		inner := lay
		inner.ind = in + step
		b.WriteString("{\n" + in + step + quote(name) + lay.sep + d.render(v, inner) + "\n" + in + "}")
		for range missing[1:] {
			in = in[:len(in)-len(step)]
			b.WriteString("\n" + in + "}")
		}
		return b.String()
	}), nil
}

// jsonLayout is how a file lays out the members of one object, guessed
// from the ones it has, for a member connect adds: on a line of its own
// at indentation ind (its own members a step deeper), or inline.
type jsonLayout struct {
	inline    bool
	ind, step string
	sep       string // between a key and its value: ": " or ":"
	lead      string // before the member's key
	close     string // before the closing brace of an empty object
	comma     bool   // the last member has a comma of its own (JSONC)
}

// layout is how obj's members are laid out.
func (d *jsonDoc) layout(l jsonList, obj *config.JSONValue) jsonLayout {
	objInd := lineIndent(d.data, obj.Off)
	lay := jsonLayout{sep: d.sep(), step: d.step()}
	n := len(l.items)
	if n == 0 {
		if oneLine(d.data) {
			return jsonLayout{inline: true, sep: lay.sep, ind: objInd}
		}
		lay.ind = objInd + lay.step
		lay.lead, lay.close = "\n"+lay.ind, "\n"+objInd
		return lay
	}
	last := l.items[n-1]
	if sep := d.data[keyEnd(d.data, last.key):last.val]; len(bytes.Trim(sep, " \t")) == 1 && sep[len(sep)-1] != '\n' {
		lay.sep = string(sep)
	}
	lay.comma = l.comma(n-1) >= 0
	ls := l.lead(n - 1)
	if bytes.IndexByte(d.data[ls:last.key], '\n') < 0 {
		lay.inline, lay.ind = true, objInd
		lay.lead = string(d.data[ls:last.key])
		if n == 1 { // after the brace: the space after a comma is the sep's
			lay.lead = strings.TrimPrefix(lay.sep, ":")
		}
		return lay
	}
	lay.ind = lineIndent(d.data, last.key)
	lay.lead = "\n" + lay.ind
	if st := childStep(d.data, obj.Members[n-1].Value, lay.ind); st != "" {
		lay.step = st
	} else if strings.HasPrefix(lay.ind, objInd) && len(lay.ind) > len(objInd) {
		lay.step = lay.ind[len(objInd):]
	}
	return lay
}

// childStep is how much deeper than ind v's first member is indented,
// "" when it is not on a line of its own.
func childStep(data []byte, v *config.JSONValue, ind string) string {
	if v == nil || v.Kind != "object" || len(v.Members) == 0 {
		return ""
	}
	in, own := indentBefore(data, v.Members[0].KeyOff)
	if !own || !strings.HasPrefix(in, ind) || len(in) == len(ind) {
		return ""
	}
	return in[len(ind):]
}

// appendMember adds "key": value as obj's last member, laid out like its
// siblings (one line stays one line).
func (d *jsonDoc) appendMember(obj *config.JSONValue, key string, val func(lay jsonLayout) string) []byte {
	l := objectList(d.data, obj)
	lay := d.layout(l, obj)
	s := Slot{Lead: lay.lead, Key: quote(key) + lay.sep, Gap: -1, Close: lay.close, Comma: lay.comma}
	return l.put(val(lay), s, -1)
}

func (d *jsonDoc) take(name string) ([]byte, Slot, bool, error) {
	c, _, _, err := d.container()
	if err != nil || c == nil {
		return d.data, Slot{}, false, err
	}
	i := c.Member(name)
	if i < 0 {
		return d.data, Slot{}, false, nil
	}
	out, s := objectList(d.data, c).cut(i)
	if i+1 < len(c.Members) {
		s.Before = c.Members[i+1].Key
	}
	return out, s, len(c.Members) == 1, nil
}

func (d *jsonDoc) put(name, text string, s Slot) ([]byte, error) {
	c, _, _, err := d.container()
	if err != nil {
		return nil, err
	}
	if c == nil || s.Key == "" {
		return d.add(name, value{raw: text})
	}
	at := -1
	if s.Before != "" {
		at = c.Member(s.Before)
	}
	return objectList(d.data, c).put(text, s, at), nil
}

func (d *jsonDoc) removeContainer() ([]byte, error) {
	parent := d.root
	for _, k := range d.f.Key[:len(d.f.Key)-1] {
		parent = parent.Get(k)
		if parent == nil {
			return d.data, nil
		}
	}
	i := parent.Member(d.f.Key[len(d.f.Key)-1])
	if i < 0 || len(parent.Members[i].Value.Members) > 0 {
		return d.data, nil
	}
	out, _ := objectList(d.data, parent).cut(i)
	return out, nil
}

// step is the file's indentation unit: the first indented line's
// leading whitespace, else two spaces.
func (d *jsonDoc) step() string {
	for line := range bytes.SplitSeq(d.data, []byte("\n")) {
		t := bytes.TrimLeft(line, " \t")
		if len(t) > 0 && len(t) < len(line) && t[0] == '"' {
			return string(line[:len(line)-len(t)])
		}
	}
	return "  "
}

// sep is what the file writes between a key and its value: that of its
// first member, else ": ".
func (d *jsonDoc) sep() string {
	if d.root != nil && len(d.root.Members) > 0 {
		m := d.root.Members[0]
		if sep := d.data[keyEnd(d.data, m.KeyOff):m.Value.Off]; len(bytes.Trim(sep, " \t")) == 1 {
			return string(sep)
		}
	}
	return ": "
}

// oneLine says whether data is written on one line.
func oneLine(data []byte) bool {
	return bytes.IndexByte(bytes.TrimRight(data, " \t\r\n"), '\n') < 0
}

// render writes v as a JSON value laid out as lay says: its first line
// continues a member at indentation lay.ind.
func (d *jsonDoc) render(v value, lay jsonLayout) string {
	if v.entry == nil {
		return v.raw
	}
	e := v.entry
	comma := ", " // between the items of a list, and inline between members
	if lay.sep == ":" {
		comma = "," // a file written without spaces
	}
	list := func(ss []string) string {
		parts := make([]string, len(ss))
		for i, s := range ss {
			parts[i] = quote(s)
		}
		return "[" + strings.Join(parts, comma) + "]"
	}
	var fields [][2]string
	switch d.f.Style {
	case config.StyleOpencode:
		fields = [][2]string{{"type", quote("local")}, {"command", list(append([]string{e.Command}, e.Args...))}, {"enabled", "true"}}
	case config.StyleTyped:
		fields = [][2]string{{"type", quote("stdio")}, {"command", quote(e.Command)}, {"args", list(e.Args)}}
	default:
		fields = [][2]string{{"command", quote(e.Command)}, {"args", list(e.Args)}}
	}
	var b strings.Builder
	if lay.inline {
		b.WriteString("{")
		for i, f := range fields {
			if i > 0 {
				b.WriteString(comma)
			}
			b.WriteString(quote(f[0]) + lay.sep + f[1])
		}
		b.WriteString("}")
		return b.String()
	}
	b.WriteString("{\n")
	for i, f := range fields {
		b.WriteString(lay.ind + lay.step + quote(f[0]) + lay.sep + f[1])
		if i < len(fields)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString(lay.ind + "}")
	return b.String()
}

func quote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

func quoteList(ss []string) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = quote(s)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// lineIndent is the leading whitespace of the line holding off.
func lineIndent(data []byte, off int) string {
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	end := start
	for end < len(data) && (data[end] == ' ' || data[end] == '\t') {
		end++
	}
	return string(data[start:end])
}

// indentBefore is the whitespace between off's line start and off, and
// whether only whitespace is there (off starts its line's content).
func indentBefore(data []byte, off int) (string, bool) {
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	pre := data[start:off]
	if len(bytes.Trim(pre, " \t")) != 0 {
		return "", false
	}
	return string(pre), true
}

// splice replaces data[from:to] with text, in a new slice.
func splice(data []byte, from, to int, text string) []byte {
	out := make([]byte, 0, len(data)-(to-from)+len(text))
	out = append(out, data[:from]...)
	out = append(out, text...)
	return append(out, data[to:]...)
}

func keyPathTo(key []string) string {
	return keyPath(config.ClientFile{Key: slices.Clone(key)})
}
