package bundle

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/switchboard-app/switchboard/mcpmanager/filename"
)

// Limits of what Open and Unpack accept. Variables so tests can lower them.
var (
	MaxBundleBytes   int64 = 256 << 20  // the .mcpb file itself
	MaxUnpackedBytes int64 = 1024 << 20 // all files, uncompressed
	MaxFiles               = 20000
	MaxManifestBytes int64 = 1 << 20
)

// Sentinel errors; the typed errors below wrap them.
var (
	// ErrManifest: manifest.json is missing, not JSON, or a field is wrong.
	ErrManifest = errors.New("invalid bundle manifest")
	// ErrUnsafe: an archive entry would leave the bundle's folder, is a
	// link, or the archive is larger than the limits.
	ErrUnsafe = errors.New("unsafe bundle archive")
	// ErrIncompatible: the bundle does not run on this computer.
	ErrIncompatible = errors.New("bundle is not compatible with this computer")
	// ErrUserConfig: a user_config value is missing or out of range.
	ErrUserConfig = errors.New("invalid bundle setting")
	// ErrRequired: a required user_config value is missing (with
	// ErrUserConfig; a *RequiredError).
	ErrRequired = errors.New("a required bundle setting has no value")
	// ErrNotBundle: the file is not a zip archive at all.
	ErrNotBundle = errors.New("not an MCP Bundle")
)

// NotBundleError says that a file is not an MCP Bundle.
type NotBundleError struct {
	Name string // the file as the user knows it
	Err  error  // what the zip reader said
}

func (e *NotBundleError) Error() string {
	return fmt.Sprintf("%s is not an MCP Bundle (a .mcpb is a zip archive with a manifest.json; this file is not a zip archive: %v): get the bundle again from its publisher", e.Name, e.Err)
}

func (e *NotBundleError) Unwrap() []error { return []error{ErrNotBundle, e.Err} }

// ManifestError names the manifest field that is wrong.
type ManifestError struct {
	Field string // JSON path, "server.type"; "" for the whole file
	Err   error  // says what is wrong; wraps nothing but config.ErrForeignReference
}

func (e *ManifestError) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("manifest.json: %v: ask the bundle's author for a fixed bundle", e.Err)
	}
	return fmt.Sprintf("manifest.json: %s: %v: ask the bundle's author for a fixed bundle", e.Field, e.Err)
}

func (e *ManifestError) Unwrap() []error { return []error{ErrManifest, e.Err} }

// UnsafeError says which archive entry was refused and why.
type UnsafeError struct {
	Path string // the entry's name in the zip; "" for the whole archive
	Why  string
}

func (e *UnsafeError) Error() string {
	if e.Path == "" {
		return fmt.Sprintf("%v: %s; nothing was installed", ErrUnsafe, e.Why)
	}
	return fmt.Sprintf("%v: entry %q %s; nothing was installed", ErrUnsafe, e.Path, e.Why)
}

func (e *UnsafeError) Unwrap() error { return ErrUnsafe }

// Versions are the manifest versions this package reads. 0.1 is 0.2
// without privacy_policies (mcpb's schemas), which this package does not
// read either; 0.3 adds icons, localization and _meta, 0.4 the uv server
// type.
var Versions = []string{"0.1", "0.2", "0.3", "0.4"}

// Manifest is manifest.json, the fields Switchboard uses.
type Manifest struct {
	ManifestVersion string          `json:"manifest_version"`
	DXTVersion      string          `json:"dxt_version,omitempty"` // the name before 0.3
	Name            string          `json:"name"`
	DisplayName     string          `json:"display_name,omitempty"`
	Version         string          `json:"version"`
	Description     string          `json:"description"`
	LongDescription string          `json:"long_description,omitempty"`
	Author          Author          `json:"author"`
	Homepage        string          `json:"homepage,omitempty"`
	Documentation   string          `json:"documentation,omitempty"`
	Icon            string          `json:"icon,omitempty"`
	Server          Server          `json:"server"`
	Compatibility   *Compatibility  `json:"compatibility,omitempty"`
	UserConfig      UserConfig      `json:"user_config,omitempty"`
	Tools           []NamedItem     `json:"tools,omitempty"`
	Keywords        []string        `json:"keywords,omitempty"`
	License         string          `json:"license,omitempty"`
	Raw             json.RawMessage `json:"-"`
}

