package mcpregistry

import (
	"cmp"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// Option is one way to add a server: one of its packages, or a remote.
type Option struct {
	Label   string   // "npm @scope/pkg 1.2.3", "remote streamable-http https://..."
	Package *Package // nil for a remote
	Remote  *Remote
}

// Options are what s offers that this app can run, packages first.
// Unsupported says why the others were left out.
func Options(s ServerJSON) []Option {
	var out []Option
	for i := range s.Packages {
		p := &s.Packages[i]
		if packageWhy(*p) != "" {
			continue
		}
		out = append(out, Option{Label: strings.TrimSpace(p.RegistryType + " " + p.Identifier + " " + p.Version), Package: p})
	}
	for i := range s.Remotes {
		r := &s.Remotes[i]
		if remoteWhy(*r) != "" {
			continue
		}
		out = append(out, Option{Label: "remote " + r.Type + " " + r.URL, Remote: r})
	}
	return out
}

// packageWhy says why this app cannot run p ("" when it can).
func packageWhy(p Package) string {
	switch p.RegistryType {
	case "npm", "pypi", "oci", "mcpb":
	default:
		return fmt.Sprintf("its %s package %s is of a kind Switchboard does not install (it installs npm, PyPI, OCI and MCPB packages)", cmp.Or(p.RegistryType, "untyped"), p.Identifier)
	}
	if t := p.Transport.Type; t != "" && t != "stdio" {
		// A package that serves HTTP itself: something must start it and
		// keep it running on its port, which an entry does not do.
		return fmt.Sprintf("its %s package %s serves %s itself (at %s) instead of speaking stdio, and Switchboard starts only stdio packages: start it yourself, then add its URL as a server", p.RegistryType, p.Identifier, t, cmp.Or(p.Transport.URL, "a URL of its own"))
	}
	return ""
}

// remoteWhy says why this app cannot connect to r ("" when it can).
func remoteWhy(r Remote) string {
	if r.Type != "streamable-http" && r.Type != "sse" {
		return fmt.Sprintf("its remote %s is a %q remote, and Switchboard connects to streamable-http and sse ones", r.URL, r.Type)
	}
	return ""
}

// Unsupported says why s offers nothing this app can run, naming each
// package and remote it left out and why ("" when Options has one).
func Unsupported(s ServerJSON) string {
	if len(Options(s)) > 0 {
		return ""
	}
	var why []string
	for _, p := range s.Packages {
		why = append(why, packageWhy(p))
	}
	for _, r := range s.Remotes {
		why = append(why, remoteWhy(r))
	}
	if len(why) == 0 {
		return "it lists no package and no remote"
	}
	return strings.Join(why, "; ")
}

// Ask is a value the user may give before the server is added: every
// input of the server.json without a fixed value (an environment
// variable, a header, a runtime or package argument), and every
// {variable} of a fixed value, required or optional, with or without a
// default.
type Ask struct {
	Key         string   `json:"key"`  // the variable, environment variable or header name; an argument's valueHint, else its name without dashes
	Kind        string   `json:"kind"` // env, header, argument or variable
	Description string   `json:"description"`
	Required    bool     `json:"required"`
	Secret      bool     `json:"secret"`
	Default     string   `json:"default"`
	Choices     []string `json:"choices"`
}

var braceRE = regexp.MustCompile(`\{([A-Za-z0-9_.-]+)\}`)

// Asks lists what option o of s lets the user set, in order, each key
// once; none is an empty list, not nil (the window maps over it). A
// {name} in a fixed value with no variable of that name is not asked: the
// server.json spec leaves it as it is.
func Asks(s ServerJSON, o Option) []Ask {
	out := []Ask{}
	seen := map[string]bool{}
	add := func(a Ask) {
		if seen[a.Key] {
			return
		}
		seen[a.Key] = true
		out = append(out, a)
	}
	vars := func(value string, variables map[string]Input) {
		for _, m := range braceRE.FindAllStringSubmatch(value, -1) {
			v, ok := variables[m[1]]
			if !ok {
				continue
			}
			// A variable with no default is needed: its {name} would
			// otherwise stay in the value as it is.
			add(Ask{Key: m[1], Kind: "variable", Description: v.Description, Required: v.IsRequired || !hasDefault(v), Secret: v.IsSecret, Default: v.Default, Choices: choices(v)})
		}
	}
	// input asks for in under key, or for its variables when its value is
	// fixed (a fixed value is not the user's to change).
	input := func(key, kind string, in Input) {
		if in.Value != "" {
			vars(in.Value, in.Variables)
			return
		}
		add(Ask{Key: key, Kind: kind, Description: in.Description, Required: in.IsRequired, Secret: in.IsSecret, Default: in.Default, Choices: choices(in)})
	}
	if p := o.Package; p != nil {
		for _, a := range append(slices.Clone(p.RuntimeArguments), p.PackageArguments...) {
			input(argKey(a), "argument", a.Input)
		}
		for _, e := range p.EnvironmentVariables {
			input(e.Name, "env", e.Input)
		}
		for _, h := range p.Transport.Headers {
			vars(h.Value, h.Variables)
		}
	}
	if r := o.Remote; r != nil {
		vars(r.URL, r.Variables)
		for _, h := range r.Headers {
			input(h.Name, "header", h.Input)
		}
	}
	return out
}

// choices are what in may be: its choices, or true and false for a
// boolean (never nil).
func choices(in Input) []string {
	switch {
	case len(in.Choices) > 0:
		return slices.Clone(in.Choices)
	case in.Format == "boolean":
		return []string{"true", "false"}
	}
	return []string{}
}

func hasDefault(in Input) bool { return in.Default != "" }

// argKey is the name an argument without a value is asked by.
func argKey(a Argument) string {
	if a.ValueHint != "" {
		return a.ValueHint
	}
	return strings.TrimLeft(a.Name, "-")
}

// Name is the entry name a registry server gets: the last part of its
// reverse-DNS name ("io.github.user/weather" → "weather").
func Name(s ServerJSON) string {
	n := s.Name
	if i := strings.LastIndex(n, "/"); i >= 0 {
		n = n[i+1:]
	}
	n = regexp.MustCompile(`[^A-Za-z0-9._-]+`).ReplaceAllString(n, "-")
	return strings.Trim(n, "-")
}

// Entry is the server entry option o of s makes with values (by Ask.Key;
// a secret's value is best a ${secret:NAME} reference, kept as given).
// Versions are pinned: npm → npx -y PACKAGE@VERSION, pypi → uvx
// PACKAGE==VERSION, oci → docker run -i --rm IMAGE:TAG, remotes → a URL
// entry with its headers. An mcpb package is not an entry: the caller
// downloads and installs the bundle (package bundle).
//
// Every Ask may be given, the optional ones and those with a default
// included; a key no Ask has is refused (*ValueError), and so is a value
// outside an Ask's choices; a required Ask without a default and without
// a value is missing (*MissingError, naming each).
//
// The document is not the user's: a ${secret:…} or ${env:…} reference in
// what it puts in the entry (a value, a default, a choice, the URL, an
// argument, or pieces of them joined) would be expanded at start and hand
// its publisher another server's secret or this app's environment, so the
// entry is refused with a *ReferenceError naming the field. The values
// given are the user's, references included, except one equal to the
// document's own default or choice for that key: the window's form sends
// those back, and they are the document's text.
func Entry(s ServerJSON, o Option, values map[string]string) (config.Server, error) {
	asks := Asks(s, o)
	if err := checkValues(s.Name, asks, values); err != nil {
		return config.Server{}, err
	}
	// The user's values go in as opaque stand-ins, so that every reference
	// left in the entry came from the document; they are put back at the end.
	opaque := config.NewOpaque()
	hidden := map[string]string{}
	for k, v := range values {
		hidden[k] = opaque.Hide(v)
	}
	for _, a := range asks {
		if v := values[a.Key]; v != "" && (v == a.Default || slices.Contains(a.Choices, v)) {
			hidden[a.Key] = v
		}
	}
	b := &builder{values: hidden}
	e, err := b.entry(s, o)
	if err == nil {
		err = b.err
	}
	if err != nil {
		return config.Server{}, err
	}
	opaque.RevealServer(&e)
	if b.imageAt > 0 {
		dockerEnv(&e, b.imageAt)
	}
	return e, nil
}

// dockerEnv takes the user's keyring and environment references off
// docker's own options (the words before the image, end): "-e
// NAME=${secret:…}" (GitHub's server.json sets its token so) becomes "-e
// NAME" with NAME in the entry's env, which docker passes on, because a
// command line is readable by every user of the computer (ps) and an
// environment is not. A value without a reference stays; a variable the
// entry's env sets already keeps that value (it came later on the command
// line, so docker used it); "-e NAME" is kept once.
func dockerEnv(e *config.Server, end int) {
	var head []string
	seen := map[string]bool{}
	for i := 0; i < end; i++ {
		words := e.Args[i : i+1]
		kv, ok := strings.CutPrefix(e.Args[i], "--env=")
		if w := e.Args[i]; (w == "-e" || w == "--env") && i+1 < end {
			words, kv, ok = e.Args[i:i+2], e.Args[i+1], true
			i++
		}
		if !ok {
			head = append(head, words...)
			continue
		}
		name, v, hasValue := strings.Cut(kv, "=")
		if hasValue && name != "" && config.Reference(v) != "" {
			if _, set := e.Env[name]; !set {
				if e.Env == nil {
					e.Env = map[string]string{}
				}
				e.Env[name] = v
			}
			words, hasValue = []string{"-e", name}, false
		}
		if !hasValue && seen[name] {
			continue
		}
		seen[name] = seen[name] || !hasValue
		head = append(head, words...)
	}
	e.Args = append(head, e.Args[end:]...)
}

// checkValues refuses values asks does not take (a key none has, a value
// outside the choices), then names the required ones missing.
func checkValues(server string, asks []Ask, values map[string]string) error {
	keys := make([]string, len(asks))
	for i, a := range asks {
		keys[i] = a.Key
	}
	for _, k := range slices.Sorted(maps.Keys(values)) {
		if !slices.Contains(keys, k) {
			return &ValueError{Server: server, Key: k, Keys: keys}
		}
	}
	var missing []Ask
	for _, a := range asks {
		v := values[a.Key]
		switch {
		case v == "" && a.Required && a.Default == "":
			missing = append(missing, a)
		case v != "" && !a.Secret && len(a.Choices) > 0 && !slices.Contains(a.Choices, v):
			// A secret's value is its keyring reference by now.
			return &ValueError{Server: server, Key: a.Key, Value: v, Choices: a.Choices}
		}
	}
	if len(missing) > 0 {
		return &MissingError{Asks: missing}
	}
	return nil
}

// MissingError is the required values not given (each an Ask without a
// default); it matches ErrMissing. Its text gives no advice: each door
// says how to give them (the CLI's --set, the window's fields).
type MissingError struct{ Asks []Ask }

func (e *MissingError) Error() string {
	var parts []string
	for _, a := range e.Asks {
		parts = append(parts, a.Field())
	}
	return fmt.Sprintf("%v: %s", ErrMissing, strings.Join(parts, ", "))
}

func (e *MissingError) Unwrap() error { return ErrMissing }

// Field names a as a person reads it: its key, kind and description
// ("db_type (variable: Type of database)").
func (a Ask) Field() string {
	if a.Description == "" {
		return fmt.Sprintf("%s (%s)", a.Key, a.Kind)
	}
	return fmt.Sprintf("%s (%s: %s)", a.Key, a.Kind, a.Description)
}

// ValueError is a value the server.json does not take: a key none of its
// asks has (Keys lists those it has), or a value outside an ask's
// Choices. It matches ErrInvalidValue.
type ValueError struct {
	Server, Key, Value string
	Keys               []string // the keys it takes, when Key is none of them
	Choices            []string // the choices, when Value is none of them
}

func (e *ValueError) Error() string {
	if e.Choices != nil {
		return fmt.Sprintf("%s=%s: %q is not one of its choices (%s)", e.Key, e.Value, e.Value, strings.Join(e.Choices, ", "))
	}
	if len(e.Keys) == 0 {
		return fmt.Sprintf("%q is not a value %s takes (it takes none)", e.Key, e.Server)
	}
	return fmt.Sprintf("%q is not a value %s takes (it takes %s)", e.Key, e.Server, strings.Join(e.Keys, ", "))
}

func (e *ValueError) Unwrap() error { return ErrInvalidValue }

// ReferenceError is a ${secret:…} or ${env:…} reference in a server.json
// field; it matches config.ErrForeignReference.
type ReferenceError struct {
	Field string // JSON path in server.json: "remotes[0].headers[1].value"
	Ref   string // "${secret:OTHER}"
}

func (e *ReferenceError) Error() string {
	return fmt.Sprintf("server.json %s: %s %v, so Switchboard did not add it: ask its publisher to use a {variable} you fill in instead", e.Field, e.Ref, config.ErrForeignReference)
}

func (e *ReferenceError) Unwrap() error { return config.ErrForeignReference }

// builder makes one entry, keeping the first reference the document put in.
type builder struct {
	values  map[string]string // the user's, opaque
	err     error
	imageAt int // an OCI package's: where its image is in the arguments (docker's options before it)
}

// checked notes the first reference in v, naming field.
func (b *builder) checked(v, field string) string {
	if ref := config.Reference(v); ref != "" && b.err == nil {
		b.err = &ReferenceError{Field: field, Ref: ref}
	}
	return v
}

// fill replaces the {variables} of text, the template at field of the
// object at owner. A reference that only a variable's default brings is
// named by that default.
func (b *builder) fill(text string, vars map[string]Input, field, owner string) string {
	out := braceRE.ReplaceAllStringFunc(text, func(m string) string {
		k := m[1 : len(m)-1]
		in, declared := vars[k]
		if !declared {
			return m // the spec: a {name} with no variable stays as it is
		}
		if v := b.values[k]; v != "" {
			return v
		}
		if in.Default != "" {
			return in.Default
		}
		return m
	})
	if ref := config.Reference(out); ref != "" && config.Reference(text) != ref {
		for _, k := range slices.Sorted(maps.Keys(vars)) {
			if v := b.values[k]; (v == "" || v == vars[k].Default) && config.Reference(vars[k].Default) == ref {
				field = owner + ".variables." + k + ".default"
				break
			}
		}
	}
	return b.checked(out, field)
}

// given is the value given for key and the field a reference in it names:
// only the document's default or one of its choices, sent back by the form,
// can hold one (the user's own values are opaque).
func (b *builder) given(key, def, at string) (v, field string) {
	v = b.values[key]
	if v == def {
		return v, at + ".default"
	}
	return v, at + ".choices"
}

// value is a header's or environment variable's value; at is its path.
func (b *builder) value(kv KeyValue, at string) string {
	if kv.Value != "" {
		return b.fill(kv.Value, kv.Variables, at+".value", at)
	}
	if v, field := b.given(kv.Name, kv.Default, at); v != "" {
		return b.checked(v, field)
	}
	return b.checked(kv.Default, at+".default")
}

// args are a package's arguments; at is the list's path.
func (b *builder) args(list []Argument, at string) []string {
	var out []string
	for i, a := range list {
		out = append(out, b.arg(a, fmt.Sprintf("%s[%d]", at, i))...)
	}
	return out
}

// arg is one argument as it goes on the command line; at is its path.
// Its value is the fixed one, else the one given, else its default. Per
// server.json a named argument is "--flag value": one with no value is
// left out, never a bare flag that would take the next argument as its
// value. Only a named argument whose format is boolean is a bare flag:
// there when its value is "true", left out otherwise.
func (b *builder) arg(a Argument, at string) []string {
	v, field := a.Value, at+".value"
	if v == "" {
		v, field = b.given(argKey(a), a.Default, at)
	}
	if v == "" {
		v, field = a.Default, at+".default"
	}
	v = b.fill(v, a.Variables, field, at)
	if a.Type != "named" {
		if v == "" {
			return nil
		}
		return []string{v}
	}
	name := b.checked(a.Name, at+".name")
	switch {
	case a.Format == "boolean":
		if strings.EqualFold(v, "true") {
			return []string{name}
		}
		return nil
	case v == "":
		return nil
	}
	return []string{name, v}
}

// UnsafeError is a server.json field that would make the entry run more
// than the package it names; it matches ErrUnsafePackage.
type UnsafeError struct {
	Field string // JSON path in server.json: "packages[0].identifier"
	Value string
	Why   string // "is not an npm package name"
}

func (e *UnsafeError) Error() string {
	return fmt.Sprintf("server.json %s: %q %s, so Switchboard did not add it (%v)", e.Field, e.Value, e.Why, ErrUnsafePackage)
}

func (e *UnsafeError) Unwrap() error { return ErrUnsafePackage }

// packageNames are the shapes of a package's name per registry: no
// option, space or shell character can pass for one.
var (
	packageNames = map[string]*regexp.Regexp{
		"npm":  regexp.MustCompile(`^(@[A-Za-z0-9][A-Za-z0-9._~-]*/)?[A-Za-z0-9][A-Za-z0-9._~-]*(@[A-Za-z0-9][A-Za-z0-9._+-]*)?$`),
		"pypi": regexp.MustCompile(`^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?(==[A-Za-z0-9][A-Za-z0-9._+!-]*)?$`),
		"oci":  regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._/-]*(:[0-9]+/[A-Za-z0-9._/-]+)?(:[A-Za-z0-9_][A-Za-z0-9._-]*)?(@sha256:[a-f0-9]{64})?$`),
	}
	versionShape = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._+-]*$`)
)

