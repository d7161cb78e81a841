package clients

import (
	"bytes"
	"cmp"
	"encoding/json"
	"regexp"
	"slices"
	"strings"

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
	if style == config.StyleOpencode {
		opencodeVariables(&s)
	}
	return s
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
		b.WriteString(ind + quote(name) + ": " + d.render(v, ind, "  ") + "\n")
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
		return d.insertMember(c, name, func(ind, step string) string { return d.render(v, ind, step) }), nil
	}
	// Create the missing objects on the way, with the entry inside.
	missing := d.f.Key[depth:]
	return d.insertMember(deepest, missing[0], func(ind, step string) string {
		var b strings.Builder
		in := ind
		for _, k := range missing[1:] {
			b.WriteString("{\n" + in + step + quote(k) + ": ")
			in += step
		}
		b.WriteString("{\n" + in + step + quote(name) + ": " + d.render(v, in+step, step) + "\n" + in + "}")
		for range missing[1:] {
			in = in[:len(in)-len(step)]
			b.WriteString("\n" + in + "}")
		}
		return b.String()
	}), nil
}

// insertMember adds "key": value as obj's last member, indented like its
// siblings.
func (d *jsonDoc) insertMember(obj *config.JSONValue, key string, val func(ind, step string) string) []byte {
	objInd := lineIndent(d.data, obj.Off)
	step := d.step()
	var at int
	var text string
	if n := len(obj.Members); n > 0 {
		last := obj.Members[n-1]
		ind, own := indentBefore(d.data, last.KeyOff)
		if !own {
			at, text = last.Value.End, ", "+quote(key)+": "+val(objInd, step)
		} else {
			if strings.HasPrefix(ind, objInd) && len(ind) > len(objInd) {
				step = ind[len(objInd):]
			}
			at, text = last.Value.End, ",\n"+ind+quote(key)+": "+val(ind, step)
		}
		return splice(d.data, at, at, text)
	}
	inner := d.data[obj.Off+1 : obj.End-1]
	member := objInd + step + quote(key) + ": " + val(objInd+step, step)
	if len(bytes.TrimSpace(inner)) == 0 {
		return splice(d.data, obj.Off+1, obj.End-1, "\n"+member+"\n"+objInd)
	}
	return splice(d.data, obj.Off+1, obj.Off+1, "\n"+member) // keep the comment inside
}

func (d *jsonDoc) remove(name string) ([]byte, bool, error) {
	c, _, _, err := d.container()
	if err != nil || c == nil {
		return d.data, false, err
	}
	i := c.Member(name)
	if i < 0 {
		return d.data, false, nil
	}
	return removeMember(d.data, c, i), len(c.Members) == 1, nil
}

// removeMember cuts obj's i-th member and the comma that joined it, the
// inverse of insertMember.
func removeMember(data []byte, obj *config.JSONValue, i int) []byte {
	m := obj.Members[i]
	switch n := len(obj.Members); {
	case n == 1:
		rest := data[m.Value.End : obj.End-1]
		if len(bytes.TrimSpace(bytes.TrimPrefix(bytes.TrimSpace(rest), []byte(",")))) == 0 {
			return splice(data, obj.Off+1, obj.End-1, "")
		}
		return splice(data, obj.Off+1, m.Value.End, "")
	case i == n-1:
		return splice(data, obj.Members[i-1].Value.End, m.Value.End, "")
	default:
		return splice(data, m.KeyOff, obj.Members[i+1].KeyOff, "")
	}
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
	return removeMember(d.data, parent, i), nil
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

// render writes v as a JSON value whose first line continues a member at
// indentation ind.
func (d *jsonDoc) render(v value, ind, step string) string {
	if v.entry == nil {
		return v.raw
	}
	e := v.entry
	var fields [][2]string
	switch d.f.Style {
	case config.StyleOpencode:
		fields = [][2]string{{"type", quote("local")}, {"command", quoteList(append([]string{e.Command}, e.Args...))}, {"enabled", "true"}}
	case config.StyleTyped:
		fields = [][2]string{{"type", quote("stdio")}, {"command", quote(e.Command)}, {"args", quoteList(e.Args)}}
	default:
		fields = [][2]string{{"command", quote(e.Command)}, {"args", quoteList(e.Args)}}
	}
	var b strings.Builder
	b.WriteString("{\n")
	for i, f := range fields {
		b.WriteString(ind + step + quote(f[0]) + ": " + f[1])
		if i < len(fields)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString(ind + "}")
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
