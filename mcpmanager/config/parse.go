package config

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf16"
)

// Format is the shape a file was recognized as.
type Format string

const (
	// FormatMCPServers is {"mcpServers": {NAME: {...}}}, written by Claude
	// Desktop, Cursor, Windsurf, Claude Code (.mcp.json) and Switchboard itself.
	FormatMCPServers Format = "mcpServers"
	// FormatClaudeCode is ~/.claude.json, with user servers in "mcpServers" and
	// per-project ones in projects.<path>.mcpServers (see File.Projects).
	FormatClaudeCode Format = "claude-code"
	// FormatVSCode is .vscode/mcp.json, {"servers": {NAME: {...}}, "inputs": [...]}.
	FormatVSCode Format = "vscode"
	// FormatVSCodeSettings is VS Code settings.json, {"mcp": {"servers": {...}, "inputs": [...]}}.
	FormatVSCodeSettings Format = "vscode-settings"
	// FormatLegacy is {"servers": [{"name": NAME, ...}]}.
	FormatLegacy Format = "legacy"
	// FormatServerMap is a bare {NAME: {"command": ...}} object, as pasted from
	// a README without the surrounding "mcpServers".
	FormatServerMap Format = "server-map"
)

// File is a parsed config file.
type File struct {
	Name     string    // as given to ParseContext; prefixes messages
	Format   Format    //
	Servers  []Server  // the valid servers, in file order
	Entries  []Entry   // every server entry, valid or not, in file order
	Inputs   []Input   // VS Code "inputs" declarations
	Projects []Project // Claude Code per-project servers; not part of Servers
	Problems []Problem // every problem (both severities) outside Projects, in file order
}

// Entry is one server as found in the file, with its own problems, so an
// import can report the invalid ones per server and still take the rest.
type Entry struct {
	Name      string
	Path      string // JSON path of the entry: mcpServers.github, servers[2]
	Line, Col int
	Server    Server    // as much as could be read; use it only when Valid
	Problems  []Problem // this entry's problems, both severities
}

// Valid reports whether the entry has no error-severity problem.
func (e Entry) Valid() bool { return !hasErrors(e.Problems) }

// Input is a VS Code input declaration; the user is asked for its value when
// a server refers to it as ${input:ID}.
type Input struct {
	ID          string `json:"id"`
	Type        string `json:"type,omitempty"` // promptString, pickString, ...
	Description string `json:"description,omitempty"`
	Password    bool   `json:"password,omitempty"`
	// Default is the value when none is given ("default"); Options are a
	// pickString's choices ("options": strings or {"label", "value"}).
	Default string        `json:"default,omitempty"`
	Options []InputOption `json:"options,omitempty"`
}

// InputOption is one choice of a pickString input: its value, and what
// is shown for it (the value when the file gives no "label").
type InputOption struct {
	Label string `json:"label"`
	Value string `json:"value"`
}

// InputValues is values with each declared input's default for the ones
// it does not give, as VS Code prefills them; values itself is not
// changed.
func (f *File) InputValues(values map[string]string) map[string]string {
	var out map[string]string
	for _, in := range f.Inputs {
		if _, given := values[in.ID]; given || in.Default == "" {
			continue
		}
		if out == nil {
			out = maps.Clone(values)
			if out == nil {
				out = map[string]string{}
			}
		}
		out[in.ID] = in.Default
	}
	if out == nil {
		return values
	}
	return out
}

// Project holds the servers Claude Code keeps for one project directory.
type Project struct {
	Path     string
	Servers  []Server
	Entries  []Entry
	Problems []Problem
}

// readDoc reads data (its BOM already trimmed) as JSONC: the error is the
// interruption when ctx ended, else the syntax error at line:column.
func readDoc(ctx context.Context, name string, data []byte) (*doc, error) {
	d, serr := parseDocContext(ctx, data)
	if err := ctx.Err(); err != nil {
		return nil, interrupted(name, err)
	}
	if serr != nil {
		return nil, syntaxFailure(name, data, serr)
	}
	return d, nil
}