// checkPackage refuses a package name or version the runner would read as
// something else (an option, a second word, a shell command).
func checkPackage(registryType, ident, version, at string) error {
	if re := packageNames[registryType]; re != nil && !re.MatchString(ident) {
		return &UnsafeError{Field: at + ".identifier", Value: ident, Why: "is not " + article(registryType) + " package name"}
	}
	if version != "" && !versionShape.MatchString(version) {
		return &UnsafeError{Field: at + ".version", Value: version, Why: "is not a version"}
	}
	return nil
}

func article(registryType string) string {
	if registryType == "oci" {
		return "an OCI image"
	}
	if registryType == "npm" {
		return "an npm"
	}
	return "a " + registryType
}

// runnerOptions are runtime arguments that make npx or uvx run other code
// than the package (a shell command, another index).
var runnerOptions = map[string][]string{
	"npm":  {"-c", "--call", "--shell", "--script-shell", "-p", "--package"},
	"pypi": {"--from", "--with", "--index-url", "-i", "--extra-index-url", "--find-links", "-f", "--default-index", "--index"},
}

// widening are docker run options that give a container this computer.
var widening = map[string]string{
	"--privileged":         "gives the container every device and capability of this computer",
	"--cap-add":            "gives the container a capability of this computer's kernel",
	"--device":             "gives the container a device of this computer",
	"--security-opt":       "turns off the container's confinement",
	"--volumes-from":       "gives the container another container's folders",
	"--device-cgroup-rule": "gives the container devices of this computer",
}

