package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// OAuth is a remote server's "oauth" entry: the client Switchboard was
// registered as with the server's authorization server, for servers that
// refuse dynamic registration (MCP calls it pre-registration), and how the
// login talks to it. Every key is optional; without the entry the app
// registers itself.
//
//	"oauth": {"clientId": "switchboard", "clientSecret": "${secret:linear_OAUTH_CLIENT_SECRET}",
//	          "redirectPort": 8765, "scopes": ["read", "write"]}
//
// The secret lives in the OS keyring: the entry holds a ${secret:NAME}
// reference, expanded at start like every other value (a plaintext one is
// moved to the keyring on import and kept out of exports). "callbackPort"
// (Claude Code's) is read as the redirect URI Claude Code sends,
// "redirectUri": "http://localhost:PORT/callback", since authorization
// servers compare it exactly. Keys this package does not know (Gemini
// CLI's "authorizationUrl", ...) are kept in Extra and written back.
type OAuth struct {
	ClientID     string
	ClientSecret string
	// RedirectPort is the loopback port of the redirect URI
	// (http://127.0.0.1:PORT/callback), for a client registered with one
	// fixed redirect URI; 0 picks a free one. With RedirectURI, its port.
	RedirectPort int
	// RedirectURI ("redirectUri") is the whole redirect URI registered for
	// the client, sent exactly as written: http, a loopback host
	// (localhost, 127.0.0.1, [::1]) and a port. Written instead of
	// redirectPort.
	RedirectURI string
	// Scopes are asked for besides those the server's challenge names.
	Scopes []string
	// NoResource ("resource": false) leaves out the RFC 8707 resource
	// parameter, for authorization servers that refuse it (Microsoft
	// Entra ID v2).
	NoResource bool
	// ClientMetadataURL ("clientMetadataUrl") is the https URL of a client
	// ID metadata document describing Switchboard, offered as its client
	// ID to authorization servers that accept them.
	ClientMetadataURL string
	Extra             map[string]json.RawMessage
}

// oauthKeys are the options "oauth" takes, in the order they are written.
var oauthKeys = []string{"clientId", "clientSecret", "redirectPort", "redirectUri", "scopes", "resource", "clientMetadataUrl"}

// Clone returns a deep copy.
func (o *OAuth) Clone() *OAuth {
	if o == nil {
		return nil
	}
	c := *o
	c.Scopes = slices.Clone(o.Scopes)
	if o.Extra != nil {
		c.Extra = make(map[string]json.RawMessage, len(o.Extra))
		for k, v := range o.Extra {
			c.Extra[k] = bytes.Clone(v)
		}
	}
	return &c
}

// MarshalJSON writes the keys that are set, then Extra's sorted.
func (o OAuth) MarshalJSON() ([]byte, error) {
	return marshalObject([]objectKey{
		{"clientId", o.ClientID != "", o.ClientID},
		{"clientSecret", o.ClientSecret != "", o.ClientSecret},
		{"redirectPort", o.RedirectPort != 0 && o.RedirectURI == "", o.RedirectPort},
		{"redirectUri", o.RedirectURI != "", o.RedirectURI},
		{"scopes", len(o.Scopes) > 0, o.Scopes},
		{"resource", o.NoResource, false},
		{"clientMetadataUrl", o.ClientMetadataURL != "", o.ClientMetadataURL},
	}, o.Extra, func(k string) bool { return slices.Contains(oauthKeys, k) || k == "callbackPort" })
}

// oauthJSON shows an oauth entry in a diff, its secret masked; "" when
// there is none.
func oauthJSON(o *OAuth) string {
	if o == nil {
		return ""
	}
	c := o.Clone()
	if c.ClientSecret != "" && Reference(c.ClientSecret) != c.ClientSecret {
		c.ClientSecret = "(set)"
	}
	b, _ := c.MarshalJSON()
	return string(b)
}

