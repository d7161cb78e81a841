package config

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestOAuthParse(t *testing.T) {
	const url = `"url": "https://example.com/mcp"`
	for _, c := range []struct {
		name     string
		entry    string
		want     *OAuth
		problems []string // "path: message" of each problem, in order
	}{
		{"every option", `{` + url + `, "oauth": {"clientId": "sb", "clientSecret": "${secret:gh_OAUTH_CLIENT_SECRET}", "redirectPort": 8765, "scopes": ["read", "write"]}}`,
			&OAuth{ClientID: "sb", ClientSecret: "${secret:gh_OAUTH_CLIENT_SECRET}", RedirectPort: 8765, Scopes: []string{"read", "write"}}, nil},
		{"Claude Code's callbackPort: the localhost URI it sends", `{` + url + `, "oauth": {"clientId": "sb", "callbackPort": 8080}}`,
			&OAuth{ClientID: "sb", RedirectPort: 8080, RedirectURI: "http://localhost:8080/callback"}, nil},
		{"redirectUri", `{` + url + `, "oauth": {"redirectUri": "http://localhost:3118/oauth/callback"}}`,
			&OAuth{RedirectPort: 3118, RedirectURI: "http://localhost:3118/oauth/callback"}, nil},
		{"redirectUri off this machine", `{` + url + `, "oauth": {"redirectUri": "https://example.com/callback"}}`, &OAuth{RedirectURI: "https://example.com/callback"},
			[]string{`mcpServers.gh.oauth.redirectUri: "https://example.com/callback" is not a loopback redirect URI; use http://localhost:PORT/callback or http://127.0.0.1:PORT/callback with the port registered for Switchboard`}},
		{"redirectUri and a port", `{` + url + `, "oauth": {"redirectUri": "http://127.0.0.1:1/cb", "redirectPort": 2}}`, &OAuth{RedirectPort: 2},
			[]string{`mcpServers.gh.oauth.redirectPort: only one of "redirectUri", "redirectPort" and "callbackPort" may be set; keep "redirectUri"`}},
		{"resource turned off", `{` + url + `, "oauth": {"resource": false}}`, &OAuth{NoResource: true}, nil},
		{"resource as text", `{` + url + `, "oauth": {"resource": "no"}}`, &OAuth{},
			[]string{`mcpServers.gh.oauth.resource: must be true or false, got a string; false leaves out the resource parameter, for authorization servers that refuse it (Microsoft Entra ID)`}},
		{"client ID metadata document", `{` + url + `, "oauth": {"clientMetadataUrl": "https://sb.example/client.json"}}`, &OAuth{ClientMetadataURL: "https://sb.example/client.json"}, nil},
		{"client ID metadata document over http", `{` + url + `, "oauth": {"clientMetadataUrl": "http://sb.example/client.json"}}`, &OAuth{ClientMetadataURL: "http://sb.example/client.json"},
			[]string{`mcpServers.gh.oauth.clientMetadataUrl: "http://sb.example/client.json" is not an https URL with a path; give the URL of the client ID metadata document that describes Switchboard`}},
		{"scopes alone", `{` + url + `, "oauth": {"scopes": ["read"]}}`, &OAuth{Scopes: []string{"read"}}, nil},
		{"not an object", `{` + url + `, "oauth": "yes"}`, nil,
			[]string{`mcpServers.gh.oauth: must be an object like {"clientId": "...", "clientSecret": "${secret:NAME}", "redirectPort": 8765, "scopes": ["read"]}, got a string`}},
		{"empty client ID", `{` + url + `, "oauth": {"clientId": " "}}`, &OAuth{ClientID: " "},
			[]string{`mcpServers.gh.oauth.clientId: must not be empty; give the client ID the authorization server issued, or remove the key to let Switchboard register itself`}},
		{"secret without a client", `{` + url + `, "oauth": {"clientSecret": "${secret:x}"}}`, &OAuth{ClientSecret: "${secret:x}"},
			[]string{`mcpServers.gh.oauth.clientSecret: needs "clientId": a client secret belongs to the client the authorization server registered`}},
		{"port out of range", `{` + url + `, "oauth": {"redirectPort": 70000}}`, &OAuth{},
			[]string{`mcpServers.gh.oauth.redirectPort: 70000 is not a port number; use a whole number from 1 to 65535 (the port of the redirect URI registered for Switchboard)`}},
		{"port as text", `{` + url + `, "oauth": {"redirectPort": "8765"}}`, &OAuth{},
			[]string{`mcpServers.gh.oauth.redirectPort: must be a number, got a string`}},
		{"both port spellings", `{` + url + `, "oauth": {"redirectPort": 1, "callbackPort": 2}}`, &OAuth{RedirectPort: 2, RedirectURI: "http://localhost:2/callback"},
			[]string{`mcpServers.gh.oauth.callbackPort: only one of "redirectPort" and "callbackPort" may be set; keep "redirectPort"`}},
		{"scopes as one string", `{` + url + `, "oauth": {"scopes": "read write"}}`, &OAuth{},
			[]string{`mcpServers.gh.oauth.scopes: must be an array of strings, got a string`}},
		{"a scope with a space", `{` + url + `, "oauth": {"scopes": ["read", "a b", ""]}}`, &OAuth{Scopes: []string{"read", "a b", ""}},
			[]string{
				`mcpServers.gh.oauth.scopes[1]: "a b" holds a space; give each scope as its own string, e.g. ["read", "write"]`,
				`mcpServers.gh.oauth.scopes[2]: must not be empty; give a scope such as "read"`,
			}},
		{"unknown option kept", `{` + url + `, "oauth": {"clientId": "sb", "authorizationUrl": "https://a/authorize"}}`,
			&OAuth{ClientID: "sb", Extra: map[string]json.RawMessage{"authorizationUrl": json.RawMessage(`"https://a/authorize"`)}},
			[]string{`mcpServers.gh.oauth.authorizationUrl: unknown oauth option is ignored (Switchboard finds the authorization server itself); the options are "clientId", "clientSecret", "redirectPort", "redirectUri", "scopes", "resource" and "clientMetadataUrl"`}},
		{"local server", `{"command": "x", "oauth": {"clientId": "sb"}}`, &OAuth{ClientID: "sb"},
			[]string{`mcpServers.gh.oauth: is ignored: only a remote (http/sse) server logs in with OAuth; give a local server its credentials as env values`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, _ := ParseContext(context.Background(), "c.json", []byte(`{"mcpServers": {"gh": `+c.entry+`}}`))
			if f == nil || len(f.Entries) != 1 {
				t.Fatalf("parse: %+v", f)
			}
			var got []string
			for _, p := range f.Entries[0].Problems {
				got = append(got, p.Path+": "+p.Message)
			}
			if !reflect.DeepEqual(got, c.problems) {
				t.Errorf("problems:\n got %q\nwant %q", got, c.problems)
			}
			if o := f.Entries[0].Server.OAuth; !reflect.DeepEqual(o, c.want) {
				t.Errorf("OAuth = %+v, want %+v", o, c.want)
			}
		})
	}
}

