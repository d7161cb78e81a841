package app

import (
	"fmt"
	"strings"

	"github.com/switchboard-app/switchboard/app/host"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// OAuthView is a remote server's "oauth" entry as the OAuth client form
// under Details edits it.
type OAuthView struct {
	ClientID string `json:"clientId"`
	// ClientSecret is a new secret typed in the form ("" keeps the stored
	// one, see HasSecret); it is never sent to the window.
	ClientSecret string `json:"clientSecret"`
	// HasSecret: the entry holds a client secret (a ${secret:...} in the
	// keyring, or plaintext kept by choice).
	HasSecret bool `json:"hasSecret"`
	// RemoveSecret drops the stored secret (the client became public).
	RemoveSecret bool     `json:"removeSecret"`
	RedirectPort int      `json:"redirectPort"` // 0: any free port
	Scopes       []string `json:"scopes"`
	// Remote is false for a local server, which does not log in.
	Remote bool `json:"remote"`
}

// ServerOAuth returns a configured server's OAuth client settings.
func (a *ServersPage) ServerOAuth(name string) (OAuthView, error) {
	s, ok := a.h.Servers.Get(name)
	if !ok {
		return OAuthView{}, fmt.Errorf("no server named %q (built-in servers need no login)", name)
	}
	v := OAuthView{Scopes: []string{}, Remote: s.Transport != config.Stdio}
	if o := s.OAuth; o != nil {
		v.ClientID, v.HasSecret, v.RedirectPort = o.ClientID, o.ClientSecret != "", o.RedirectPort
		v.Scopes = append(v.Scopes, o.Scopes...)
	}
	return v, nil
}

// SetServerOAuth saves a server's OAuth client settings (all empty removes
// the entry: Switchboard then registers itself); a new secret goes to the
// keyring. A problem comes back naming its JSON path.
func (a *ServersPage) SetServerOAuth(name string, v OAuthView) error {
	var scopes []string
	for _, s := range v.Scopes {
		if s = strings.TrimSpace(s); s != "" {
			scopes = append(scopes, s)
		}
	}
	e := host.OAuthEdit{Secret: v.ClientSecret, KeepSecret: !v.RemoveSecret}
	keepsSecret := v.ClientSecret != "" || v.HasSecret && !v.RemoveSecret
	if id := strings.TrimSpace(v.ClientID); id != "" || keepsSecret || v.RedirectPort != 0 || len(scopes) > 0 {
		e.OAuth = &config.OAuth{ClientID: id, RedirectPort: v.RedirectPort, Scopes: scopes}
	}
	return a.h.Servers.SetOAuth(name, e)
}
