package clients

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// tomlDoc is a TOML file (Codex's config.toml): the parser finds where
// each [mcp_servers.NAME] section or mcp_servers key is, and edits cut or
// insert whole lines.
type tomlDoc struct {
	f     config.ClientFile
	data  []byte
	value map[string]any
	exprs []tomlExpr
	spans map[string][][2]int // entry name → its byte spans (whole lines), in order
	names []string            // entry names in file order
	// inline: the servers are one inline table (mcp_servers = { … }),
	// which TOML lets no [mcp_servers.NAME] section extend.
	inline bool
}

// tomlExpr is one table header or key of the file, as whole lines.
type tomlExpr struct {
	table      bool
	path       string // its key, dotted (a key's with its table's)
	start, end int
	server     string // the entry it is part of, "" for none
}

func readTOML(f config.ClientFile, data []byte) (*tomlDoc, error) {
	d := &tomlDoc{f: f, data: data, spans: map[string][][2]int{}}
	if err := toml.Unmarshal(data, &d.value); err != nil {
		se := &SyntaxError{Path: f.Path, Err: err, Reason: err.Error()}
		var de *toml.DecodeError
		if errors.As(err, &de) {
			se.Line, se.Col = de.Position()
			se.Err = fmt.Errorf("%s:%d:%d: %s", f.Path, se.Line, se.Col, de.Error())
		}
		return nil, se
	}
	key := f.Key[0]
	if v, ok := d.value[key]; ok {
		if _, ok := v.(map[string]any); !ok {
			return nil, shapeError(f, key+" is not a table of servers; fix it in the file")
		}
	}
	if err := d.parseExprs(); err != nil {
		return nil, err
	}
	// An entry's span is a run of its expressions, with the comments and
	// blank lines between them: a table runs to its last key.
	for i := 0; i < len(d.exprs); i++ {
		name := d.exprs[i].server
		if name == "" {
			continue
		}
		j := i
		for j+1 < len(d.exprs) && d.exprs[j+1].server == name {
			j++
		}
		if _, ok := d.spans[name]; !ok {
			d.names = append(d.names, name)
		}
		d.spans[name] = append(d.spans[name], [2]int{d.exprs[i].start, d.exprs[j].end})
		i = j
	}
	return d, nil
}

// parseExprs reads where each expression is, and the entry it belongs to.
func (d *tomlDoc) parseExprs() error {
	key := d.f.Key[0]
	var p unstable.Parser
	p.Reset(d.data)
	var table []string
	owner := "" // the entry of the current [mcp_servers.NAME] section
	for p.NextExpression() {
		e := p.Expression()
		var parts []string
		first := -1
		it := e.Key()
		for it.Next() {
			n := it.Node()
			if first < 0 {
				first = int(n.Raw.Offset)
			}
			parts = append(parts, string(n.Data))
		}
		if first < 0 {
			continue
		}
		x := tomlExpr{start: bytes.LastIndexByte(d.data[:first], '\n') + 1}
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			table, owner = parts, ""
			if len(parts) >= 2 && parts[0] == key {
				owner = parts[1]
			}
			x.table, x.path, x.end, x.server = true, strings.Join(parts, "."), lineEnd(d.data, first), owner
		case unstable.KeyValue:
			full := append(slices.Clone(table), parts...)
			x.path, x.end, x.server = strings.Join(full, "."), lineEnd(d.data, int(e.Raw.Offset+e.Raw.Length)), owner
			if owner == "" && len(full) >= 2 && full[0] == key {
				x.server = full[1]
			}
			if len(full) == 1 && full[0] == key {
				d.inline = true
			}
		default:
			continue
		}
		d.exprs = append(d.exprs, x)
	}
	if err := p.Error(); err != nil {
		return &SyntaxError{Path: d.f.Path, Err: fmt.Errorf("%s: %w", d.f.Path, err)}
	}
	return nil
}

// lineEnd is the offset just past the newline ending off's line.
func lineEnd(data []byte, off int) int {
	if i := bytes.IndexByte(data[off:], '\n'); i >= 0 {
		return off + i + 1
	}
	return len(data)
}

