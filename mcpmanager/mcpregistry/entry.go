package mcpregistry

import (
	"fmt"
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
// once.
func Asks(s ServerJSON, o Option) []Ask {
	var out []Ask
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
func Entry(s ServerJSON, o Option, values map[string]string) (config.Server, error) {
	for _, a := range Asks(s, o) {
		if a.Required && values[a.Key] == "" && a.Default == "" {
			return config.Server{}, fmt.Errorf("%w: %s (%s %s); give it with --set %s=VALUE", ErrMissing, a.Key, a.Kind, a.Description, a.Key)
		}
	}
	fill := func(text string, vars map[string]Input) string {
		return braceRE.ReplaceAllStringFunc(text, func(m string) string {
			k := m[1 : len(m)-1]
			if v, ok := values[k]; ok && v != "" {
				return v
			}
			if d := vars[k].Default; d != "" {
				return d
			}
			return m
		})
	}
	value := func(kv KeyValue) string {
		if kv.Value != "" {
			return fill(kv.Value, kv.Variables)
		}
		if v := values[kv.Name]; v != "" {
			return v
		}
		return kv.Default
	}
	e := config.Server{Name: Name(s)}
	if r := o.Remote; r != nil {
		e.Transport = config.HTTP
		if r.Type == "sse" {
			e.Transport = config.SSE
		}
		e.URL = fill(r.URL, r.Variables)
		for _, h := range r.Headers {
			if v := value(h); v != "" {
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
	args := func(list []Argument) []string {
		var out []string
		for _, a := range list {
			v := a.Value
			if v == "" {
				v = values[argKey(a)]
			}
			if v == "" {
				v = a.Default
			}
			v = fill(v, a.Variables)
			switch {
			case a.Type == "named" && v != "":
				out = append(out, a.Name, v)
			case a.Type == "named":
				out = append(out, a.Name)
			case v != "":
				out = append(out, v)
			}
		}
		return out
	}
	e.Transport = config.Stdio
	env := map[string]string{}
	for _, kv := range p.EnvironmentVariables {
		if v := value(kv); v != "" {
			env[kv.Name] = v
		}
	}
	switch p.RegistryType {
	case "npm":
		e.Command = "npx"
		e.Args = append(append([]string{"-y"}, args(p.RuntimeArguments)...), pinned(p.Identifier, "@", p.Version))
	case "pypi":
		e.Command = "uvx"
		e.Args = append(args(p.RuntimeArguments), pinned(p.Identifier, "==", p.Version))
	case "oci":
		e.Command = "docker"
		e.Args = append([]string{"run", "-i", "--rm"}, args(p.RuntimeArguments)...)
		for _, kv := range p.EnvironmentVariables {
			if _, ok := env[kv.Name]; ok {
				e.Args = append(e.Args, "-e", kv.Name) // docker passes the entry's env on
			}
		}
		e.Args = append(e.Args, image(p.Identifier, p.Version))
	default:
		return config.Server{}, fmt.Errorf("%w: a %s package (%s)", ErrUnsupported, p.RegistryType, p.Identifier)
	}
	e.Args = append(e.Args, args(p.PackageArguments)...)
	if len(env) > 0 {
		e.Env = env
	}
	return e, nil
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