// Author is who made the bundle.
type Author struct {
	Name  string `json:"name"`
	Email string `json:"email,omitempty"`
	URL   string `json:"url,omitempty"`
}

// NamedItem is a declared tool or prompt.
type NamedItem struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

// Server types.
const (
	Node   = "node"
	Python = "python"
	Binary = "binary"
	UV     = "uv"
)

// Server says how to run the bundle's server.
type Server struct {
	Type       string     `json:"type"`
	EntryPoint string     `json:"entry_point"`
	MCPConfig  *MCPConfig `json:"mcp_config,omitempty"`
}

// MCPConfig is the command line, with ${...} placeholders.
type MCPConfig struct {
	Command           string               `json:"command"`
	Args              []string             `json:"args,omitempty"`
	Env               map[string]string    `json:"env,omitempty"`
	PlatformOverrides map[string]MCPConfig `json:"platform_overrides,omitempty"`
}

// Compatibility is where the bundle runs.
type Compatibility struct {
	Platforms []string          `json:"platforms,omitempty"`
	Runtimes  map[string]string `json:"runtimes,omitempty"`
}

// Option types of user_config.
const (
	TypeString    = "string"
	TypeNumber    = "number"
	TypeBoolean   = "boolean"
	TypeDirectory = "directory"
	TypeFile      = "file"
)

// Option is one user_config entry.
type Option struct {
	Key         string          `json:"-"`
	Type        string          `json:"type"`
	Title       string          `json:"title"`
	Description string          `json:"description,omitempty"`
	Required    bool            `json:"required,omitempty"`
	Default     json.RawMessage `json:"default,omitempty"`
	Multiple    bool            `json:"multiple,omitempty"`
	Sensitive   bool            `json:"sensitive,omitempty"`
	Min         *float64        `json:"min,omitempty"`
	Max         *float64        `json:"max,omitempty"`
}

// UserConfig is the options in the manifest's order (a form shows them so).
type UserConfig []Option

// UnmarshalJSON keeps the keys' order.
func (u *UserConfig) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return &ManifestError{Field: "user_config", Err: errors.New("must be an object of options")}
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		var o Option
		if err := dec.Decode(&o); err != nil {
			// This decoder starts at the option, so a type error's field
			// ("min") is relative to it: name the whole path.
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) {
				return typeError(strings.Trim("user_config."+tok.(string)+"."+te.Field, "."), te)
			}
			return fmt.Errorf("%s: %w", tok, err)
		}
		o.Key = tok.(string)
		// A key declared twice is refused rather than one copy kept (Go's
		// encoding/json and JavaScript's JSON.parse keep the last): the two
		// may disagree on "sensitive", and whichever copy a reader picks,
		// another (the form, Install, the record in config.json) may pick
		// the other and write a sensitive value in plaintext. Only the
		// bundle's author can say which one was meant.
		if _, dup := u.Lookup(o.Key); dup {
			return &ManifestError{Field: "user_config." + o.Key, Err: errors.New("declared twice; each setting must appear once")}
		}
		*u = append(*u, o)
	}
	_, err = dec.Token()
	return err
}

// Lookup returns the option named key.
func (u UserConfig) Lookup(key string) (Option, bool) {
	i := slices.IndexFunc(u, func(o Option) bool { return o.Key == key })
	if i < 0 {
		return Option{}, false
	}
	return u[i], true
}

// Bundle is an opened .mcpb file.
type Bundle struct {
	Path      string
	Manifest  Manifest
	Signature Signature
	zip       *zip.Reader
	size      int64
}

