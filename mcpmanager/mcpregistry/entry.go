package mcpregistry

import (
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
func Options(s ServerJSON) []Option {
	var out []Option
	for i := range s.Packages {
		p := &s.Packages[i]
		switch p.RegistryType {
		case "npm", "pypi", "oci", "mcpb":
		default:
			continue
		}
		if p.Transport.Type != "" && p.Transport.Type != "stdio" {
			continue // a package that serves HTTP itself: not started here
		}
		out = append(out, Option{Label: strings.TrimSpace(p.RegistryType + " " + p.Identifier + " " + p.Version), Package: p})
	}
	for i := range s.Remotes {
		r := &s.Remotes[i]
		if r.Type != "streamable-http" && r.Type != "sse" {
			continue
		}
		out = append(out, Option{Label: "remote " + r.Type + " " + r.URL, Remote: r})
	}
	return out
}

// Ask is a value the user is asked for before the server is added.
type Ask struct {
	Key         string   `json:"key"`  // the variable, environment variable or header name
	Kind        string   `json:"kind"` // env, header or variable
	Description string   `json:"description"`
	Required    bool     `json:"required"`
	Secret      bool     `json:"secret"`
	Default     string   `json:"default"`
	Choices     []string `json:"choices"`
}

var braceRE = regexp.MustCompile(`\{([A-Za-z0-9_.-]+)\}`)

// Asks lists what option o of s needs from the user, in order, each key
// once; none is an empty list, not nil (the window maps over it).
func Asks(s ServerJSON, o Option) []Ask {
	out := []Ask{}
	seen := map[string]bool{}
	add := func(a Ask) {
		if seen[a.Key] {
			return
		}
		seen[a.Key] = true
		if a.Choices == nil {
			a.Choices = []string{}
		}
		out = append(out, a)
	}
	vars := func(in Input) {
		for _, m := range braceRE.FindAllStringSubmatch(in.Value, -1) {
			v := in.Variables[m[1]]
			add(Ask{Key: m[1], Kind: "variable", Description: v.Description, Required: v.IsRequired || !hasDefault(v), Secret: v.IsSecret, Default: v.Default, Choices: v.Choices})
		}
	}
	if p := o.Package; p != nil {
		for _, a := range append(slices.Clone(p.RuntimeArguments), p.PackageArguments...) {
			if a.Value == "" && a.IsRequired && a.Default == "" {
				add(Ask{Key: argKey(a), Kind: "variable", Description: a.Description, Required: true, Secret: a.IsSecret, Choices: a.Choices})
			}
			vars(a.Input)
		}
		for _, e := range p.EnvironmentVariables {
			add(Ask{Key: e.Name, Kind: "env", Description: e.Description, Required: e.IsRequired, Secret: e.IsSecret, Default: e.Default, Choices: e.Choices})
			vars(e.Input)
		}
		for _, h := range p.Transport.Headers {
			vars(h.Input)
		}
	}
	if r := o.Remote; r != nil {
		for _, m := range braceRE.FindAllStringSubmatch(r.URL, -1) {
			v := r.Variables[m[1]]
			add(Ask{Key: m[1], Kind: "variable", Description: v.Description, Required: v.IsRequired || !hasDefault(v), Secret: v.IsSecret, Default: v.Default, Choices: v.Choices})
		}
		for _, h := range r.Headers {
			if h.Value != "" && braceRE.MatchString(h.Value) {
				vars(h.Input)
				continue
			}
			if h.Value == "" {
				add(Ask{Key: h.Name, Kind: "header", Description: h.Description, Required: h.IsRequired, Secret: h.IsSecret, Default: h.Default, Choices: h.Choices})
			}
		}
	}
	return out
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
	for _, a := range asks {
		if a.Required && values[a.Key] == "" && a.Default == "" {
			return config.Server{}, fmt.Errorf("%w: %s (%s %s); give it with --set %s=VALUE", ErrMissing, a.Key, a.Kind, a.Description, a.Key)
		}
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
	return e, nil
}

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
	values map[string]string // the user's, opaque
	err    error
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
		if v, ok := b.values[k]; ok && v != "" {
			return v
		}
		if d := vars[k].Default; d != "" {
			return d
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
func (b *builder) arg(a Argument, at string) []string {
	var out []string
	{
		v, field := a.Value, at+".value"
		if v == "" {
			v, field = b.given(argKey(a), a.Default, at)
		}
		if v == "" {
			v, field = a.Default, at+".default"
		}
		v = b.fill(v, a.Variables, field, at)
		name := b.checked(a.Name, at+".name")
		switch {
		case a.Type == "named" && v != "":
			out = append(out, name, v)
		case a.Type == "named":
			out = append(out, name)
		case v != "":
			out = append(out, v)
		}
	}
	return out
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
		if err := checkRuntime(p.RegistryType, arg, at); err != nil {
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