func (d *tomlDoc) hasContainer() bool { return true } // connect adds whole sections

func (d *tomlDoc) servers() ([]Server, error) {
	all, _ := d.value[d.f.Key[0]].(map[string]any)
	var out []Server
	for _, name := range d.names {
		m, ok := all[name].(map[string]any)
		if !ok {
			continue
		}
		s := Server{Name: name}
		s.Command, _ = m["command"].(string)
		s.URL, _ = m["url"].(string)
		s.Args = strList(m["args"])
		s.Env = strMap(m["env"])
		s.Cwd, _ = m["cwd"].(string)
		s.Headers = strMap(m["http_headers"])
		// Codex passes these variables of its environment on (env_vars)
		// and sends these headers from its environment (env_http_headers):
		// Switchboard reads ${env:NAME} at each start in the same way.
		for _, name := range strList(m["env_vars"]) {
			s.Env = withDefault(s.Env, name, "${env:"+name+"}")
		}
		for h, name := range strMap(m["env_http_headers"]) {
			s.Headers = withDefault(s.Headers, h, "${env:"+name+"}")
		}
		if v, _ := m["bearer_token_env_var"].(string); v != "" && s.Headers["Authorization"] == "" {
			// Codex sends "Bearer $VAR"; Switchboard reads ${env:VAR} when the server starts.
			if s.Headers == nil {
				s.Headers = map[string]string{}
			}
			s.Headers["Authorization"] = "Bearer ${env:" + v + "}"
		}
		if en, ok := m["enabled"].(bool); ok && !en {
			s.Disabled = true
		}
		s.IncludeTools, s.ExcludeTools = strList(m["enabled_tools"]), strList(m["disabled_tools"])
		s.StartupTimeout = cmp.Or(seconds(m["startup_timeout_sec"], time.Second), seconds(m["startup_timeout_ms"], time.Millisecond))
		s.ToolTimeout = seconds(m["tool_timeout_sec"], time.Second)
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if !slices.Contains(codexKnown, k) && !tomlEmpty(m[k]) {
				s.Unmapped = append(s.Unmapped, k)
			}
		}
		var text strings.Builder
		for _, sp := range d.spans[name] {
			text.Write(d.data[sp[0]:sp[1]])
		}
		s.Text = text.String()
		out = append(out, s)
	}
	return out, nil
}

// codexKnown are the keys of a Codex server read above; an import says
// it leaves out any other.
var codexKnown = []string{"command", "args", "env", "env_vars", "cwd", "url", "http_headers", "env_http_headers",
	"bearer_token_env_var", "enabled", "enabled_tools", "disabled_tools", "startup_timeout_sec", "startup_timeout_ms", "tool_timeout_sec"}

// tomlEmpty says whether v sets nothing: false, "", an empty array or table.
func tomlEmpty(v any) bool {
	switch x := v.(type) {
	case bool:
		return !x
	case string:
		return x == ""
	case []any:
		return len(x) == 0
	case map[string]any:
		return len(x) == 0
	}
	return false
}

// withDefault is m with k set to v unless m sets it already.
func withDefault(m map[string]string, k, v string) map[string]string {
	if m == nil {
		m = map[string]string{}
	}
	if _, ok := m[k]; !ok && k != "" {
		m[k] = v
	}
	return m
}

// seconds is a TOML number of units as a duration; 0 for anything else.
func seconds(v any, unit time.Duration) time.Duration {
	var f float64
	switch n := v.(type) {
	case int64:
		f = float64(n)
	case float64:
		f = n
	}
	if f <= 0 || f > float64(math.MaxInt64/unit) {
		return 0
	}
	return time.Duration(f * float64(unit))
}

func strList(v any) []string {
	l, _ := v.([]any)
	var out []string
	for _, e := range l {
		s, _ := e.(string)
		out = append(out, s)
	}
	return out
}

func strMap(v any) map[string]string {
	m, _ := v.(map[string]any)
	if len(m) == 0 {
		return nil
	}
	out := map[string]string{}
	for k, e := range m {
		out[k] = fmt.Sprint(e)
	}
	return out
}

