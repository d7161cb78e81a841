package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Transport is how the app talks to a server.
type Transport string

// The transports a server entry can name, each said beside it.
const (
	Stdio     Transport = "stdio"     // a local child process speaking JSON-RPC on stdin/stdout
	HTTP      Transport = "http"      // MCP streamable HTTP
	SSE       Transport = "sse"       // the older HTTP + server-sent events transport
	WebSocket Transport = "websocket" // LangChain's websocket transport
)

// article names the transport for messages ("an HTTP server").
func (t Transport) article() string {
	switch t {
	case HTTP:
		return "an HTTP"
	case SSE:
		return "an SSE"
	case WebSocket:
		return "a WebSocket"
	}
	return "a " + string(t)
}

// transportNames maps every spelling seen in the wild to a Transport.
var transportNames = map[string]Transport{
	"stdio":           Stdio,
	"http":            HTTP,
	"streamable_http": HTTP,
	"streamable-http": HTTP,
	"streamablehttp":  HTTP,
	"streamable":      HTTP,
	"sse":             SSE,
	"local":           Stdio, // opencode's words, in entries copied from its config
	"remote":          HTTP,
	"websocket":       WebSocket,
	"ws":              WebSocket,
}

// Stderr values accepted for a stdio server (LangChain's option names).
var stderrModes = []string{"pipe", "inherit", "ignore", "overlapped"}

// Restart is a server's crash policy. A "restart" object without "enabled"
// means disabled, as in LangChain's adapters.
type Restart struct {
	Enabled     bool
	MaxAttempts int
	Delay       time.Duration // "delayMs" in files
}

// Server is one MCP server definition. Fields are normalized: Transport is
// always set, "serverUrl"/"httpUrl" become URL, "transport" becomes
// Transport. Keys this package does not know (autoApprove, envFile, timeout,
// ...) are kept verbatim in Extra and written back on save.
type Server struct {
	Name string
	// ID is Switchboard's stable id of the entry ("id"): its keyring
	// entries are named by it, so a rename keeps them and a new server of
	// the same name does not inherit them. Import compares entries
	// without it (see Diff).
	ID        string
	Transport Transport
	Command   string
	Args      []string
	Env       map[string]string
	Cwd       string
	// EnvFile is a file of KEY=VALUE lines ("envFile", as VS Code and
	// Cursor write it) whose variables the server gets too, read at each
	// apply of the config; its "env" wins over the file (see ReadEnvFile).
	EnvFile     string
	URL         string
	Headers     map[string]string
	Disabled    bool
	Restart     *Restart
	ToolTimeout time.Duration // "defaultToolTimeout", milliseconds in files
	// StartupTimeout bounds the MCP handshake ("startupTimeout",
	// milliseconds in files; 0: the default). A launcher's download (npx,
	// uvx, docker) is not counted: it is a step of its own before it.
	StartupTimeout time.Duration
	Stderr         string // pipe, inherit, ignore or overlapped; "" = default
	Encoding       string
	// Roots are the folders (absolute paths) offered to the server as its
	// MCP roots ("roots": [...]); when empty, RootsMode says which.
	Roots []string
	// RootsMode is "roots" given as a word: which folders are the roots
	// when no list is given (RootsAuto when ""; see RootsModes).
	RootsMode string
	// Sandbox, when set, runs a stdio server in a sandbox (see sandbox.go).
	Sandbox *Sandbox
	// OAuth, when set, is a remote server's pre-registered client (see oauth.go).
	OAuth *OAuth
	// IncludeTools, when not empty, are the only tools of the server
	// offered anywhere (chats, serve, the Tools page); ExcludeTools are
	// never offered, and win over IncludeTools. Gemini CLI's
	// "includeTools" and "excludeTools"; Roo Code's and Kiro's
	// "disabledTools" is read as "excludeTools".
	IncludeTools, ExcludeTools []string
	Extra                      map[string]json.RawMessage
}

