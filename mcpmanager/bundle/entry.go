package bundle

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// platforms are the names manifests use (Node's process.platform).
var platforms = []string{"darwin", "win32", "linux"}

// Platform is this computer's platform as manifests name it.
func Platform() string {
	if runtime.GOOS == "windows" {
		return "win32"
	}
	return runtime.GOOS
}

// Vars are the values of the manifest's placeholders other than
// ${user_config.KEY}: ${__dirname}, ${HOME}, ${DESKTOP}, ${DOCUMENTS},
// ${DOWNLOADS} and ${pathSeparator} (or ${/}).
type Vars struct {
	Dirname, Home, Desktop, Documents, Downloads string
	Platform                                     string // "" is Platform()
}

// UserVars are this user's folders, with dirname as ${__dirname}.
func UserVars(dirname string) Vars {
	home, _ := os.UserHomeDir()
	return Vars{Dirname: dirname, Home: home, Desktop: filepath.Join(home, "Desktop"),
		Documents: filepath.Join(home, "Documents"), Downloads: filepath.Join(home, "Downloads")}
}

var placeholderRE = regexp.MustCompile(`\$\{([^}]*)\}`)

// substitute replaces the placeholders of s; user gives a user_config
// value (joined, for an option with several values).
func (v Vars) substitute(s string, user func(key string) (string, bool)) string {
	return placeholderRE.ReplaceAllStringFunc(s, func(m string) string {
		name := m[2 : len(m)-1]
		switch name {
		case "__dirname":
			return v.Dirname
		case "HOME":
			return v.Home
		case "DESKTOP":
			return v.Desktop
		case "DOCUMENTS":
			return v.Documents
		case "DOWNLOADS":
			return v.Downloads
		case "pathSeparator", "/":
			return string(filepath.Separator)
		}
		if key, ok := strings.CutPrefix(name, "user_config."); ok && user != nil {
			if val, ok := user(key); ok {
				return val
			}
		}
		return m // someone else's placeholder (${secret:...}) stays
	})
}

// Values are the user's answers to user_config, by key; an option with
// multiple takes several.
type Values map[string][]string

// Check fills in defaults, and refuses a missing required value, a number
// out of range, a boolean that is not true/false, several values for a
// single option, and a key the manifest does not have. A default that is
// wrong (out of its own range) is the bundle's mistake, and the error says
// so, naming its author, and how to give a value instead.
func (m *Manifest) Check(in Values, vars Vars) (Values, error) {
	out := Values{}
	for k, v := range in {
		if _, ok := m.UserConfig.Lookup(k); !ok {
			return nil, fmt.Errorf("%w: %q is not a setting of %s (it has %s)", ErrUserConfig, k, m.Name, m.keys())
		}
		out[k] = v
	}
	for _, o := range m.UserConfig {
		v := out[o.Key]
		// The default, filled in here or sent back as the form showed it.
		byDefault := m.IsDefault(o.Key, v, vars)
		if len(v) == 0 || len(v) == 1 && v[0] == "" {
			v, byDefault = o.Defaults(vars), true
		}
		if len(v) == 0 {
			if o.Required {
				return nil, &RequiredError{Key: o.Key, Title: o.Title}
			}
			continue
		}
		if len(v) > 1 && !o.Multiple {
			return nil, fmt.Errorf("%w: %s (%s) takes one value, got %d", ErrUserConfig, o.Title, o.Key, len(v))
		}
		for _, x := range v {
			if err := o.checkValue(x); err != nil {
				if byDefault {
					return nil, fmt.Errorf("%w: %s (%s): the bundle's own default is wrong: %v; give a value (--set %s=VALUE, or in the form), and tell the bundle's author (%s)",
						ErrUserConfig, o.Title, o.Key, err, o.Key, m.Author.Name)
				}
				return nil, fmt.Errorf("%w: %s (%s): %v", ErrUserConfig, o.Title, o.Key, err)
			}
		}
		out[o.Key] = v
	}
	return out, nil
}

// checkValue refuses a value o does not take: a number that is not one or
// out of range, a boolean other than true/false.
func (o Option) checkValue(x string) error {
	switch o.Type {
	case TypeNumber:
		f, err := strconv.ParseFloat(x, 64)
		if err != nil {
			return fmt.Errorf("%q is not a number", x)
		}
		if o.Min != nil && f < *o.Min || o.Max != nil && f > *o.Max {
			return fmt.Errorf("%v is outside %s", x, rangeText(o))
		}
	case TypeBoolean:
		if x != "true" && x != "false" {
			return fmt.Errorf("%q must be true or false", x)
		}
	}
	return nil
}

// RequiredError is a required user_config value without one (nor a
// default): the form is not filled in yet.
type RequiredError struct{ Key, Title string }

func (e *RequiredError) Error() string {
	return fmt.Sprintf("%v: %s (%s) is required: enter it in the form, or pass --set %s=VALUE", ErrUserConfig, e.Title, e.Key, e.Key)
}