// ParseContext reads a config file in any supported format (see Format), detected
// from its content; name is only used in messages. Comments, trailing commas
// and a UTF-8 BOM are accepted.
//
// When the file cannot be read as a config at all (empty, not JSON, unknown
// shape) ParseContext returns a nil *File and a *ValidationError. Otherwise it
// returns the File, and the error from File.Err: a *ValidationError wrapping
// ErrInvalid when some entry is wrong. The File then still holds every
// valid server, so an import can go ahead with those.
//
// It gives up when ctx ends (a user pressing Ctrl-C or a SIGTERM while a
// huge file is read), returning an error wrapping ctx.Err() and no File.
func ParseContext(ctx context.Context, name string, data []byte) (*File, error) {
	data = bytes.TrimPrefix(fromUTF16(data), utf8BOM)
	data, fenced := unfence(data) // a README's block pasted with its fence
	d, err := readDoc(ctx, name, data)
	if err != nil {
		return nil, whatInstead(err, data, fenced)
	}
	if d.root == nil {
		return nil, &ValidationError{File: name, Kind: ErrEmpty, Problems: []Problem{{
			Severity: SeverityError,
			Message:  `file is empty; expected an object such as {"mcpServers": {...}}`,
		}}}
	}
	format, base := detect(d.root)
	if format == "" {
		return nil, unknownFormat(name, d)
	}
	c := &checker{doc: d}
	f := &File{Name: name, Format: format}
	root := d.root
	switch format {
	case FormatMCPServers, FormatClaudeCode:
		if root.get("servers") != nil && root.get("mcpServers") != nil {
			c.add(SeverityWarning, "servers", root.get("servers"), `is ignored because "mcpServers" is present; move these servers into "mcpServers"`)
		}
		c.gemini = geminiFile(name, root, root.get("mcpServers"))
		if n := root.get("mcpServers"); n != nil {
			f.Entries = c.serverMap("mcpServers", n)
		}
		geminiAllowed(f.Entries, root.get("mcp"))
		if format == FormatClaudeCode {
			f.Projects = c.projects(root.get("projects"))
		}
	case FormatVSCode, FormatVSCodeSettings:
		holder := root
		if format == FormatVSCodeSettings {
			holder = root.get("mcp")
			if holder == nil || holder.kind != kindObject {
				// "mcp.servers" and "mcp.inputs" as flat keys.
				holder = &node{kind: kindObject, off: root.off}
				for _, k := range []string{"servers", "inputs"} {
					if v := root.get("mcp." + k); v != nil {
						holder.members = append(holder.members, member{key: k, off: v.off, val: v})
					}
				}
			}
		}
		if n := holder.get("inputs"); n != nil {
			f.Inputs = c.inputs(pathKey(base, "inputs"), n)
		}
		if n := holder.get("servers"); n != nil {
			f.Entries = c.serverMap(pathKey(base, "servers"), n)
		}
		c.checkInputRefs(f)
	case FormatLegacy:
		f.Entries = c.serverList("servers", root.get("servers"))
	case FormatServerMap:
		c.gemini = geminiFile(name, root, root)
		f.Entries = c.serverMap("", root)
	}
	if err := ctx.Err(); err != nil {
		return nil, interrupted(name, err)
	}
	for _, e := range f.Entries {
		if e.Valid() {
			f.Servers = append(f.Servers, e.Server)
		}
	}
	if fenced > 0 {
		// Said on the first server too: the file's own warnings are not
		// shown where the servers are.
		note := fencedNote(fenced)
		c.problems = append(c.problems, note)
		if len(f.Entries) > 0 {
			f.Entries[0].Problems = append([]Problem{note}, f.Entries[0].Problems...)
		}
	}
	sortProblems(c.problems)
	f.Problems = c.problems
	return f, f.Err()
}

// geminiAllowed switches off the entries Gemini CLI's settings keep from
// starting: those in "mcp": {"excluded": [...]}, and when "mcp.allowed"
// lists names, those it does not. Each says so in a warning.
func geminiAllowed(entries []Entry, mcp *node) {
	names := func(key string) (map[string]bool, bool) {
		n := mcp.get(key)
		if n == nil || n.kind != kindArray {
			return nil, false
		}
		out := map[string]bool{}
		for _, e := range n.elems {
			if e.kind == kindString {
				out[e.text] = true
			}
		}
		return out, true
	}
	excluded, _ := names("excluded")
	allowed, hasAllowed := names("allowed")
	for i, e := range entries {
		var why string
		switch {
		case excluded[e.Name]:
			why = `is in "mcp.excluded", so Gemini CLI does not start it`
		case hasAllowed && !allowed[e.Name]:
			why = `is not in "mcp.allowed", so Gemini CLI does not start it`
		default:
			continue
		}
		if !e.Server.Disabled {
			entries[i].Server.Disabled = true
			entries[i].Problems = append(slices.Clone(e.Problems), Problem{Path: e.Path, Line: e.Line, Col: e.Col, Severity: SeverityWarning,
				Message: why + ": imported switched off (switch it on when you want it)"})
		}
	}
}

