package clients

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// EntryName is the key Switchboard's entry has in an app's file. An app's
// per-tool allow rules name it (Claude Code's mcp__switchboard__…), so it
// never changes.
const EntryName = "switchboard"

// Sentinel errors; every error of this package wraps one.
var (
	// ErrSyntax: the app's file cannot be parsed; nothing is written.
	ErrSyntax = errors.New("the app's config file is not valid")
	// ErrShape: the file parses, but the servers are not where or how the
	// app keeps them (a list where an object belongs, a YAML flow map).
	ErrShape = errors.New("the app's config file has an unexpected shape")
	// ErrReadOnly: the app's file is read-only (its owner may not write
	// it): someone made it so to keep tools from changing it, so nothing
	// is written.
	ErrReadOnly = errors.New("the app's config file is read-only")
)

// Entry is the server connect writes: Switchboard's serve command.
type Entry struct {
	Command string
	Args    []string
}

// Server is one server entry of an app's file.
type Server struct {
	Name    string            `json:"name"`
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Cwd     string            `json:"cwd,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	// SSE says a remote server speaks the older HTTP + SSE transport
	// (Goose's and Continue's "type": "sse"); otherwise a URL is
	// Streamable HTTP.
	SSE bool `json:"sse,omitempty"`
	// Disabled is the app's own switch (opencode's and Goose's "enabled": false).
	Disabled bool `json:"disabled,omitempty"`
	// IncludeTools and ExcludeTools are the app's tool filter (Codex's
	// enabled_tools and disabled_tools).
	IncludeTools []string `json:"includeTools,omitempty"`
	ExcludeTools []string `json:"excludeTools,omitempty"`
	// StartupTimeout and ToolTimeout are the app's limits on a start and
	// a call (Codex's startup_timeout_sec and tool_timeout_sec); 0: none.
	StartupTimeout time.Duration `json:"startupTimeout,omitempty"`
	ToolTimeout    time.Duration `json:"toolTimeout,omitempty"`
	// AppOnly, when set, says why only the app can start this entry (Goose's built-in extensions, a Zed extension's
	// server): it has no command or URL of its own.
	AppOnly string `json:"appOnly,omitempty"`
	// Unmapped are the entry's keys that change what the server does in
	// the app and that no field above carries ("requestOptions.proxy"):
	// an import says they are not carried over.
	Unmapped []string `json:"unmapped,omitempty"`
	// Text is the entry as written in the file (for JSON and YAML the
	// value, for TOML its sections), so a moved server returns as it was.
	Text string `json:"-"`
}

// Slot is where an entry was in its file and the layout that went with
// it, so Put returns a taken entry to the same place in the same bytes.
// It holds no value of the entry, except Trail: a JSON entry's comment on
// its last line (redact a secret in it as in the entry's text).
type Slot struct {
	// Before is the entry that came next (in TOML the table or key that
	// came next, as a dotted path); "" when it was the last.
	Before string `json:"before,omitempty"`
	// Gap is how much of what stood between the entry and Before (or the
	// end of its container) stayed in the file: comments and blank space,
	// in bytes for JSON, in lines for TOML and YAML.
	Gap int `json:"gap,omitempty"`
	// Lead is the whitespace that went before it: in JSON up to its key,
	// in TOML and YAML the blank lines above it.
	Lead string `json:"lead,omitempty"`
	// Key is the JSON key as written, with its colon and the spaces around it.
	Key string `json:"key,omitempty"`
	// Trail is what followed a JSON entry's comma on its line: spaces, a comment.
	Trail string `json:"trail,omitempty"`
	// Comma: the entry was the last and had a comma of its own (JSONC).
	Comma bool `json:"comma,omitempty"`
	// Close is the whitespace inside the brackets of a JSON container
	// the entry was the only one of, which closed up without it.
	Close string `json:"close,omitempty"`
	// Taken: Take recorded it (an entry moved by an older version has no
	// slot, and goes back at the end).
	Taken bool `json:"taken,omitempty"`
}

// Doc is an app's file, parsed with positions so edits splice bytes and
// leave the rest of the file as it was.
type Doc struct {
	File config.ClientFile
	Data []byte
	impl doc
}

// doc is one syntax's reader and splicer.
type doc interface {
	servers() ([]Server, error)
	// add returns the file with one more entry, name: value (value is a
	// rendered or raw entry in the file's syntax, see render).
	add(name string, v value) ([]byte, error)
	// take returns the file without the named entry, where it was, and
	// whether the servers' container is now empty.
	take(name string) ([]byte, Slot, bool, error)
	// put returns the file with the entry name: text (as Server.Text has
	// it) back where slot says, or at the end when its neighbour is gone.
	put(name, text string, slot Slot) ([]byte, error)
	// removeContainer returns the file without the (empty) container.
	removeContainer() ([]byte, error)
	hasContainer() bool
}

// value is what add writes: an Entry rendered in the app's style, or
// text taken from a file of the same syntax.
type value struct {
	entry *Entry
	raw   string
}

// Read parses data, the content of f. An empty or missing file (nil
// data) is an empty document. A file that cannot be parsed is an error
// naming the file, line and column (wrapping ErrSyntax).
func Read(f config.ClientFile, data []byte) (*Doc, error) {
	d := &Doc{File: f, Data: data}
	var err error
	switch f.Style.Syntax() {
	case "toml":
		d.impl, err = readTOML(f, data)
	case "yaml":
		d.impl, err = readYAML(f, data)
	default:
		d.impl, err = readJSON(f, data)
	}
	if err != nil {
		return nil, err
	}
	return d, nil
}

// Servers are the file's server entries, Switchboard's own included.
func (d *Doc) Servers() ([]Server, error) { return d.impl.servers() }

// Has says whether the file holds an entry named name.
func (d *Doc) Has(name string) bool {
	ss, err := d.Servers()
	return err == nil && slices.ContainsFunc(ss, func(s Server) bool { return s.Name == name })
}

// Connected returns Switchboard's entry, if the file has one.
func (d *Doc) Connected() (Server, bool) {
	ss, _ := d.Servers()
	i := slices.IndexFunc(ss, func(s Server) bool { return s.Name == EntryName })
	if i < 0 {
		return Server{}, false
	}
	return ss[i], true
}

// Add returns the file with Switchboard's entry e added (replaced when
// the file has one that differs; unchanged when it has the same one).
// A file that lists the servers the app may start (Gemini CLI's
// "mcp.allowed") lists Switchboard's entry too, and one that keeps it
// from starting ("mcp.excluded") no longer does; a list that cannot be
// edited is refused (ErrShape, naming its key).
func (d *Doc) Add(e Entry) ([]byte, error) {
	out, err := d.add(e)
	if err != nil {
		return nil, err
	}
	if _, ok := d.impl.(gated); !ok {
		return out, nil
	}
	nd, err := Read(d.File, out)
	if err != nil {
		return nil, err
	}
	return d.lineEnds(nd.impl.(gated).admit(EntryName))
}

func (d *Doc) add(e Entry) ([]byte, error) {
	if cur, ok := d.Connected(); ok {
		if cur.Command == e.Command && slices.Equal(cur.Args, e.Args) {
			return d.Data, nil
		}
		out, _, _, err := d.impl.take(EntryName)
		if err != nil {
			return nil, err
		}
		nd, err := Read(d.File, out)
		if err != nil {
			return nil, err
		}
		return d.lineEnds(nd.impl.add(EntryName, value{entry: &e}))
	}
	return d.lineEnds(d.impl.add(EntryName, value{entry: &e}))
}

// AddRaw returns the file with an entry name whose text (Server.Text of
// a file of the same app) is added at the end of the servers.
func (d *Doc) AddRaw(name, text string) ([]byte, error) {
	return d.Put(name, text, Slot{})
}

// Take returns the file without the named entry, and where it was for
// Put. Comments on lines of their own stay in the file; the entry's
// comma and a comment on its last line go with it.
func (d *Doc) Take(name string) ([]byte, Slot, error) {
	if !d.Has(name) {
		return d.Data, Slot{}, nil
	}
	out, s, _, err := d.impl.take(name)
	s.Taken = true
	return out, s, err
}

// Put returns the file with an entry name: text (Server.Text of a file of
// the same app) back where Take found it: before the entry that followed
// it, with the same spacing, so taking and putting back gives the same
// bytes. When that entry is gone, or slot is unknown, it goes at the end.
func (d *Doc) Put(name, text string, slot Slot) ([]byte, error) {
	if !slot.Taken {
		return d.lineEnds(d.impl.add(name, value{raw: text}))
	}
	return d.impl.put(name, text, slot)
}

// lineEnds is out with the lines an edit wrote ending as the file's do:
// in a file whose every line ends in CRLF (written on Windows), the
// edit's LF endings become CRLF too.
func (d *Doc) lineEnds(out []byte, err error) ([]byte, error) {
	if err != nil || !crlfOnly(d.Data) || crlfOnly(out) {
		return out, err
	}
	out = bytes.ReplaceAll(out, []byte("\r\n"), []byte("\n"))
	return bytes.ReplaceAll(out, []byte("\n"), []byte("\r\n")), nil
}

// crlfOnly reports whether data has line breaks and each is CRLF.
func crlfOnly(data []byte) bool {
	n := bytes.Count(data, []byte("\n"))
	return n > 0 && bytes.Count(data, []byte("\r\n")) == n
}

// Remove returns the file without the named entry; dropContainer also
// takes out the servers' container when that leaves it empty (connect
// created it). A name that is not there changes nothing.
// Taking Switchboard's entry out also takes its name out of the app's
// list of the servers it may start (Gemini CLI's "mcp.allowed").
func (d *Doc) Remove(name string, dropContainer bool) ([]byte, error) {
	out := d.Data
	if d.Has(name) {
		var empty bool
		var err error
		if out, _, empty, err = d.impl.take(name); err != nil {
			return nil, err
		}
		if empty && dropContainer {
			nd, err := Read(d.File, out)
			if err != nil {
				return nil, err
			}
			if out, err = nd.impl.removeContainer(); err != nil {
				return nil, err
			}
		}
	}
	if _, ok := d.impl.(gated); !ok || name != EntryName {
		return out, nil
	}
	nd, err := Read(d.File, out)
	if err != nil {
		return nil, err
	}
	return nd.impl.(gated).unadmit(name)
}

// Excluded says whether the app's list of the servers it never starts
// (Gemini CLI's "mcp.excluded") names name: Add takes it out, and
// Exclude puts it back.
func (d *Doc) Excluded(name string) bool {
	g, ok := d.impl.(gated)
	return ok && g.excluded(name)
}

// Exclude returns the file with name added to the app's list of the
// servers it never starts (unchanged when there is no such list).
func (d *Doc) Exclude(name string) ([]byte, error) {
	g, ok := d.impl.(gated)
	if !ok || g.excluded(name) {
		return d.Data, nil
	}
	return g.exclude(name)
}

// HasContainer says whether the file already has the object (or list)
// its servers go in.
func (d *Doc) HasContainer() bool { return d.impl.hasContainer() }

// shapeError is ErrShape with where and what to do.
func shapeError(f config.ClientFile, msg string) error {
	return fmt.Errorf("%s: %s: %w", f.Path, msg, ErrShape)
}

// keyPath names f's servers container the way its syntax writes it.
func keyPath(f config.ClientFile) string {
	parts := make([]string, len(f.Key))
	for i, k := range f.Key {
		if strings.ContainsAny(k, `."/ `) {
			k = fmt.Sprintf("%q", k)
		}
		parts[i] = k
	}
	return strings.Join(parts, ".")
}
