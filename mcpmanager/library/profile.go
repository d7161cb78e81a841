package library

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// Override is what a profile changes in a server: URL and Args replace the
// server's, Env and Headers are merged over its own (an empty value removes
// the key).
type Override struct {
	URL     string            `json:"url,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
}

// ProfilesOf reads a server's "profiles" object: profile name → override.
func ProfilesOf(s config.Server) (map[string]Override, error) {
	raw, ok := s.Extra[ProfilesKey]
	if !ok {
		return nil, nil
	}
	var ps map[string]Override
	if err := json.Unmarshal(raw, &ps); err != nil {
		return nil, &FieldError{Path: serverPath(s.Name, ProfilesKey), Err: fmt.Errorf("%w: %v; it must be an object like {\"work\": {\"url\": \"https://...\"}}", ErrBadMetadata, err)}
	}
	return ps, nil
}

// SetProfile stores (or, with the zero Override, removes) one profile of a
// server, after checking the server is valid with it applied.
func SetProfile(s *config.Server, profile string, o Override) error {
	if profile == "" {
		return &FieldError{Path: serverPath(s.Name, ProfilesKey), Err: fmt.Errorf("%w: a profile needs a name, such as work or home", ErrBadMetadata)}
	}
	ps, err := ProfilesOf(*s)
	if err != nil {
		return err
	}
	if ps == nil {
		ps = map[string]Override{}
	}
	if o.URL == "" && o.Args == nil && len(o.Env) == 0 && len(o.Headers) == 0 {
		delete(ps, profile)
	} else {
		ps[profile] = o
	}
	next := s.Clone()
	if err := setExtra(&next, ProfilesKey, ps, len(ps) == 0); err != nil {
		return err
	}
	if _, err := ApplyProfile(next, profile); err != nil {
		return err
	}
	*s = next
	return nil
}

// ApplyProfile returns the server as it runs under profile. A server without
// that profile runs as it is.
func ApplyProfile(s config.Server, profile string) (config.Server, error) {
	out := s.Clone()
	if profile == "" {
		return out, nil
	}
	ps, err := ProfilesOf(s)
	if err != nil {
		return out, err
	}
	o, ok := ps[profile]
	if !ok {
		return out, nil
	}
	if o.URL != "" {
		if out.Transport == config.Stdio || out.Transport == "" {
			return out, &FieldError{Path: serverPath(s.Name, ProfilesKey) + "." + profile + ".url", Err: fmt.Errorf("%w: %s runs a command, so a profile cannot give it a url; change its args or env instead", ErrBadMetadata, s.Name)}
		}
		out.URL = o.URL
	}
	if o.Args != nil {
		out.Args = slices.Clone(o.Args)
	}
	out.Env = merge(out.Env, o.Env)
	out.Headers = merge(out.Headers, o.Headers)
	if err := out.Validate(); err != nil {
		return out, &FieldError{Path: serverPath(s.Name, ProfilesKey) + "." + profile, Err: fmt.Errorf("%w: with this profile the server is not valid: %v", ErrBadMetadata, err)}
	}
	return out, nil
}

func merge(base, over map[string]string) map[string]string {
	if len(over) == 0 {
		return base
	}
	out := maps.Clone(base)
	if out == nil {
		out = map[string]string{}
	}
	for k, v := range over {
		if v == "" {
			delete(out, k)
			continue
		}
		out[k] = v
	}
	return out
}

// Profiles lists every profile name any server declares, sorted.
func Profiles(servers []config.Server) []string {
	var out []string
	for _, s := range servers {
		ps, _ := ProfilesOf(s)
		for n := range ps {
			if !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	slices.Sort(out)
	return out
}

// Prepare returns the servers to run under profile ("" for none): entries
// that are templates are left out, and every other server gets the
// profile's overrides. A server whose override is invalid comes back as
// written with its problem, by name: the caller shows the problem instead of
// running it against the wrong environment.
func Prepare(servers []config.Server, profile string) ([]config.Server, map[string]error) {
	out := make([]config.Server, 0, len(servers))
	var problems map[string]error
	for _, s := range servers {
		if _, ok := TemplateOf(s); ok {
			continue
		}
		p, err := ApplyProfile(s, profile)
		if err != nil {
			if problems == nil {
				problems = map[string]error{}
			}
			problems[s.Name] = err
			p = s.Clone()
		}
		out = append(out, p)
	}
	return out, problems
}

// settingsSection is the section of config.json's settings this package
// owns: {"library": {"profile": "work"}}.
var settingsSection = config.Section[settings]{Key: "library"}

type settings struct {
	Profile string `json:"profile,omitempty"`
}

// ActiveProfile reads the chosen profile from config.json's settings (""
// when none; "" and the problem when the section is malformed).
func ActiveProfile(raw json.RawMessage) (string, error) {
	s, err := settingsSection.From(raw)
	return s.Profile, err
}

// WithProfile returns settings with the active profile set to name ("" for
// none); the other sections are kept byte for byte. A profile no server
// declares is refused, so a typo cannot silently switch nothing.
func WithProfile(raw json.RawMessage, servers []config.Server, name string) (json.RawMessage, error) {
	if name != "" && !slices.Contains(Profiles(servers), name) {
		return nil, fmt.Errorf("%w: %q; add it to a server first (its \"profiles\" key), or pick one of %v", ErrUnknownProfile, name, Profiles(servers))
	}
	cfg := config.Config{Settings: raw}
	err := settingsSection.Put(&cfg, settings{Profile: name})
	return cfg.Settings, err
}