// interrupted wraps the context's error for a parse that was given up.
func interrupted(name string, err error) error {
	if name == "" {
		return fmt.Errorf("stopped reading the config: %w", err)
	}
	return fmt.Errorf("stopped reading %s: %w", name, err)
}

// Err returns a *ValidationError (wrapping ErrInvalid) listing every problem
// when at least one is an error, or nil.
func (f *File) Err() error {
	if !hasErrors(f.Problems) {
		return nil
	}
	return &ValidationError{File: f.Name, Kind: ErrInvalid, Problems: f.Problems}
}

// InputIDs lists the ${input:id} placeholders used by the valid servers,
// sorted and unique: the values to ask the user for before importing.
func (f *File) InputIDs() []string {
	seen := map[string]bool{}
	for _, s := range f.Servers {
		for _, id := range s.InputIDs() {
			seen[id] = true
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

// WithInputs returns a copy of f whose servers have their ${input:id}
// placeholders replaced by values[id]. Every id without a value is reported
// at once in a *MissingInputError, and f is returned unchanged.
func (f *File) WithInputs(values map[string]string) (*File, error) {
	out := *f
	out.Servers = make([]Server, len(f.Servers))
	out.Entries = slices.Clone(f.Entries)
	missing := map[string]bool{}
	var who []string
	for i, s := range f.Servers {
		var err error
		out.Servers[i], err = s.WithInputs(values)
		if mi, ok := err.(*MissingInputError); ok {
			who = append(who, s.Name)
			for _, id := range mi.IDs {
				missing[id] = true
			}
		}
	}
	if len(missing) > 0 {
		e := &MissingInputError{IDs: slices.Sorted(maps.Keys(missing))}
		if len(who) == 1 {
			e.Server = who[0]
		}
		return f, e
	}
	for i, e := range out.Entries {
		if s, err := e.Server.WithInputs(values); err == nil {
			out.Entries[i].Server = s
		}
	}
	return &out, nil
}

// detect picks the format from the top-level keys and returns the path
// prefix under which inputs and servers live.
func detect(root *node) (Format, string) {
	if root.kind != kindObject {
		return "", ""
	}
	switch {
	case root.get("mcpServers") != nil:
		if hasProjectServers(root) {
			return FormatClaudeCode, ""
		}
		return FormatMCPServers, ""
	case root.get("servers") != nil:
		if root.get("servers").kind == kindArray {
			return FormatLegacy, ""
		}
		return FormatVSCode, ""
	case root.get("mcp") != nil && root.get("mcp").kind == kindObject,
		root.get("mcp.servers") != nil: // settings.json's flat spelling of "mcp": {"servers"}
		return FormatVSCodeSettings, "mcp"
	case hasProjectServers(root):
		return FormatClaudeCode, ""
	case isServerMap(root):
		return FormatServerMap, ""
	}
	return "", ""
}

func hasProjectServers(root *node) bool {
	p := root.get("projects")
	if p == nil || p.kind != kindObject {
		return false
	}
	for _, m := range p.members {
		if m.val.get("mcpServers") != nil {
			return true
		}
	}
	return false
}

// isServerMap accepts a bare server map only when every value looks like a
// server, so unrelated JSON is still reported as an unknown format.
func isServerMap(root *node) bool {
	if len(root.members) == 0 {
		return false
	}
	for _, m := range root.members {
		v := m.val
		if v.kind != kindObject || v.get("command") == nil && v.get("url") == nil && v.get("serverUrl") == nil && v.get("httpUrl") == nil {
			return false
		}
	}
	return true
}

// unknownFormat says that a JSON document holds no servers where any app
// Switchboard reads keeps them, listing those keys and apps (serverKeys)
// and what the document has instead.
func unknownFormat(name string, d *doc) error {
	p := Problem{Severity: SeverityError}
	p.Line, p.Col = d.position(d.root.off)
	if d.root.kind != kindObject {
		p.Message = "top level is " + d.root.kind.article() +
			`; expected an object with the servers under one of the keys the apps Switchboard reads use: ` + serverKeys()
	} else {
		p.Message = "this does not look like an MCP config: no servers under any of the keys the apps Switchboard reads keep them under, " +
			serverKeys() + "; " + topKeys(d.root)
	}
	return &ValidationError{File: name, Kind: ErrUnknownFormat, Problems: []Problem{p}}
}

func syntaxFailure(name string, text []byte, e *syntaxError) error {
	p := Problem{Severity: SeverityError, Message: e.msg}
	p.Line, p.Col = position(text, e.off)
	return &ValidationError{File: name, Kind: ErrSyntax, Problems: []Problem{p}}
}

// serverMap decodes {NAME: {...}} found at path.
func (c *checker) serverMap(path string, n *node) []Entry {
	if n.kind != kindObject {
		c.add(SeverityError, path, n, `must be an object mapping server names to their definitions, like {"github": {"command": "npx", "args": [...]}}; got %s`, n.kind.article())
		return nil
	}
	// A name given twice is the last one's, as JSON.parse (and so the
	// app that wrote the file) reads it: the earlier ones are not imported.
	last := map[string]int{}
	for _, m := range n.members {
		last[m.key] = m.off
	}
	entries := make([]Entry, 0, len(n.members))
	for i, m := range n.members {
		if i%checkEvery == 0 && c.doc.cancelled() {
			return entries // the caller sees ctx.Err() and drops them
		}
		p := pathKey(path, m.key)
		start := len(c.problems)
		if strings.TrimSpace(m.key) == "" {
			c.addAt(SeverityError, p, m.off, "server name must not be empty; give the server a name")
		} else if off := last[m.key]; off != m.off {
			c.addAt(SeverityError, p, m.off, "duplicate server name: the one at line %d is used, as the app reading this file uses the last; remove this one", c.line(off))
		}
		s := c.server(p, m.key, m.val, m.off)
		entries = append(entries, c.entry(m.key, p, m.off, s, start))
	}
	return entries
}

// serverList decodes the legacy [{"name": NAME, ...}] form.
func (c *checker) serverList(path string, n *node) []Entry {
	first := map[string]string{}
	entries := make([]Entry, 0, len(n.elems))
	for i, e := range n.elems {
		if i%checkEvery == 0 && c.doc.cancelled() {
			return entries
		}
		p := pathIndex(path, i)
		start := len(c.problems)
		name := ""
		if e.kind == kindObject {
			switch nn := e.get("name"); {
			case nn == nil || nn.kind == kindNull:
				c.add(SeverityError, p, e, `needs a "name"; give each server a unique name`)
			case nn.kind != kindString:
				c.add(SeverityError, pathKey(p, "name"), nn, "must be a string, got %s", nn.kind.article())
			case strings.TrimSpace(nn.text) == "":
				c.add(SeverityError, pathKey(p, "name"), nn, "must not be empty; give each server a unique name")
			default:
				name = nn.text
				if at, dup := first[name]; dup {
					c.add(SeverityError, pathKey(p, "name"), nn, "duplicate server name %q (first at %s); rename or remove one of them", name, at)
				} else {
					first[name] = p
				}
			}
		}
		s := c.server(p, name, e, e.off)
		delete(s.Extra, "name")
		if len(s.Extra) == 0 {
			s.Extra = nil
		}
		entries = append(entries, c.entry(name, p, e.off, s, start))
	}
	return entries
}

func (c *checker) entry(name, path string, off int, s Server, start int) Entry {
	probs := slices.Clone(c.problems[start:])
	sortProblems(probs)
	e := Entry{Name: name, Path: path, Server: s, Problems: probs}
	e.Line, e.Col = c.doc.position(off)
	return e
}

func (c *checker) projects(n *node) []Project {
	if n == nil || n.kind != kindObject {
		return nil
	}
	var out []Project
	for _, m := range n.members {
		servers := m.val.get("mcpServers")
		if servers == nil {
			continue
		}
		start := len(c.problems)
		p := Project{Path: m.key}
		p.Entries = c.serverMap(pathKey(pathKey("projects", m.key), "mcpServers"), servers)
		for _, e := range p.Entries {
			if e.Valid() {
				p.Servers = append(p.Servers, e.Server)
			}
		}
		// Project servers are listed apart: a broken one in some old project
		// must not make the user-level import look failed.
		p.Problems = slices.Clone(c.problems[start:])
		sortProblems(p.Problems)
		c.problems = c.problems[:start]
		out = append(out, p)
	}
	return out
}

func (c *checker) inputs(path string, n *node) []Input {
	if n.kind != kindArray {
		c.add(SeverityError, path, n, `must be an array like [{"type": "promptString", "id": "token", "password": true}], got %s`, n.kind.article())
		return nil
	}
	var out []Input
	seen := map[string]bool{}
	for i, e := range n.elems {
		p := pathIndex(path, i)
		if e.kind != kindObject {
			c.add(SeverityError, p, e, "must be an object with an \"id\", got %s", e.kind.article())
			continue
		}
		in := Input{}
		for _, m := range e.members {
			mp, v := pathKey(p, m.key), m.val
			switch m.key {
			case "id":
				in.ID = c.str(mp, v)
			case "type":
				in.Type = c.str(mp, v)
			case "description":
				in.Description = c.str(mp, v)
			case "password":
				if v.kind != kindBool {
					c.add(SeverityError, mp, v, "must be true or false, got %s", v.kind.article())
				}
				in.Password = v.text == "true"
			case "default":
				in.Default = c.str(mp, v)
			case "options":
				in.Options = c.inputOptions(mp, v)
			}
		}
		switch {
		case e.get("id") == nil:
			c.add(SeverityError, p, e, `needs an "id"; servers refer to it as ${input:ID}`)
		case in.ID == "":
			if e.get("id").kind == kindString {
				c.add(SeverityError, pathKey(p, "id"), e.get("id"), "must not be empty")
			}
		case seen[in.ID]:
			c.add(SeverityError, pathKey(p, "id"), e.get("id"), "duplicate input id %q; give each input its own id", in.ID)
		default:
			seen[in.ID] = true
			out = append(out, in)
		}
	}
	return out
}

// inputOptions reads a pickString's "options": each a string, or an object
// whose "value" is the string (its "label" is only what VS Code shows).
func (c *checker) inputOptions(path string, n *node) []InputOption {
	if n.kind != kindArray {
		c.add(SeverityError, path, n, `must be an array like ["a", "b"], got %s`, n.kind.article())
		return nil
	}
	var out []InputOption
	for i, e := range n.elems {
		switch {
		case e.kind == kindString:
			out = append(out, InputOption{Label: e.text, Value: e.text})
		case e.kind == kindObject && e.get("value") != nil:
			o := InputOption{Value: c.str(pathKey(pathIndex(path, i), "value"), e.get("value"))}
			if l := e.get("label"); l != nil {
				o.Label = c.str(pathKey(pathIndex(path, i), "label"), l)
			}
			o.Label = cmp.Or(o.Label, o.Value)
			out = append(out, o)
		default:
			c.add(SeverityError, pathIndex(path, i), e, `must be a string or {"label": "…", "value": "…"}, got %s`, e.kind.article())
		}
	}
	return out
}

// checkInputRefs warns about ${input:id} placeholders with no declaration:
// VS Code would fail to start such a server, but the user can still supply
// the value when importing.
func (c *checker) checkInputRefs(f *File) {
	declared := map[string]bool{}
	for _, in := range f.Inputs {
		declared[in.ID] = true
	}
	for i, e := range f.Entries {
		if !e.Valid() {
			continue
		}
		for _, id := range e.Server.InputIDs() {
			if !declared[id] {
				p := Problem{Path: e.Path, Line: e.Line, Col: e.Col, Severity: SeverityWarning,
					Message: "uses ${input:" + id + `}, which is not declared in "inputs"; declare it, or supply its value when importing`}
				c.problems = append(c.problems, p)
				f.Entries[i].Problems = append(f.Entries[i].Problems, p)
			}
		}
		sortProblems(f.Entries[i].Problems)
	}
}

// fromUTF16 is data decoded to UTF-8 when it starts with a UTF-16 byte
// order mark (Windows PowerShell 5 writes a redirected file so), else data.
func fromUTF16(data []byte) []byte {
	var order binary.ByteOrder
	switch {
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE}):
		order = binary.LittleEndian
	case bytes.HasPrefix(data, []byte{0xFE, 0xFF}):
		order = binary.BigEndian
	default:
		return data
	}
	data = data[2:]
	units := make([]uint16, len(data)/2)
	for i := range units {
		units[i] = order.Uint16(data[2*i:])
	}
	return []byte(string(utf16.Decode(units)))
}