func TestOAuthRoundTrip(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"url":"https://e/mcp","oauth":{"scopes":["a"],"clientSecret":"${secret:s}","clientId":"id","redirectPort":8765}}`,
			`{"type":"http","url":"https://e/mcp","oauth":{"clientId":"id","clientSecret":"${secret:s}","redirectPort":8765,"scopes":["a"]}}`},
		{`{"url":"https://e/mcp","oauth":{"clientId":"id","callbackPort":8080}}`,
			`{"type":"http","url":"https://e/mcp","oauth":{"clientId":"id","redirectUri":"http://localhost:8080/callback"}}`},
		{`{"url":"https://e/mcp","oauth":{"clientMetadataUrl":"https://sb.example/c.json","resource":false,"redirectUri":"http://127.0.0.1:9/cb"}}`,
			`{"type":"http","url":"https://e/mcp","oauth":{"redirectUri":"http://127.0.0.1:9/cb","resource":false,"clientMetadataUrl":"https://sb.example/c.json"}}`},
		{`{"url":"https://e/mcp","oauth":{"enabled":true,"clientId":"id"}}`,
			`{"type":"http","url":"https://e/mcp","oauth":{"clientId":"id","enabled":true}}`},
		{`{"url":"https://e/mcp","oauth":{}}`, `{"type":"http","url":"https://e/mcp","oauth":{}}`},
	} {
		var s Server
		if err := json.Unmarshal([]byte(c.in), &s); err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		got, err := json.Marshal(s)
		if err != nil || string(got) != c.want {
			t.Errorf("%s\n got %s (%v)\nwant %s", c.in, got, err, c.want)
		}
		// A clone is as deep as the entry: changing it leaves s alone.
		cl := s.Clone()
		cl.OAuth.Scopes = append(cl.OAuth.Scopes, "changed")
		cl.OAuth.ClientID = "changed"
		if again, _ := json.Marshal(s); string(again) != c.want {
			t.Errorf("changing a clone changed the entry: %s", again)
		}
	}
}

func TestOAuthDiffHidesTheSecret(t *testing.T) {
	base := Server{URL: "https://e/mcp", OAuth: &OAuth{ClientID: "id", ClientSecret: "plain-one"}}
	for _, c := range []struct {
		name string
		to   *OAuth
		want string // Change.String() of each change, joined by "; "
	}{
		{"plaintext secret changed", &OAuth{ClientID: "id", ClientSecret: "plain-two"}, "oauth.clientSecret: changed"},
		{"client ID changed", &OAuth{ClientID: "other", ClientSecret: "plain-one"},
			`oauth: {"clientId":"id","clientSecret":"(set)"} → {"clientId":"other","clientSecret":"(set)"}`},
		{"moved to the keyring", &OAuth{ClientID: "id", ClientSecret: "${secret:x}"},
			`oauth: {"clientId":"id","clientSecret":"(set)"} → {"clientId":"id","clientSecret":"${secret:x}"}`},
		{"removed", nil, `oauth: removed`},
		{"the same", &OAuth{ClientID: "id", ClientSecret: "plain-one"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := base.Clone()
			b.OAuth = c.to
			var got []string
			for _, ch := range Diff(base, b) {
				got = append(got, ch.String())
			}
			if s := strings.Join(got, "; "); s != c.want || strings.Contains(s, "plain-") {
				t.Errorf("diff %q, want %q", s, c.want)
			}
		})
	}
}