// knownKeys are the server keys this package interprets; everything else
// goes to Extra. "name" is absent on purpose: only the legacy array uses it
// as the name, elsewhere it is kept as an unknown key.
var knownKeys = map[string]bool{
	"type": true, "transport": true, "command": true, "args": true, "env": true,
	"cwd": true, "url": true, "serverUrl": true, "httpUrl": true, "headers": true,
	"disabled": true, "enabled": true, "restart": true, "defaultToolTimeout": true, "stderr": true,
	"encoding": true, "roots": true, "sandbox": true, "startupTimeout": true,
	"oauth": true, "id": true, "sandboxEnabled": true, "envFile": true,
	"includeTools": true, "excludeTools": true, "disabledTools": true, "timeout": true, "transportType": true,
}

// Clone returns a deep copy.
func (s Server) Clone() Server {
	s.Args = slices.Clone(s.Args)
	s.Env = maps.Clone(s.Env)
	s.Headers = maps.Clone(s.Headers)
	s.Roots = slices.Clone(s.Roots)
	s.IncludeTools, s.ExcludeTools = slices.Clone(s.IncludeTools), slices.Clone(s.ExcludeTools)
	s.Sandbox = s.Sandbox.Clone()
	s.OAuth = s.OAuth.Clone()
	if s.Restart != nil {
		r := *s.Restart
		s.Restart = &r
	}
	if s.Extra != nil {
		extra := make(map[string]json.RawMessage, len(s.Extra))
		for k, v := range s.Extra {
			extra[k] = bytes.Clone(v)
		}
		s.Extra = extra
	}
	return s
}

