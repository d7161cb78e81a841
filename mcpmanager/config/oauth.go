package config

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strings"
)

// OAuth is a remote server's "oauth" entry: the client Switchboard was
// registered as with the server's authorization server, for servers that
// refuse dynamic registration (MCP calls it pre-registration). Every key is
// optional; without the entry the app registers itself.
//
//	"oauth": {"clientId": "switchboard", "clientSecret": "${secret:linear_OAUTH_CLIENT_SECRET}",
//	          "redirectPort": 8765, "scopes": ["read", "write"]}
//
// The secret lives in the OS keyring: the entry holds a ${secret:NAME}
// reference, expanded at start like every other value (a plaintext one is
// moved to the keyring on import and kept out of exports). "callbackPort"
// (Claude Code's spelling) is read as "redirectPort". Keys this package
// does not know (Gemini CLI's "authorizationUrl", ...) are kept in Extra
// and written back.
type OAuth struct {
	ClientID     string
	ClientSecret string
	// RedirectPort is the loopback port of the redirect URI
	// (http://127.0.0.1:PORT/callback), for a client registered with one
	// fixed redirect URI; 0 picks a free one.
	RedirectPort int
	// Scopes are asked for when the server's challenge names none.
	Scopes []string
	Extra  map[string]json.RawMessage
}

// oauthKeys are the options "oauth" takes, in the order they are written.
var oauthKeys = []string{"clientId", "clientSecret", "redirectPort", "scopes"}

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
		{"redirectPort", o.RedirectPort != 0, o.RedirectPort},
		{"scopes", len(o.Scopes) > 0, o.Scopes},
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
	ports := 0
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
		case "redirectPort", "callbackPort":
			if ports++; ports > 1 {
				c.add(SeverityError, p, v, `only one of "redirectPort" and "callbackPort" may be set; keep "redirectPort"`)
			}
			if f, ok := c.number(p, v); ok {
				if f < 1 || f > 65535 || f != math.Trunc(f) {
					c.add(SeverityError, p, v, "%s is not a port number; use a whole number from 1 to 65535 (the port of the redirect URI registered for Switchboard)", v.text)
				} else {
					o.RedirectPort = int(f)
				}
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
			c.addAt(SeverityWarning, p, m.off, `unknown oauth option is ignored (Switchboard finds the authorization server itself); the options are "clientId", "clientSecret", "redirectPort" and "scopes"`)
		}
	}
	if o.ClientSecret != "" && o.ClientID == "" {
		c.add(SeverityError, pathKey(path, "clientSecret"), secretNode, `needs "clientId": a client secret belongs to the client the authorization server registered`)
	}
	return o
}