// hostNamespaces are docker run options that, set to "host" (or another
// container), put the container in this computer's namespace.
var hostNamespaces = []string{"--network", "--net", "--pid", "--ipc", "--uts", "--userns", "--cgroupns"}

// checkRuntime refuses a runtime argument (its words as they go on the
// command line) that widens what runs: a runner option that runs other
// code, a docker option that gives the container this computer, or a
// mount of a folder the document chose (one the user typed is theirs).
func checkRuntime(registryType string, words []string, at string) error {
	for i, w := range words {
		flag, val, hasVal := strings.Cut(w, "=")
		if !hasVal && i+1 < len(words) {
			val = words[i+1]
		}
		if slices.Contains(runnerOptions[registryType], flag) {
			return &UnsafeError{Field: at, Value: strings.Join(words, " "), Why: "would make the runner fetch or run other code than the package"}
		}
		if registryType != "oci" {
			continue
		}
		if why, ok := widening[flag]; ok {
			return &UnsafeError{Field: at, Value: strings.Join(words, " "), Why: why}
		}
		if slices.Contains(hostNamespaces, flag) && (val == "host" || strings.HasPrefix(val, "container:")) {
			return &UnsafeError{Field: at, Value: strings.Join(words, " "), Why: "puts the container in this computer's " + strings.TrimPrefix(flag, "--") + " namespace"}
		}
		if (flag == "-v" || flag == "--volume" || flag == "--mount") && !usersMount(flag, val) {
			return &UnsafeError{Field: at, Value: strings.Join(words, " "), Why: "mounts a folder of this computer the server.json chose, not you"}
		}
	}
	return nil
}