// MarshalJSON writes the server as it appears inside an mcpServers object
// (its name is the key, so it is not written): known fields in a fixed
// order, then Extra keys sorted.
func (s Server) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	first := true
	put := func(key string, v any) error {
		raw, err := marshal(v)
		if err != nil {
			return fmt.Errorf("server %q: %s: %w", s.Name, key, err)
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		k, _ := marshal(key)
		b.Write(k)
		b.WriteByte(':')
		b.Write(raw)
		return nil
	}
	type field struct {
		key string
		set bool
		val any
	}
	fields := []field{
		{"id", s.ID != "", s.ID},
		{"type", s.Transport != "", s.Transport},
		{"command", s.Command != "", s.Command},
		{"args", len(s.Args) > 0, s.Args},
		{"env", len(s.Env) > 0, s.Env},
		{"cwd", s.Cwd != "", s.Cwd},
		{"envFile", s.EnvFile != "", s.EnvFile},
		{"url", s.URL != "", s.URL},
		{"headers", len(s.Headers) > 0, s.Headers},
		{"disabled", s.Disabled, true},
		{"stderr", s.Stderr != "", s.Stderr},
		{"encoding", s.Encoding != "", s.Encoding},
		{"roots", len(s.Roots) > 0, s.Roots},
		{"roots", len(s.Roots) == 0 && s.RootsMode != "", s.RootsMode},
		{"sandbox", s.Sandbox != nil, s.Sandbox},
		{"oauth", s.OAuth != nil, s.OAuth},
		{"includeTools", len(s.IncludeTools) > 0, s.IncludeTools},
		{"excludeTools", len(s.ExcludeTools) > 0, s.ExcludeTools},
	}
	for _, f := range fields {
		if f.set {
			if err := put(f.key, f.val); err != nil {
				return nil, err
			}
		}
	}
	if r := s.Restart; r != nil {
		v := struct {
			Enabled     bool            `json:"enabled"`
			MaxAttempts int             `json:"maxAttempts,omitempty"`
			DelayMs     json.RawMessage `json:"delayMs,omitempty"`
		}{r.Enabled, r.MaxAttempts, millis(r.Delay)}
		if err := put("restart", v); err != nil {
			return nil, err
		}
	}
	if s.ToolTimeout != 0 {
		if err := put("defaultToolTimeout", millis(s.ToolTimeout)); err != nil {
			return nil, err
		}
	}
	if s.StartupTimeout != 0 {
		if err := put("startupTimeout", millis(s.StartupTimeout)); err != nil {
			return nil, err
		}
	}
	for _, k := range slices.Sorted(maps.Keys(s.Extra)) {
		if knownKeys[k] {
			continue // a stale copy of a known field must not shadow it
		}
		v := s.Extra[k]
		if !json.Valid(v) {
			return nil, fmt.Errorf("server %q: extra key %q holds invalid JSON: %w", s.Name, k, ErrInvalid)
		}
		if err := put(k, v); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// marshal is json.Marshal without HTML escaping: config files are read by
// people, and "a=1&b=2" in a URL should not turn into "a=1\u0026b=2".
// objectKey is one key of a JSON object marshalObject writes, when set.
type objectKey struct {
	key string
	set bool
	val any
}

// marshalObject writes the members that are set, in order, then extra's
// keys sorted, leaving out those skip names (a stale copy of a known key
// must not shadow it).
func marshalObject(members []objectKey, extra map[string]json.RawMessage, skip func(string) bool) ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	sep := ""
	put := func(k string, v any) error {
		raw, err := marshal(v)
		if err != nil {
			return err
		}
		key, _ := marshal(k)
		b.WriteString(sep)
		b.Write(key)
		b.WriteByte(':')
		b.Write(raw)
		sep = ","
		return nil
	}
	for _, m := range members {
		if m.set {
			if err := put(m.key, m.val); err != nil {
				return nil, err
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(extra)) {
		if skip != nil && skip(k) {
			continue
		}
		if !json.Valid(extra[k]) {
			return nil, ErrInvalid
		}
		if err := put(k, extra[k]); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// millis renders a duration as a JSON number of milliseconds, or nil for 0.
func millis(d time.Duration) json.RawMessage {
	if d == 0 {
		return nil
	}
	return json.RawMessage(strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', -1, 64))
}

// UnmarshalJSON reads one server object with the same rules as Parse. The
// name is left as it was (the caller knows it). Problems come back as a
// *ValidationError.
func (s *Server) UnmarshalJSON(data []byte) error {
	data = bytes.TrimPrefix(data, utf8BOM)
	d, serr := parseDoc(data)
	if serr != nil {
		return syntaxFailure("", data, serr)
	}
	if d.root == nil {
		return &ValidationError{Kind: ErrEmpty}
	}
	c := &checker{doc: d}
	srv := c.server("", s.Name, d.root, d.root.off)
	sortProblems(c.problems)
	if hasErrors(c.problems) {
		return &ValidationError{Kind: ErrInvalid, Problems: c.problems}
	}
	*s = srv
	return nil
}

// Warnings are the warnings the rules of a file give s (an envFile that
// is not an absolute path, say), without positions: what a form built in
// code shows under its fields, as an import's preview would.
func (s Server) Warnings() []Problem {
	data, err := json.Marshal(s)
	if err != nil {
		return nil
	}
	d, serr := parseDoc(data)
	if serr != nil || d.root == nil {
		return nil
	}
	c := &checker{doc: d}
	c.server("", s.Name, d.root, d.root.off)
	var out []Problem
	for _, p := range c.problems {
		if p.Severity == SeverityWarning {
			p.Line, p.Col = 0, 0
			out = append(out, p)
		}
	}
	return out
}

// Validate checks a server built in code (e.g. by "servers add") with the
// same rules as a parsed file, including its name, which must not be a
// built-in server's (see builtin.Reserved).
func (s Server) Validate() error {
	data, err := json.Marshal(s)
	if err != nil {
		return err
	}
	d, serr := parseDoc(data)
	if serr != nil {
		return syntaxFailure("", data, serr)
	}
	c := &checker{doc: d, noPositions: true}
	path := pathKey("", s.Name)
	if strings.TrimSpace(s.Name) == "" {
		c.add(SeverityError, path, nil, "server name must not be empty; give the server a name")
	}
	if p, ok := reservedProblem(path, s.Name, "choose another name"); ok {
		c.problems = append(c.problems, p)
	}
	c.server(path, s.Name, d.root, d.root.off)
	if hasErrors(c.problems) {
		return &ValidationError{Kind: ErrInvalid, Problems: c.problems}
	}
	return nil
}

var inputRef = regexp.MustCompile(`\$\{input:([^}]*)\}`)

// eachString calls fn on every string that may hold a placeholder.
func (s *Server) eachString(fn func(p *string)) {
	fn(&s.Command)
	for i := range s.Args {
		fn(&s.Args[i])
	}
	for _, m := range []map[string]string{s.Env, s.Headers} {
		for k, v := range m {
			fn(&v)
			m[k] = v
		}
	}
	fn(&s.Cwd)
	fn(&s.EnvFile)
	fn(&s.URL)
}

// InputIDs lists the ids of the VS Code ${input:id} placeholders the server
// uses, sorted and unique.
func (s Server) InputIDs() []string {
	seen := map[string]bool{}
	s = s.Clone()
	s.eachString(func(p *string) {
		for _, m := range inputRef.FindAllStringSubmatch(*p, -1) {
			seen[m[1]] = true
		}
	})
	return slices.Sorted(maps.Keys(seen))
}

// WithInputs returns a copy with every ${input:id} replaced by values[id].
// Ids without a value are all reported at once in a *MissingInputError.
func (s Server) WithInputs(values map[string]string) (Server, error) {
	out := s.Clone()
	missing := map[string]bool{}
	out.eachString(func(p *string) {
		*p = inputRef.ReplaceAllStringFunc(*p, func(ref string) string {
			id := inputRef.FindStringSubmatch(ref)[1]
			v, ok := values[id]
			if !ok {
				missing[id] = true
				return ref
			}
			return v
		})
	})
	if len(missing) > 0 {
		return s, &MissingInputError{Server: s.Name, IDs: slices.Sorted(maps.Keys(missing))}
	}
	return out, nil
}

// checker decodes servers from a doc, collecting every problem.
type checker struct {
	doc         *doc
	problems    []Problem
	noPositions bool // the doc is generated, so line:col would mean nothing
	// gemini says why the file is Gemini CLI's (see geminiFile), or is
	// "": its "timeout" is then in milliseconds.
	gemini string
}

// add records a problem located at n (or at off when n is nil and off >= 0).
func (c *checker) add(sev Severity, path string, n *node, format string, args ...any) {
	c.addAt(sev, path, offsetOf(n), format, args...)
}

func (c *checker) addAt(sev Severity, path string, off int, format string, args ...any) {
	p := Problem{Path: path, Severity: sev, Message: fmt.Sprintf(format, args...)}
	if off >= 0 && !c.noPositions {
		p.Line, p.Col = c.doc.position(off)
	}
	c.problems = append(c.problems, p)
}

func offsetOf(n *node) int {
	if n == nil {
		return -1
	}
	return n.off
}

// server decodes one server object found at path. Every problem is recorded;
// problems about the entry as a whole point at offset at (its key).
// The returned Server holds whatever could be read.
func (c *checker) server(path, name string, n *node, at int) Server {
	s := Server{Name: name}
	if n.kind != kindObject {
		c.addAt(SeverityError, path, at, `must be an object with "command" (stdio) or "url" (http/sse), got %s`, n.kind.article())
		return s
	}
	last := map[string]int{}
	for i, m := range n.members {
		if j, dup := last[m.key]; dup {
			c.addAt(SeverityWarning, pathKey(path, m.key), m.off, "duplicate key (first at line %d); the last one is used, remove the other",
				c.line(n.members[j].off))
		}
		last[m.key] = i
	}
	var typ, transport Transport
	var typeNode, transportNode, urlNode, commandNode, sandboxNode, sandboxOnNode, oauthNode, envFileNode, timeoutNode *node
	urlKeys := 0
	for i, m := range n.members {
		if last[m.key] != i {
			continue
		}
		p, v := pathKey(path, m.key), m.val
		if v.kind == kindNull && knownKeys[m.key] {
			continue // null means "not set" for every known field
		}
		switch m.key {
		case "id":
			s.ID = c.str(p, v)
		case "command":
			commandNode = v
			s.Command = c.str(p, v)
		case "args":
			s.Args = c.strList(p, v)
		case "env":
			s.Env = c.strMap(p, v, "variable")
		case "headers":
			s.Headers = c.strMap(p, v, "header")
		case "cwd":
			s.Cwd = c.str(p, v)
		case "envFile":
			envFileNode = v
			s.EnvFile = c.str(p, v)
		case "includeTools":
			s.IncludeTools = c.strList(p, v)
		case "excludeTools", "disabledTools":
			s.ExcludeTools = append(s.ExcludeTools, c.strList(p, v)...)
		case "encoding":
			s.Encoding = c.str(p, v)
		case "roots":
			if v.kind == kindString {
				s.RootsMode = c.rootsMode(p, v)
				break
			}
			s.Roots = c.roots(p, v)
		case "sandbox":
			sandboxNode = v
		case "sandboxEnabled": // VS Code's switch for its "sandbox" settings
			sandboxOnNode = v
		case "oauth":
			oauthNode = v
			s.OAuth = c.oauth(p, v)
		case "url", "serverUrl", "httpUrl":
			urlKeys++
			if urlKeys > 1 {
				c.add(SeverityError, p, v, `only one of "url", "serverUrl" and "httpUrl" may be set; remove the others`)
			}
			urlNode = v
			s.URL = c.str(p, v)
			if m.key == "httpUrl" && v.kind == kindString {
				typ = HTTP // Gemini CLI's spelling for streamable HTTP
			}
		case "disabled":
			if v.kind != kindBool {
				c.add(SeverityError, p, v, "must be true or false, got %s", v.kind.article())
			}
			s.Disabled = s.Disabled || v.text == "true"
		case "enabled": // Zed's, opencode's, Goose's and others' switch: read as "disabled"
			if v.kind != kindBool {
				c.add(SeverityError, p, v, "must be true or false, got %s", v.kind.article())
			}
			s.Disabled = s.Disabled || v.text == "false"
		case "type":
			typeNode = v
			typ = c.transport(p, v)
		case "transport", "transportType": // Cline's and Roo Code's "transportType"
			transportNode = v
			transport = c.transport(p, v)
		case "restart":
			s.Restart = c.restart(p, v)
		case "defaultToolTimeout":
			s.ToolTimeout = c.millis(p, v)
		case "timeout":
			timeoutNode = v
		case "startupTimeout":
			s.StartupTimeout = c.millis(p, v)
		case "stderr":
			if mode := c.str(p, v); mode != "" {
				if !slices.Contains(stderrModes, mode) {
					c.add(SeverityError, p, v, `%q is not a stderr mode; use "pipe", "inherit", "ignore" or "overlapped"`, mode)
				}
				s.Stderr = mode
			}
		default:
			if s.Extra == nil {
				s.Extra = map[string]json.RawMessage{}
			}
			s.Extra[m.key] = c.doc.raw(v)
		}
	}

	if typ != "" && transport != "" && typ != transport {
		c.add(SeverityError, pathKey(path, "transport"), transportNode, `says %q but "type" says %q; keep only one of them`, transport, typ)
	}
	s.Transport = cmpOr(typ, transport)
	if typeNode != nil && typ == "" || transportNode != nil && transport == "" {
		return s // a bad transport was reported; the checks below would only guess
	}
	hasCommand, hasURL := commandNode != nil, urlNode != nil
	switch {
	case s.Transport == "" && hasCommand && hasURL:
		c.addAt(SeverityError, path, at, `has both "command" and "url"; keep "command" for a local (stdio) server or "url" for a remote one`)
	case s.Transport == "" && hasURL:
		s.Transport = HTTP
	case s.Transport == "" && hasCommand:
		s.Transport = Stdio
	case s.Transport == "":
		c.addAt(SeverityError, path, at, `needs "command" (stdio) or "url" (http/sse)`)
	case s.Transport == Stdio && !hasCommand:
		c.addAt(SeverityError, path, at, `needs "command": a stdio server is started as a local program`)
	case s.Transport == Stdio && hasURL:
		c.add(SeverityError, pathKey(path, "url"), urlNode, `is not used by a stdio server; remove it, or set "type" to "http" or "sse"`)
	case s.Transport != Stdio && !hasURL:
		c.addAt(SeverityError, path, at, `needs "url": %s server is reached over the network`, s.Transport.article())
	case s.Transport != Stdio && hasCommand:
		c.add(SeverityError, pathKey(path, "command"), commandNode, `is not used by %s server; remove it, or set "type" to "stdio"`, s.Transport.article())
	}
	if hasCommand && s.Command == "" && commandNode.kind == kindString {
		c.add(SeverityError, pathKey(path, "command"), commandNode, "must not be empty; give the program to run, e.g. \"npx\"")
	}
	if hasURL && s.URL == "" && urlNode.kind == kindString {
		c.add(SeverityError, pathKey(path, "url"), urlNode, "must not be empty; write it like https://example.com/mcp")
	}
	if timeoutNode != nil {
		c.otherTimeout(pathKey(path, "timeout"), timeoutNode, &s)
	}
	switch {
	case envFileNode != nil && s.Transport != Stdio && s.Transport != "":
		c.add(SeverityWarning, pathKey(path, "envFile"), envFileNode, "is ignored: %s server is not started here, so it gets no environment; remove it", s.Transport.article())
	case s.EnvFile != "" && !filepath.IsAbs(s.EnvFile) && !strings.Contains(s.EnvFile, "${") && !strings.Contains(s.EnvFile, "{{"):
		c.add(SeverityWarning, pathKey(path, "envFile"), envFileNode, "is not an absolute path, so the server will not start; write the file's full path")
	}
	if hasURL && s.URL != "" && s.Transport != Stdio && s.Transport != "" {
		c.checkURL(pathKey(path, "url"), urlNode, s.URL, s.Transport)
	}
	switch {
	case sandboxOnNode != nil || isVSCodeSandbox(sandboxNode):
		s.Sandbox = c.vscodeSandbox(path, sandboxOnNode, sandboxNode)
	case sandboxNode != nil:
		s.Sandbox = c.sandbox(pathKey(path, "sandbox"), sandboxNode)
	}
	if s.Sandbox != nil && s.Transport != Stdio && s.Transport != "" {
		c.add(SeverityWarning, pathKey(path, "sandbox"), sandboxNode, "is ignored: only a local (stdio) server runs in a sandbox; remove it")
	}
	if s.OAuth != nil && s.Transport == Stdio {
		c.add(SeverityWarning, pathKey(path, "oauth"), oauthNode, "is ignored: only a remote (http/sse) server logs in with OAuth; give a local server its credentials as env values")
	}
	return s
}

func cmpOr(a, b Transport) Transport {
	if a != "" {
		return a
	}
	return b
}

func (c *checker) line(off int) int {
	l, _ := c.doc.position(off)
	return l
}

func (c *checker) str(path string, n *node) string {
	if n.kind != kindString {
		c.add(SeverityError, path, n, "must be a string, got %s", n.kind.article())
		return ""
	}
	return n.text
}

// Roots modes: the values "roots" takes as a word. With none, a server's
// roots are the folders its arguments name, or the workspace when they name
// none: an imported filesystem server keeps the folders it was set up for,
// and a server set up without any works in the workspace.
const (
	RootsAuto       = "auto"       // configured folders, else the workspace
	RootsConfigured = "configured" // only the folders its arguments name
	RootsWorkspace  = "workspace"  // only the workspace
	RootsBoth       = "both"       // the configured folders and the workspace
	RootsNone       = "none"       // no roots at all
)

// RootsModes lists the words "roots" accepts.
var RootsModes = []string{RootsAuto, RootsConfigured, RootsWorkspace, RootsBoth, RootsNone}

// rootsMode reads "roots" given as a word.
func (c *checker) rootsMode(path string, n *node) string {
	m := n.text
	if !slices.Contains(RootsModes, m) {
		c.add(SeverityError, path, n, `%q is not a roots mode; use a list of folders or one of "auto", "configured", "workspace", "both", "none"`, m)
		return ""
	}
	if m == RootsAuto {
		return "" // the default, written as nothing
	}
	return m
}

// roots reads a server's "roots": absolute folder paths (a placeholder
// such as ${env:HOME}/src is checked once expanded).
func (c *checker) roots(path string, n *node) []string {
	out := c.strList(path, n)
	for i, e := range n.elems {
		if e.kind != kindString || strings.Contains(e.text, "${") {
			continue
		}
		switch clean := filepath.Clean(e.text); {
		case !filepath.IsAbs(e.text):
			c.add(SeverityError, pathIndex(path, i), e, "%q is not an absolute path; write the folder's full path, e.g. /home/me/project", e.text)
		case filepath.Dir(clean) == clean:
			// Refused again at start (the sandbox binds no root whole), but
			// said here so an import or an edit never saves it.
			c.add(SeverityError, pathIndex(path, i), e, "%q is the whole disk, which would offer the server every file on it; name the folders it needs, e.g. /home/me/project", e.text)
		}
	}
	return out
}

func (c *checker) strList(path string, n *node) []string {
	if n.kind != kindArray {
		c.add(SeverityError, path, n, "must be an array of strings, got %s", n.kind.article())
		return nil
	}
	out := make([]string, 0, len(n.elems))
	for i, e := range n.elems {
		if e.kind != kindString {
			// Node's spawn rejects non-string arguments, so converting would
			// hide a config that fails in the host it was written for.
			c.add(SeverityError, pathIndex(path, i), e, "must be a string, got %s; put it in quotes", e.kind.article())
			continue
		}
		if Placeholder(e.text) {
			c.add(SeverityWarning, pathIndex(path, i), e, placeholderNote, e.text)
		}
		out = append(out, e.text)
	}
	return out
}

// strMap reads env or headers. Numbers and booleans are converted, with a
// warning, because Node hosts stringify env values and configs rely on it.
func (c *checker) strMap(path string, n *node, what string) map[string]string {
	if n.kind != kindObject {
		c.add(SeverityError, path, n, "must be an object of %s names to string values, got %s", what, n.kind.article())
		return nil
	}
	out := make(map[string]string, len(n.members))
	for _, m := range n.members {
		p := pathKey(path, m.key)
		if strings.TrimSpace(m.key) == "" {
			c.addAt(SeverityError, p, m.off, "%s name must not be empty", what)
			continue
		}
		if what == "variable" && strings.ContainsAny(m.key, "=\x00") {
			// The program would get a different variable (or none): the
			// environment is NAME=value strings.
			c.addAt(SeverityError, p, m.off, "%q is not a valid variable name: it must not contain '='; rename it", m.key)
			continue
		}
		switch v := m.val; v.kind {
		case kindString:
			out[m.key] = v.text
			if Placeholder(v.text) {
				c.add(SeverityWarning, p, v, placeholderNote, v.text)
			}
		case kindNumber, kindBool:
			out[m.key] = v.text
			c.add(SeverityWarning, p, v, "%s %s was converted to the string %q; put it in quotes to silence this warning",
				strings.TrimPrefix(strings.TrimPrefix(v.kind.article(), "a "), "an "), v.text, v.text)
		default:
			c.add(SeverityError, p, v, "must be a string, got %s", v.kind.article())
		}
	}
	return out
}

func (c *checker) transport(path string, n *node) Transport {
	name := c.str(path, n)
	if name == "" {
		if n.kind == kindString {
			c.add(SeverityError, path, n, `must not be empty; use "stdio", "http" or "sse"`)
		}
		return ""
	}
	t, ok := transportNames[strings.ToLower(name)]
	if !ok {
		c.add(SeverityError, path, n, `%q is not a known transport; use "stdio", "http" or "sse"`, name)
	}
	return t
}

func (c *checker) restart(path string, n *node) *Restart {
	if n.kind != kindObject {
		c.add(SeverityError, path, n, `must be an object like {"enabled": true, "maxAttempts": 3, "delayMs": 1000}, got %s`, n.kind.article())
		return nil
	}
	r := &Restart{}
	for _, m := range n.members {
		p, v := pathKey(path, m.key), m.val
		switch m.key {
		case "enabled":
			if v.kind != kindBool {
				c.add(SeverityError, p, v, "must be true or false, got %s", v.kind.article())
			}
			r.Enabled = v.text == "true"
		case "maxAttempts":
			f, ok := c.number(p, v)
			if ok && (f < 0 || f != math.Trunc(f) || f > math.MaxInt32) {
				c.add(SeverityError, p, v, "must be a whole number of attempts, 0 or more")
				ok = false
			}
			if ok {
				r.MaxAttempts = int(f)
			}
		case "delayMs":
			r.Delay = c.millis(p, v)
		default:
			c.addAt(SeverityWarning, p, m.off, `unknown restart option is ignored; the options are "enabled", "maxAttempts" and "delayMs"`)
		}
	}
	return r
}

func (c *checker) number(path string, n *node) (float64, bool) {
	if n.kind != kindNumber {
		c.add(SeverityError, path, n, "must be a number, got %s", n.kind.article())
		return 0, false
	}
	f, err := strconv.ParseFloat(n.text, 64)
	if err != nil {
		c.add(SeverityError, path, n, "%s is out of range", n.text)
		return 0, false
	}
	return f, true
}

// maxMillis keeps a millisecond count convertible to time.Duration.
const maxMillis = float64(math.MaxInt64 / int64(time.Millisecond))

func (c *checker) millis(path string, n *node) time.Duration {
	f, ok := c.number(path, n)
	if !ok {
		return 0
	}
	if f < 0 || f > maxMillis {
		c.add(SeverityError, path, n, "must be a number of milliseconds, 0 or more")
		return 0
	}
	return time.Duration(f * float64(time.Millisecond))
}

// otherTimeout reads another app's "timeout" of a server as its tool
// timeout: Cline's and Roo Code's seconds (1 to 3600), Gemini CLI's and
// Amazon Q's milliseconds (their defaults are 600000 and 120000). In a
// file known to be Gemini CLI's (c.gemini) it is milliseconds; elsewhere
// a value up to 3600 is taken for seconds, a larger one for
// milliseconds. The warning says which unit and why, so a reading the
// person did not mean can be fixed. A "defaultToolTimeout" of the entry
// wins.
func (c *checker) otherTimeout(path string, n *node, s *Server) {
	if n.kind != kindNumber { // another app's key: not a reason to skip the server
		c.add(SeverityWarning, path, n, "is ignored: it must be a number, got %s; set \"defaultToolTimeout\" in milliseconds instead", n.kind.article())
		return
	}
	f, ok := c.number(path, n)
	switch {
	case !ok:
	case f <= 0:
		c.add(SeverityWarning, path, n, "is ignored: it must be a positive number; set \"defaultToolTimeout\" in milliseconds instead")
	case s.ToolTimeout > 0:
		c.add(SeverityWarning, path, n, "is ignored: \"defaultToolTimeout\" is set too and wins; remove one of them")
	case c.gemini != "" && f <= maxMillis:
		s.ToolTimeout = time.Duration(f * float64(time.Millisecond))
		c.add(SeverityWarning, path, n, "is read as the tool timeout in milliseconds, Gemini CLI's unit, as this looks like Gemini CLI's settings (%s): %s; saved as \"defaultToolTimeout\"", c.gemini, s.ToolTimeout)
	case f <= 3600:
		s.ToolTimeout = time.Duration(f * float64(time.Second))
		c.add(SeverityWarning, path, n, "is read as the tool timeout in seconds (Cline's and Roo Code's unit): %s; saved as \"defaultToolTimeout\" in milliseconds", s.ToolTimeout)
	case f <= maxMillis:
		s.ToolTimeout = time.Duration(f * float64(time.Millisecond))
		c.add(SeverityWarning, path, n, "is read as the tool timeout in milliseconds (Gemini CLI's and Amazon Q's unit): %s; saved as \"defaultToolTimeout\"", s.ToolTimeout)
	default:
		c.add(SeverityWarning, path, n, "is ignored: it is too large for a timeout; set \"defaultToolTimeout\" in milliseconds instead")
	}
}

// checkURL enforces the URL rules (urlProblem) on a URL as written. A
// template's {{param}} and a ${...} that may supply the missing parts are
// left to CheckURL, which checks the final URL at start.
func (c *checker) checkURL(path string, n *node, raw string, t Transport) {
	if strings.Contains(raw, "{{") && strings.Contains(raw, "}}") {
		return
	}
	why, unfinished := urlProblem(raw, t)
	if why != "" && !(unfinished && strings.Contains(raw, "${")) {
		c.add(SeverityError, path, n, "%s", why)
	}
}

// Target is the one line that says what a server runs: its URL, or its
// command and arguments.
func (s Server) Target() string {
	if s.URL != "" {
		return s.URL
	}
	return strings.TrimSpace(s.Command + " " + strings.Join(s.Args, " "))
}