func (e *RequiredError) Unwrap() []error { return []error{ErrUserConfig, ErrRequired} }

func rangeText(o Option) string {
	switch {
	case o.Min != nil && o.Max != nil:
		return fmt.Sprintf("%s–%s", formatNumber(*o.Min), formatNumber(*o.Max))
	case o.Min != nil:
		return "≥ " + formatNumber(*o.Min)
	}
	return "≤ " + formatNumber(*o.Max)
}

func (m *Manifest) keys() string {
	var ks []string
	for _, o := range m.UserConfig {
		ks = append(ks, o.Key)
	}
	if len(ks) == 0 {
		return "no settings"
	}
	return strings.Join(ks, ", ")
}

// Config is the server's command line on vars.Platform, its
// platform_overrides applied (a uv bundle without one runs
// "uv run --directory DIR ENTRY").
func (m *Manifest) Config(platform string) MCPConfig {
	if platform == "" {
		platform = Platform()
	}
	var c MCPConfig
	if m.Server.MCPConfig != nil {
		c = *m.Server.MCPConfig
	} else { // uv: the host runs it
		c = MCPConfig{Command: "uv", Args: []string{"run", "--directory", "${__dirname}", "${__dirname}/" + m.Server.EntryPoint}}
	}
	if o, ok := c.PlatformOverrides[platform]; ok {
		if o.Command != "" {
			c.Command = o.Command
		}
		if o.Args != nil {
			c.Args = o.Args
		}
		if len(o.Env) > 0 {
			env := map[string]string{}
			for k, v := range c.Env {
				env[k] = v
			}
			for k, v := range o.Env {
				env[k] = v
			}
			c.Env = env
		}
	}
	c.PlatformOverrides = nil
	return c
}