func (d *tomlDoc) add(name string, v value) ([]byte, error) {
	if d.inline {
		return nil, shapeError(d.f, fmt.Sprintf("%s is written as one inline table (%s = { … }), which TOML lets no [%s.NAME] section extend; write each server as a [%s.NAME] section of its own, then connect again", d.f.Key[0], d.f.Key[0], d.f.Key[0], d.f.Key[0]))
	}
	text := v.raw
	if v.entry != nil {
		text = fmt.Sprintf("[%s.%s]\ncommand = %s\nargs = %s\n", d.f.Key[0], tomlKey(name), quote(v.entry.Command), quoteList(v.entry.Args))
	}
	out := bytes.Clone(d.data)
	if len(bytes.TrimSpace(out)) == 0 {
		return append(out, text...), nil
	}
	if !bytes.HasSuffix(out, []byte("\n")) {
		// A file without a final line break keeps having none.
		return append(out, "\n\n"+strings.TrimSuffix(text, "\n")...), nil
	}
	return append(append(out, '\n'), text...), nil
}

func (d *tomlDoc) take(name string) ([]byte, Slot, bool, error) {
	spans := d.spans[name]
	if len(spans) == 0 {
		return d.data, Slot{}, false, nil
	}
	var s Slot
	out := d.data
	// From the last span back, so earlier offsets stay right.
	for k := len(spans) - 1; k >= 0; k-- {
		from, end := blankAbove(out, spans[k][0]), spans[k][1]
		if k == 0 {
			s.Lead = string(out[from:spans[k][0]])
			s.Before, s.Gap = d.after(name, end)
		}
		if end == len(out) && !bytes.HasSuffix(out, []byte("\n")) && from > 0 {
			from-- // the line break before it: the file keeps ending without one
		}
		out = splice(out, from, end, "")
	}
	return out, s, len(d.names) == 1, nil
}

// after is the expression that follows offset end and is not the entry
// name's (its dotted path; "" at the end of the file), and how many
// lines of comments and blank lines are between.
func (d *tomlDoc) after(name string, end int) (string, int) {
	next, path := len(d.data), ""
	for _, x := range d.exprs {
		if x.start >= end && x.server != name {
			next, path = x.start, x.path
			break
		}
	}
	return path, bytes.Count(d.data[end:next], []byte("\n"))
}

func (d *tomlDoc) put(name, text string, s Slot) ([]byte, error) {
	if d.inline {
		return d.add(name, value{raw: text})
	}
	at := len(d.data)
	if s.Before != "" {
		i := slices.IndexFunc(d.exprs, func(x tomlExpr) bool { return x.path == s.Before })
		if i < 0 {
			return d.add(name, value{raw: text}) // what followed it is gone: at the end
		}
		at = d.exprs[i].start
	}
	at = linesAbove(d.data, at, s.Gap)
	if at < len(d.data) && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	if at == len(d.data) && len(d.data) > 0 && !bytes.HasSuffix(d.data, []byte("\n")) {
		text = "\n" + s.Lead + text // the last line ends, then the entry follows
		return splice(d.data, at, at, text), nil
	}
	return splice(d.data, at, at, s.Lead+text), nil
}

// blankAbove is the start of the blank lines right above the line at off
// (off when there are none).
func blankAbove(data []byte, off int) int {
	for off > 0 {
		prev := bytes.LastIndexByte(data[:off-1], '\n') + 1
		if len(bytes.TrimSpace(data[prev:off])) != 0 {
			break
		}
		off = prev
	}
	return off
}

// linesAbove is the start of the line n lines above the line at off, going
// up only over blank lines and comments.
func linesAbove(data []byte, off, n int) int {
	for ; n > 0 && off > 0; n-- {
		prev := bytes.LastIndexByte(data[:off-1], '\n') + 1
		line := bytes.TrimSpace(data[prev:off])
		if len(line) != 0 && line[0] != '#' {
			break
		}
		off = prev
	}
	return off
}

func (d *tomlDoc) removeContainer() ([]byte, error) { return d.data, nil }

// tomlKey writes a key bare when TOML allows it, else quoted.
func tomlKey(k string) string {
	for _, c := range k {
		if !(c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return quote(k)
		}
	}
	return k
}
