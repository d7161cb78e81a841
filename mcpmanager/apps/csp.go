package apps

import (
	"encoding/json"
	"net/url"
	"strings"
)

// CSP is a resource's _meta.ui.csp: the origins its app may reach.
type CSP struct {
	ConnectDomains  []string `json:"connectDomains,omitempty"`
	ResourceDomains []string `json:"resourceDomains,omitempty"`
	FrameDomains    []string `json:"frameDomains,omitempty"`
	BaseURIDomains  []string `json:"baseUriDomains,omitempty"`
}

// Permissions is a resource's _meta.ui.permissions: browser features the
// app asks for. Only these four exist; anything else a server sends is
// ignored.
type Permissions struct {
	Camera         bool `json:"camera,omitempty"`
	Microphone     bool `json:"microphone,omitempty"`
	Geolocation    bool `json:"geolocation,omitempty"`
	ClipboardWrite bool `json:"clipboardWrite,omitempty"`
}

// ResourceMeta is a resource content's _meta.ui.
type ResourceMeta struct {
	// CSP is nil when the server declared none: the spec's strict default.
	CSP           *CSP        `json:"csp,omitempty"`
	Permissions   Permissions `json:"permissions"`
	Domain        string      `json:"domain,omitempty"`
	PrefersBorder *bool       `json:"prefersBorder,omitempty"`
}

// DefaultCSP is the policy of an app whose resource declares no csp (the
// spec's "restrictive default"), plus object-src and frame-src 'none'.
const DefaultCSP = "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data:; media-src 'self' data:; connect-src 'none'; frame-src 'none'; object-src 'none'; base-uri 'self'"

// ParseMeta reads _meta.ui of one resources/read content; a malformed one
// is the strict default.
func ParseMeta(meta map[string]any) ResourceMeta {
	var out ResourceMeta
	ui, ok := meta["ui"]
	if !ok {
		return out
	}
	var raw struct {
		CSP           *CSP           `json:"csp"`
		Permissions   map[string]any `json:"permissions"`
		Domain        string         `json:"domain"`
		PrefersBorder *bool          `json:"prefersBorder"`
	}
	b, err := json.Marshal(ui)
	if err != nil || json.Unmarshal(b, &raw) != nil {
		return out
	}
	out.CSP, out.Domain, out.PrefersBorder = raw.CSP, raw.Domain, raw.PrefersBorder
	_, out.Permissions.Camera = raw.Permissions["camera"]
	_, out.Permissions.Microphone = raw.Permissions["microphone"]
	_, out.Permissions.Geolocation = raw.Permissions["geolocation"]
	_, out.Permissions.ClipboardWrite = raw.Permissions["clipboardWrite"]
	if out.CSP != nil {
		c := CSP{
			ConnectDomains:  sources(out.CSP.ConnectDomains),
			ResourceDomains: sources(out.CSP.ResourceDomains),
			FrameDomains:    sources(out.CSP.FrameDomains),
			BaseURIDomains:  sources(out.CSP.BaseURIDomains),
		}
		out.CSP = &c
	}
	return out
}

// sources keeps the entries that are plain origins (scheme://host[:port],
// host may start with "*."), so a server cannot smuggle a keyword
// ('unsafe-eval'), a second directive (";") or a scheme-wide source
// ("https:") into the policy.
func sources(in []string) []string {
	var out []string
	for _, s := range in {
		if ok := validSource(s); ok {
			out = append(out, strings.TrimRight(s, "/"))
		}
	}
	return out
}

func validSource(s string) bool {
	if s == "" || strings.ContainsAny(s, " \t\r\n;,'\"") {
		return false
	}
	u, err := url.Parse(strings.Replace(s, "://*.", "://wildcard.", 1))
	if err != nil || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" || (u.Path != "" && u.Path != "/") {
		return false
	}
	switch u.Scheme {
	case "http", "https", "ws", "wss":
		return !strings.Contains(u.Hostname(), "*")
	}
	return false
}

// Header is the Content-Security-Policy the app's document runs under: the
// spec's construction from the declared domains, or DefaultCSP when the
// resource declares none. Nothing beyond the declared origins is allowed.
func (m ResourceMeta) Header() string {
	c := m.CSP
	if c == nil {
		return DefaultCSP
	}
	join := func(base string, domains []string, none string) string {
		parts := []string{}
		if base != "" {
			parts = append(parts, base)
		}
		parts = append(parts, domains...)
		if len(parts) == 0 {
			return none
		}
		return strings.Join(parts, " ")
	}
	res := c.ResourceDomains
	d := []string{
		"default-src 'none'",
		"script-src " + join("'self' 'unsafe-inline'", res, ""),
		"style-src " + join("'self' 'unsafe-inline'", res, ""),
		"connect-src " + join("", c.ConnectDomains, "'none'"),
		"img-src " + join("'self' data:", res, ""),
		"font-src " + join("'self'", res, ""),
		"media-src " + join("'self' data:", res, ""),
		"frame-src " + join("", c.FrameDomains, "'none'"),
		"object-src 'none'",
		"base-uri " + join("", c.BaseURIDomains, "'self'"),
	}
	return strings.Join(d, "; ")
}

// Allow is the iframe allow attribute (Permissions Policy) for the
// features the resource asked for, and only those.
func (p Permissions) Allow() string {
	var out []string
	if p.Camera {
		out = append(out, "camera")
	}
	if p.Microphone {
		out = append(out, "microphone")
	}
	if p.Geolocation {
		out = append(out, "geolocation")
	}
	if p.ClipboardWrite {
		out = append(out, "clipboard-write")
	}
	return strings.Join(out, "; ")
}