// usersMount reports whether a -v or --mount value mounts a named volume
// or a folder the user typed (an opaque value), not one of the document's.
func usersMount(flag, val string) bool {
	var src string
	if flag == "--mount" {
		for _, kv := range strings.Split(val, ",") {
			k, v, _ := strings.Cut(kv, "=")
			switch k {
			case "type":
				if v != "bind" {
					return v == "volume" || v == "tmpfs"
				}
			case "src", "source":
				src = v
			}
		}
	} else {
		src, _, _ = strings.Cut(val, ":")
	}
	if src != "" && !strings.ContainsAny(src, `/\~.$`) {
		return true // a named volume
	}
	return config.IsOpaque(src) // a stand-in only ever holds what the user typed
}

func (b *builder) entry(s ServerJSON, o Option) (config.Server, error) {
	e := config.Server{Name: Name(s)}
	if r := o.Remote; r != nil {
		at := fmt.Sprintf("remotes[%d]", index(s.Remotes, r))
		e.Transport = config.HTTP
		if r.Type == "sse" {
			e.Transport = config.SSE
		}
		e.URL = b.fill(r.URL, r.Variables, at+".url", at)
		for i, h := range r.Headers {
			if v := b.value(h, fmt.Sprintf("%s.headers[%d]", at, i)); v != "" {
				if e.Headers == nil {
					e.Headers = map[string]string{}
				}
				e.Headers[h.Name] = v
			}
		}
		return e, nil
	}
	p := o.Package
	if p == nil {
		return config.Server{}, ErrUnsupported
	}
	at := fmt.Sprintf("packages[%d]", index(s.Packages, p))
	ident := b.checked(p.Identifier, at+".identifier")
	version := b.checked(p.Version, at+".version")
	e.Transport = config.Stdio
	env := map[string]string{}
	for i, kv := range p.EnvironmentVariables {
		if v := b.value(kv, fmt.Sprintf("%s.environmentVariables[%d]", at, i)); v != "" {
			env[kv.Name] = v
		}
	}
	if b.err != nil {
		return config.Server{}, b.err // a reference says more than the shape
	}
	if err := checkPackage(p.RegistryType, ident, version, at); err != nil {
		return config.Server{}, err
	}
	var runtime []string
	for i, a := range p.RuntimeArguments {
		at := fmt.Sprintf("%s.runtimeArguments[%d]", at, i)
		arg := b.arg(a, at)
		words := arg
		if len(arg) == 0 && a.Name != "" {
			words = []string{a.Name} // left out, but a document asking for it is refused all the same
		}
		if err := checkRuntime(p.RegistryType, words, at); err != nil {
			return config.Server{}, err
		}
		runtime = append(runtime, arg...)
	}
	switch p.RegistryType {
	case "npm":
		e.Command = "npx"
		e.Args = append(append([]string{"-y"}, runtime...), pinned(ident, "@", version))
	case "pypi":
		e.Command = "uvx"
		e.Args = append(runtime, pinned(ident, "==", version))
	case "oci":
		e.Command = "docker"
		e.Args = append([]string{"run", "-i", "--rm"}, runtime...)
		for _, kv := range p.EnvironmentVariables {
			if _, ok := env[kv.Name]; ok {
				e.Args = append(e.Args, "-e", kv.Name) // docker passes the entry's env on
			}
		}
		b.imageAt = len(e.Args)
		e.Args = append(e.Args, image(ident, version))
	default:
		return config.Server{}, fmt.Errorf("%w: a %s package (%s)", ErrUnsupported, p.RegistryType, p.Identifier)
	}
	e.Args = append(e.Args, b.args(p.PackageArguments, at+".packageArguments")...)
	if len(env) > 0 {
		e.Env = env
	}
	return e, nil
}

// index is where p sits in list (0 when it is a copy).
func index[T any](list []T, p *T) int {
	for i := range list {
		if &list[i] == p {
			return i
		}
	}
	return 0
}

// pinned is identifier at version: a tag or version the identifier names
// itself ("pkg@latest") gives way to the version the entry pins.
func pinned(identifier, sep, version string) string {
	if version == "" || version == "latest" {
		return identifier
	}
	at := strings.LastIndex(identifier, sep)
	if sep == "@" && at > 0 || sep == "==" && at >= 0 {
		identifier = identifier[:at]
	}
	return identifier + sep + version
}

// image is an OCI reference with its tag: "IMAGE:VERSION", a tag the
// identifier carries giving way to the version; a digest, which names one
// image exactly, is kept.
func image(identifier, version string) string {
	if strings.Contains(identifier, "@sha256:") || version == "" {
		return identifier
	}
	slash := strings.LastIndex(identifier, "/")
	if colon := strings.LastIndex(identifier, ":"); colon > slash {
		identifier = identifier[:colon]
	}
	return identifier + ":" + version
}