// Open reads path, splits off a signature block, and reads and validates
// its manifest.json.
func Open(path string) (*Bundle, error) { return OpenNamed(path, path) }

// OpenNamed is Open for a file the user knows by another name (a dropped
// file kept under a random one): messages name it name.
func OpenNamed(path, name string) (*Bundle, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open bundle: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("open bundle: %w", err)
	}
	if fi.Size() > MaxBundleBytes {
		return nil, &UnsafeError{Why: fmt.Sprintf("is %d MB, over the %d MB limit", fi.Size()>>20, MaxBundleBytes>>20)}
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("read bundle: %w", err)
	}
	b, err := Read(name, data)
	if err != nil {
		return nil, err
	}
	b.Path = path
	return b, nil
}

// Read is Open on the bundle's bytes; path names it in messages.
func Read(path string, data []byte) (*Bundle, error) {
	if int64(len(data)) > MaxBundleBytes {
		return nil, &UnsafeError{Why: fmt.Sprintf("is %d MB, over the %d MB limit", len(data)>>20, MaxBundleBytes>>20)}
	}
	content, sig := splitSignature(data)
	zr, err := zip.NewReader(bytes.NewReader(content), int64(len(content)))
	if err != nil {
		return nil, &NotBundleError{Name: path, Err: err}
	}
	b := &Bundle{Path: path, zip: zr, size: int64(len(content))}
	b.Signature = verify(content, sig)
	// Each file once: with two manifest.json entries the one shown could
	// differ from the one unpacked last. Names are compared as a
	// case-insensitive file system would (macOS, Windows).
	seen := make(map[string]bool, len(zr.File))
	var mf *zip.File
	for _, f := range zr.File {
		key := strings.ToLower(strings.TrimSuffix(strings.ReplaceAll(f.Name, `\`, "/"), "/"))
		if seen[key] && !strings.HasSuffix(f.Name, "/") {
			return nil, &UnsafeError{Path: f.Name, Why: "is in the bundle twice; a bundle holds each file once"}
		}
		seen[key] = true
		if f.Name == "manifest.json" {
			mf = f
		}
	}
	if mf == nil {
		return nil, &ManifestError{Err: errors.New("missing at the root of the bundle")}
	}
	if mf.UncompressedSize64 > uint64(MaxManifestBytes) {
		return nil, &ManifestError{Err: fmt.Errorf("larger than %d bytes", MaxManifestBytes)}
	}
	rc, err := mf.Open()
	if err != nil {
		return nil, &ManifestError{Err: err}
	}
	raw, err := io.ReadAll(io.LimitReader(rc, MaxManifestBytes+1))
	rc.Close()
	if err != nil {
		return nil, &ManifestError{Err: err}
	}
	m, err := ParseManifest(raw)
	if err != nil {
		return nil, err
	}
	b.Manifest = *m
	return b, nil
}

// ParseManifest parses and validates manifest.json (a UTF-8 byte order
// mark first, as Windows editors write, is skipped).
func ParseManifest(raw []byte) (*Manifest, error) {
	raw = bytes.TrimPrefix(raw, []byte("\xef\xbb\xbf"))
	var m Manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		var me *ManifestError
		if errors.As(err, &me) {
			return nil, me
		}
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return nil, typeError(te.Field, te)
		}
		return nil, &ManifestError{Err: fmt.Errorf("not valid JSON: %w", err)}
	}
	m.Raw = raw
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return &m, nil
}

// typeError names field as the JSON type it must be.
func typeError(field string, te *json.UnmarshalTypeError) *ManifestError {
	return &ManifestError{Field: field, Err: fmt.Errorf("must be %s, not a JSON %s", article(te.Type.Kind().String()), te.Value)}
}

func article(kind string) string {
	switch kind {
	case "slice":
		return "a list"
	case "map", "struct":
		return "an object"
	case "float64", "int":
		return "a number"
	case "bool":
		return "true or false"
	}
	return "a " + kind
}

var semverRE = regexp.MustCompile(`^v?\d+\.\d+\.\d+([-+][0-9A-Za-z.+-]*)?$`)

// nameRE is what a server name may be: it prefixes tool names (name__tool).
var nameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// notNameRE is a run of what a server name may not have.
var notNameRE = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// ServerName is the name the bundle's server gets, and its folder: the
// manifest's name when it is one already (letters, digits, '.', '_', '-',
// at most 64), else made one from it, as a display-style name such as
// MANIFEST.md's own "My MCP Extension" becomes my-mcp-extension: lower
// case, each run of other characters a '-'. "" when nothing is left.
func (m *Manifest) ServerName() string {
	if nameRE.MatchString(m.Name) {
		return m.Name
	}
	n := strings.Trim(notNameRE.ReplaceAllString(strings.ToLower(m.Name), "-"), "-._")
	if len(n) > 64 {
		n = strings.TrimRight(n[:64], "-._")
	}
	return n
}

// Validate checks the fields Switchboard relies on; the error names the
// first wrong field.
func (m *Manifest) Validate() error {
	bad := func(field, format string, a ...any) error {
		return &ManifestError{Field: field, Err: fmt.Errorf(format, a...)}
	}
	v := m.ManifestVersion
	field := "manifest_version"
	if v == "" && m.DXTVersion != "" {
		v, field = m.DXTVersion, "dxt_version"
	}
	switch {
	case v == "":
		return bad("manifest_version", "missing; this reader understands %s", strings.Join(Versions, ", "))
	case !slices.Contains(Versions, v):
		return bad(field, "%q is not a version this reader understands (%s)", v, strings.Join(Versions, ", "))
	case m.Name == "":
		return bad("name", "missing")
	case m.ServerName() == "":
		return bad("name", "%q has no letters or digits (a-z, 0-9) to name the server by", m.Name)
	case filename.Check(m.ServerName()) != nil: // it names the bundle's folder too
		return bad("name", "%q cannot name a folder on every system (%v)", m.Name, filename.Check(m.ServerName()))
	case m.Version == "":
		return bad("version", "missing")
	case !semverRE.MatchString(m.Version):
		return bad("version", "%q is not a semantic version (1.2.3)", m.Version)
	case filename.Check(m.Version) != nil: // it names the version's folder
		return bad("version", "%q cannot name a folder on every system (%v)", m.Version, filename.Check(m.Version))
	case m.Description == "":
		return bad("description", "missing")
	case m.Author.Name == "":
		return bad("author.name", "missing")
	}
	switch m.Server.Type {
	case Node, Python, Binary, UV:
	case "":
		return bad("server.type", "missing; use node, python, binary or uv")
	default:
		return bad("server.type", "%q is not a server type; use node, python, binary or uv", m.Server.Type)
	}
	if m.Server.Type == UV && v != "0.4" {
		return bad("server.type", `"uv" needs manifest_version 0.4`)
	}
	if m.Server.EntryPoint == "" {
		return bad("server.entry_point", "missing")
	}
	if err := relativePath(m.Server.EntryPoint); err != nil {
		return bad("server.entry_point", "%v", err)
	}
	if c := m.Server.MCPConfig; c == nil {
		if m.Server.Type != UV {
			return bad("server.mcp_config", "missing")
		}
	} else {
		if c.Command == "" {
			return bad("server.mcp_config.command", "missing")
		}
		for p := range c.PlatformOverrides {
			if !slices.Contains(platforms, p) {
				return bad("server.mcp_config.platform_overrides."+p, "not a platform; use darwin, win32 or linux")
			}
		}
	}
	if c := m.Compatibility; c != nil {
		for i, p := range c.Platforms {
			if !slices.Contains(platforms, p) {
				return bad(fmt.Sprintf("compatibility.platforms[%d]", i), "%q is not a platform; use darwin, win32 or linux", p)
			}
		}
		for rt, want := range c.Runtimes {
			if _, err := parseRange(want); err != nil {
				return bad("compatibility.runtimes."+rt, "%v", err)
			}
		}
	}
	if field, ref := m.reference(); ref != "" {
		return &ManifestError{Field: field, Err: foreign(ref)}
	}
	for _, o := range m.UserConfig {
		f := "user_config." + o.Key
		switch o.Type {
		case TypeString, TypeNumber, TypeBoolean, TypeDirectory, TypeFile:
		case "":
			return bad(f+".type", "missing; use string, number, boolean, directory or file")
		default:
			return bad(f+".type", "%q is not an option type; use string, number, boolean, directory or file", o.Type)
		}
		if o.Title == "" {
			return bad(f+".title", "missing")
		}
		if o.Multiple && o.Type != TypeDirectory && o.Type != TypeFile {
			return bad(f+".multiple", "only directory and file options may take several values")
		}
		if (o.Min != nil || o.Max != nil) && o.Type != TypeNumber {
			return bad(f+".min", "only number options have a minimum or maximum")
		}
		if o.Min != nil && o.Max != nil && *o.Min > *o.Max {
			return bad(f+".max", "%v is below min %v", *o.Max, *o.Min)
		}
		if len(o.Default) > 0 {
			if _, err := o.defaults(); err != nil {
				return bad(f+".default", "%v", err)
			}
		}
	}
	return nil
}

// relativePath refuses a path that leaves the bundle's folder.
func relativePath(p string) error {
	clean := strings.ReplaceAll(p, `\`, "/")
	if strings.HasPrefix(clean, "/") || (len(clean) > 1 && clean[1] == ':') {
		return fmt.Errorf("%q must be a path inside the bundle, not an absolute one", p)
	}
	for _, part := range strings.Split(clean, "/") {
		if part == ".." {
			return fmt.Errorf("%q leaves the bundle's folder", p)
		}
	}
	return nil
}

// defaults is the option's default as strings (several for multiple).
func (o Option) defaults() ([]string, error) {
	if len(o.Default) == 0 {
		return nil, nil
	}
	var v any
	if err := json.Unmarshal(o.Default, &v); err != nil {
		return nil, err
	}
	switch d := v.(type) {
	case []any:
		if !o.Multiple {
			return nil, errors.New("a list, but the option takes one value")
		}
		var out []string
		for _, x := range d {
			out = append(out, fmt.Sprint(x))
		}
		return out, nil
	case string:
		return []string{d}, nil
	case float64:
		if o.Type != TypeNumber {
			return nil, fmt.Errorf("a number, but the option is a %s", o.Type)
		}
		return []string{formatNumber(d)}, nil
	case bool:
		if o.Type != TypeBoolean {
			return nil, fmt.Errorf("true/false, but the option is a %s", o.Type)
		}
		return []string{fmt.Sprint(d)}, nil
	}
	return nil, fmt.Errorf("%s is not a default value", o.Default)
}

// Defaults is the option's default, placeholders (${HOME}, ...) substituted.
func (o Option) Defaults(v Vars) []string {
	d, _ := o.defaults()
	out := make([]string, len(d))
	for i, x := range d {
		out[i] = v.substitute(x, nil)
	}
	return out
}

func formatNumber(f float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%f", f), "0"), ".")
}

// File returns one file of the bundle (its icon, say) by its path in the
// manifest; a path that leaves the bundle is refused.
func (b *Bundle) File(name string) ([]byte, error) {
	if name == "" {
		return nil, os.ErrNotExist
	}
	if err := relativePath(name); err != nil {
		return nil, err
	}
	name = strings.TrimPrefix(strings.ReplaceAll(name, `\`, "/"), "./")
	for _, f := range b.zip.File {
		if f.Name == name {
			if f.UncompressedSize64 > 4<<20 {
				return nil, fmt.Errorf("%s is larger than 4 MB", name)
			}
			rc, err := f.Open()
			if err != nil {
				return nil, err
			}
			defer rc.Close()
			return io.ReadAll(io.LimitReader(rc, 4<<20))
		}
	}
	return nil, os.ErrNotExist
}