// Entry is the server entry that runs the bundle unpacked in vars.Dirname
// with the checked values: every placeholder substituted, an argument that
// is exactly one ${user_config.KEY} of several values expanded into one
// argument each, a relative binary command made absolute. It is named
// ServerName.
//
// An argument that is exactly one ${user_config.KEY} without a value (an
// optional setting left empty) stays, empty, in its place: dropping it
// would shift the arguments after it, and a flag before it ("--cfg",
// "${user_config.cfg}") would take the next argument as its value. The
// mcpb reference implementation keeps such an argument too (it leaves the
// placeholder's text); a value inside a longer argument is empty, as
// Claude Desktop does.
//
// The manifest is not the user's: a ${secret:…} or ${env:…} reference it
// puts in the entry (Validate refuses the ones it spells out; here also
// those pieces of its text join into) would be expanded at start and hand
// its author another server's secret or this app's environment, so the
// entry is refused with a *ManifestError naming the field. The values are
// the user's, references included (the keyring's ${secret:…} for a
// sensitive one), except one equal to the option's default, which is the
// manifest's text.
func (m *Manifest) Entry(vars Vars, values Values) (config.Server, error) {
	c := m.Config(vars.Platform)
	// The user's values go in as opaque stand-ins, so that every reference
	// left in the entry came from the manifest; they are put back at the end.
	opaque := config.NewOpaque()
	given := Values{}
	for k, v := range values {
		if m.IsDefault(k, v, vars) {
			given[k] = v
			continue
		}
		hidden := make([]string, len(v))
		for i, x := range v {
			hidden[i] = opaque.Hide(x)
		}
		given[k] = hidden
	}
	user := func(key string) (string, bool) {
		v, ok := given[key]
		if !ok {
			return "", true // unset optional: empty, as Claude Desktop does
		}
		return strings.Join(v, string(os.PathListSeparator)), true
	}
	var refErr error
	checked := func(v, field, template string) string {
		if ref := config.Reference(v); ref != "" && refErr == nil {
			refErr = &ManifestError{Field: m.blame(field, template, ref, given), Err: foreign(ref)}
		}
		return v
	}
	fields := m.fields(vars.Platform)
	s := config.Server{Name: m.ServerName(), Transport: config.Stdio, Env: map[string]string{}}
	s.Command = checked(vars.substitute(c.Command, user), fields.command, c.Command)
	if m.Server.Type == Binary && !filepath.IsAbs(s.Command) && strings.ContainsAny(s.Command, `/\`) {
		s.Command = filepath.Join(vars.Dirname, filepath.FromSlash(s.Command))
	}
	if m.Server.Type == Binary && runtime.GOOS == "windows" && filepath.Ext(s.Command) == "" {
		s.Command += ".exe"
	}
	for i, a := range c.Args {
		if key, ok := soleUserConfig(a); ok {
			if len(given[key]) == 0 {
				s.Args = append(s.Args, "") // kept in its place, empty
			}
			for _, v := range given[key] {
				s.Args = append(s.Args, checked(v, fields.args(i), a))
			}
			continue
		}
		s.Args = append(s.Args, checked(vars.substitute(a, user), fields.args(i), a))
	}
	for k, v := range c.Env {
		s.Env[k] = checked(vars.substitute(v, user), fields.env(k), v)
	}
	s.Cwd = vars.Dirname
	if refErr != nil {
		return config.Server{}, refErr
	}
	opaque.RevealServer(&s)
	return s, nil
}

// IsDefault reports whether v is the default of the option key:
// substituted with vars, or with no bundle folder yet, as Inspect and
// Check see it before unpacking (and the window's form sends it back).
func (m *Manifest) IsDefault(key string, v []string, vars Vars) bool {
	o, ok := m.UserConfig.Lookup(key)
	if !ok || len(o.Default) == 0 {
		return false
	}
	before := vars
	before.Dirname = ""
	return slices.Equal(v, o.Defaults(vars)) || slices.Equal(v, o.Defaults(before))
}

// blame is the field a reference in an entry's value came from: a
// user_config default the template substitutes, if one holds it, else the
// template's own field.
func (m *Manifest) blame(field, template, ref string, given Values) string {
	if config.Reference(template) == ref {
		return field
	}
	for _, match := range placeholderRE.FindAllStringSubmatch(template, -1) {
		key, ok := strings.CutPrefix(match[1], "user_config.")
		if !ok {
			continue
		}
		for _, v := range given[key] {
			if config.Reference(v) == ref {
				return "user_config." + key + ".default"
			}
		}
	}
	return field
}

// entryFields are the JSON paths of the command line Config returns on a
// platform: the override's where it sets them.
type entryFields struct {
	command string
	args    func(i int) string
	env     func(key string) string
}

func (m *Manifest) fields(platform string) entryFields {
	if platform == "" {
		platform = Platform()
	}
	base := "server.mcp_config"
	if m.Server.MCPConfig == nil { // uv: the command line is ours, the entry point the manifest's
		return entryFields{command: "server.type", args: func(int) string { return "server.entry_point" }, env: func(string) string { return "server.entry_point" }}
	}
	at := func(list string) func(int) string {
		return func(i int) string { return fmt.Sprintf("%s[%d]", list, i) }
	}
	f := entryFields{command: base + ".command", args: at(base + ".args"), env: func(k string) string { return base + ".env." + k }}
	o, ok := m.Server.MCPConfig.PlatformOverrides[platform]
	if !ok {
		return f
	}
	over := base + ".platform_overrides." + platform
	if o.Command != "" {
		f.command = over + ".command"
	}
	if o.Args != nil {
		f.args = at(over + ".args")
	}
	f.env = func(k string) string {
		if _, ok := o.Env[k]; ok {
			return over + ".env." + k
		}
		return base + ".env." + k
	}
	return f
}

// reference is the first ${secret:…} or ${env:…} reference the manifest
// spells out in what becomes the entry (the command line, its platform
// overrides, user_config defaults, with the bundle's own placeholders
// left empty) and its field; Entry also catches those its pieces join into.
func (m *Manifest) reference() (field, ref string) {
	empty := Vars{}
	check := func(f, v string) bool {
		for _, x := range []string{v, empty.substitute(v, nil)} {
			if r := config.Reference(x); r != "" {
				field, ref = f, r
				return true
			}
		}
		return false
	}
	cmdLine := func(at string, c MCPConfig) bool {
		if check(at+".command", c.Command) {
			return true
		}
		for i, a := range c.Args {
			if check(fmt.Sprintf("%s.args[%d]", at, i), a) {
				return true
			}
		}
		for _, k := range slices.Sorted(maps.Keys(c.Env)) {
			if check(at+".env."+k, c.Env[k]) {
				return true
			}
		}
		return false
	}
	if c := m.Server.MCPConfig; c != nil {
		if cmdLine("server.mcp_config", *c) {
			return
		}
		for _, p := range slices.Sorted(maps.Keys(c.PlatformOverrides)) {
			if cmdLine("server.mcp_config.platform_overrides."+p, c.PlatformOverrides[p]) {
				return
			}
		}
	}
	if check("server.entry_point", m.Server.EntryPoint) {
		return
	}
	for _, o := range m.UserConfig {
		d, _ := o.defaults()
		for _, v := range d {
			if check("user_config."+o.Key+".default", v) {
				return
			}
		}
	}
	return "", ""
}

// foreign says what a reference from the manifest would do.
func foreign(ref string) error {
	return fmt.Errorf("%s %w, so it is not installed", ref, config.ErrForeignReference)
}

// soleUserConfig reports whether a is exactly "${user_config.KEY}".
func soleUserConfig(a string) (string, bool) {
	if !strings.HasPrefix(a, "${user_config.") || !strings.HasSuffix(a, "}") {
		return "", false
	}
	key := a[len("${user_config.") : len(a)-1]
	return key, !strings.ContainsAny(key, "${}")
}
