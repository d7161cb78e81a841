package clients

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// tomlDoc is a TOML file (Codex's config.toml): the parser finds where
// each [mcp_servers.NAME] section or mcp_servers key is, and edits cut or
// append whole lines.
type tomlDoc struct {
	f     config.ClientFile
	data  []byte
	value map[string]any
	spans map[string][][2]int // entry name → its byte spans, in order
	names []string            // entry names in file order
	// inline: the servers are one inline table (mcp_servers = { … }),
	// which TOML lets no [mcp_servers.NAME] section extend.
	inline bool
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
	var p unstable.Parser
	p.Reset(data)
	type expr struct {
		table      bool
		key        []string
		start, end int
	}
	var exprs []expr
	var table []string
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
		start := bytes.LastIndexByte(data[:first], '\n') + 1
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			table = parts
			exprs = append(exprs, expr{table: true, key: parts, start: start})
		case unstable.KeyValue:
			end := lineEnd(data, int(e.Raw.Offset+e.Raw.Length))
			exprs = append(exprs, expr{key: append(slices.Clone(table), parts...), start: start, end: end})
		}
	}
	if err := p.Error(); err != nil {
		return nil, &SyntaxError{Path: f.Path, Err: fmt.Errorf("%s: %w", f.Path, err)}
	}
	// A table's span runs to the next table's header.
	for i := range exprs {
		if !exprs[i].table {
			continue
		}
		exprs[i].end = len(data)
		for _, n := range exprs[i+1:] {
			if n.table {
				exprs[i].end = n.start
				break
			}
		}
	}
	inTable := false // inside a [mcp_servers.NAME] section, whose keys it covers
	for _, e := range exprs {
		if e.table {
			inTable = len(e.key) >= 2 && e.key[0] == key
		}
		if !e.table && len(e.key) == 1 && e.key[0] == key {
			d.inline = true
		}
		if len(e.key) < 2 || e.key[0] != key || (!e.table && inTable) {
			continue
		}
		name := e.key[1]
		if _, ok := d.spans[name]; !ok {
			d.names = append(d.names, name)
		}
		d.spans[name] = append(d.spans[name], [2]int{e.start, e.end})
	}
	return d, nil
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
		var text strings.Builder
		for _, sp := range d.spans[name] {
			text.Write(d.data[sp[0]:sp[1]])
		}
		s.Text = text.String()
		out = append(out, s)
	}
	return out, nil
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

func (d *tomlDoc) remove(name string) ([]byte, bool, error) {
	spans := d.spans[name]
	out := d.data
	// From the last span back, so earlier offsets stay right.
	sort.Slice(spans, func(i, j int) bool { return spans[i][0] > spans[j][0] })
	for _, sp := range spans {
		from := sp[0]
		if sp[1] == len(out) && bytes.HasSuffix(out[:from], []byte("\n\n")) {
			from-- // the blank line that set the last section apart
			if !bytes.HasSuffix(out, []byte("\n")) {
				from-- // and the line break add put after a file without one
			}
		}
		out = splice(out, from, sp[1], "")
	}
	return out, len(d.names) == 1, nil
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