// oauth reads a server's "oauth" object.
func (c *checker) oauth(path string, n *node) *OAuth {
	if n.kind != kindObject {
		c.add(SeverityError, path, n, `must be an object like {"clientId": "...", "clientSecret": "${secret:NAME}", "redirectPort": 8765, "scopes": ["read"]}, got %s`, n.kind.article())
		return nil
	}
	o := &OAuth{}
	var secretNode *node
	var redirects []string // the redirect keys given, in order
	for _, m := range n.members {
		p, v := pathKey(path, m.key), m.val
		if v.kind == kindNull {
			continue
		}
		switch m.key {
		case "clientId":
			o.ClientID = c.str(p, v)
			if v.kind == kindString && strings.TrimSpace(o.ClientID) == "" {
				c.add(SeverityError, p, v, "must not be empty; give the client ID the authorization server issued, or remove the key to let Switchboard register itself")
			}
		case "clientSecret":
			secretNode = v
			o.ClientSecret = c.str(p, v)
			if v.kind == kindString && o.ClientSecret == "" {
				c.add(SeverityError, p, v, `must not be empty; give the secret as a reference like "${secret:NAME}", or remove the key for a public client`)
			}
		case "redirectPort", "callbackPort", "redirectUri":
			if redirects = append(redirects, m.key); len(redirects) > 1 {
				if slices.Contains(redirects, "redirectUri") {
					c.add(SeverityError, p, v, `only one of "redirectUri", "redirectPort" and "callbackPort" may be set; keep "redirectUri"`)
				} else {
					c.add(SeverityError, p, v, `only one of "redirectPort" and "callbackPort" may be set; keep "redirectPort"`)
				}
			}
			c.redirect(p, m.key, v, o)
		case "resource":
			if v.kind != kindBool {
				c.add(SeverityError, p, v, `must be true or false, got %s; false leaves out the resource parameter, for authorization servers that refuse it (Microsoft Entra ID)`, v.kind.article())
			}
			o.NoResource = v.kind == kindBool && v.text == "false"
		case "clientMetadataUrl":
			o.ClientMetadataURL = c.str(p, v)
			if u, err := url.Parse(o.ClientMetadataURL); v.kind == kindString && (err != nil || u.Scheme != "https" || u.Host == "" || strings.Trim(u.Path, "/") == "") {
				c.add(SeverityError, p, v, "%q is not an https URL with a path; give the URL of the client ID metadata document that describes Switchboard", o.ClientMetadataURL)
			}
		case "scopes":
			o.Scopes = c.strList(p, v)
			for i, e := range v.elems {
				switch t := e.text; {
				case e.kind != kindString:
				case strings.TrimSpace(t) == "":
					c.add(SeverityError, pathIndex(p, i), e, "must not be empty; give a scope such as \"read\"")
				case strings.ContainsAny(t, " \t\n"):
					c.add(SeverityError, pathIndex(p, i), e, "%q holds a space; give each scope as its own string, e.g. [\"read\", \"write\"]", t)
				}
			}
		default:
			if o.Extra == nil {
				o.Extra = map[string]json.RawMessage{}
			}
			o.Extra[m.key] = c.doc.raw(v)
			c.addAt(SeverityWarning, p, m.off, `unknown oauth option is ignored (Switchboard finds the authorization server itself); the options are "clientId", "clientSecret", "redirectPort", "redirectUri", "scopes", "resource" and "clientMetadataUrl"`)
		}
	}
	if o.ClientSecret != "" && o.ClientID == "" {
		c.add(SeverityError, pathKey(path, "clientSecret"), secretNode, `needs "clientId": a client secret belongs to the client the authorization server registered`)
	}
	return o
}

// redirect reads a redirect key: "redirectPort" (on 127.0.0.1),
// "callbackPort" (Claude Code's, which sends http://localhost:PORT/callback)
// or a whole "redirectUri".
func (c *checker) redirect(p, key string, v *node, o *OAuth) {
	if key == "redirectUri" {
		o.RedirectURI = c.str(p, v)
		if v.kind != kindString {
			return
		}
		o.RedirectPort = loopbackPort(o.RedirectURI)
		if o.RedirectPort == 0 {
			c.add(SeverityError, p, v, "%q is not a loopback redirect URI; use http://localhost:PORT/callback or http://127.0.0.1:PORT/callback with the port registered for Switchboard", o.RedirectURI)
		}
		return
	}
	f, ok := c.number(p, v)
	if !ok {
		return
	}
	if f < 1 || f > 65535 || f != math.Trunc(f) {
		c.add(SeverityError, p, v, "%s is not a port number; use a whole number from 1 to 65535 (the port of the redirect URI registered for Switchboard)", v.text)
		return
	}
	o.RedirectPort, o.RedirectURI = int(f), ""
	if key == "callbackPort" {
		o.RedirectURI = fmt.Sprintf("http://localhost:%d/callback", o.RedirectPort)
	}
}

// loopbackPort is the port of a loopback redirect URI (http, localhost,
// 127.0.0.1 or [::1], an explicit port, no query or fragment), 0 when
// raw is none.
func loopbackPort(raw string) int {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "http" || u.RawQuery != "" || u.Fragment != "" {
		return 0
	}
	switch h := u.Hostname(); h {
	case "localhost", "127.0.0.1", "::1":
	default:
		return 0
	}
	port, err := strconv.Atoi(u.Port())
	if err != nil || port < 1 || port > 65535 {
		return 0
	}
	return port
}
