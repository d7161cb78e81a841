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
		at := fmt.Sprintf("%s[%d]", at, i)
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
	runtime := b.args(p.RuntimeArguments, at+".runtimeArguments")
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

// pinned is identifier at version, unless it already names one.
func pinned(identifier, sep, version string) string {
	if version == "" || version == "latest" {
		return identifier
	}
	at := strings.LastIndex(identifier, sep)
	if sep == "@" && at > 0 || sep == "==" && at >= 0 {
		return identifier
	}
	return identifier + sep + version
}

// image is an OCI reference with its tag: "IMAGE:TAG", unless the
// identifier carries a tag or digest already.
func image(identifier, version string) string {
	last := identifier[strings.LastIndex(identifier, "/")+1:]
	if strings.Contains(last, ":") || strings.Contains(identifier, "@sha256:") || version == "" {
		return identifier
	}
	return identifier + ":" + version
}
