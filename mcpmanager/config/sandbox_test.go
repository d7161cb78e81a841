package config

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestSandboxParse(t *testing.T) {
	for _, c := range []struct {
		name     string
		entry    string
		want     *Sandbox
		problems []string // "path: message" of each problem, in order
	}{
		{"true", `{"command": "x", "sandbox": true}`, &Sandbox{}, nil},
		{"false", `{"command": "x", "sandbox": false}`, nil, nil},
		{"object", `{"command": "x", "sandbox": {"network": true, "allowRead": ["~/notes", "${env:HOME}/a"], "allowWrite": ["/srv/data"], "roots": "read"}}`,
			&Sandbox{Network: true, AllowRead: []string{"~/notes", "${env:HOME}/a"}, AllowWrite: []string{"/srv/data"}, Roots: "read"}, nil},
		// Every spelling of the home, or of what holds it, is "~".
		{"home spelled otherwise", `{"command": "x", "sandbox": {"allowWrite": ["~/", "~/.", "~/..", "/..", "~/notes/../.."]}}`, &Sandbox{AllowWrite: []string{"~/", "~/.", "~/..", "/..", "~/notes/../.."}},
			[]string{
				`mcpServers.fs.sandbox.allowWrite[0]: "~/" would open everything the sandbox hides; name the folders the server needs, e.g. ~/notes`,
				`mcpServers.fs.sandbox.allowWrite[1]: "~/." would open everything the sandbox hides; name the folders the server needs, e.g. ~/notes`,
				`mcpServers.fs.sandbox.allowWrite[2]: "~/.." would open everything the sandbox hides; name the folders the server needs, e.g. ~/notes`,
				`mcpServers.fs.sandbox.allowWrite[3]: "/.." would open everything the sandbox hides; name the folders the server needs, e.g. ~/notes`,
				`mcpServers.fs.sandbox.allowWrite[4]: "~/notes/../.." would open everything the sandbox hides; name the folders the server needs, e.g. ~/notes`,
			}},
		{"relative path", `{"command": "x", "sandbox": {"allowRead": ["/ok", "notes"]}}`, &Sandbox{AllowRead: []string{"/ok", "notes"}},
			[]string{`mcpServers.fs.sandbox.allowRead[1]: "notes" is not an absolute path; write the folder's full path, e.g. /home/me/notes or ~/notes`}},
		{"everything", `{"command": "x", "sandbox": {"allowWrite": ["~"]}}`, &Sandbox{AllowWrite: []string{"~"}},
			[]string{`mcpServers.fs.sandbox.allowWrite[0]: "~" would open everything the sandbox hides; name the folders the server needs, e.g. ~/notes`}},
		{"not a list", `{"command": "x", "sandbox": {"allowWrite": "/srv"}}`, &Sandbox{},
			[]string{`mcpServers.fs.sandbox.allowWrite: must be an array of strings, got a string`}},
		{"bad network", `{"command": "x", "sandbox": {"network": "yes"}}`, &Sandbox{},
			[]string{`mcpServers.fs.sandbox.network: must be true or false, got a string`}},
		{"bad roots", `{"command": "x", "sandbox": {"roots": "all"}}`, &Sandbox{Roots: "all"},
			[]string{`mcpServers.fs.sandbox.roots: "all" is not a roots mode; use "read", "write" or "none"`}},
		{"wrong type", `{"command": "x", "sandbox": "on"}`, nil,
			[]string{`mcpServers.fs.sandbox: must be true, false or an object like {"network": false, "allowRead": ["~/notes"], "allowWrite": ["/srv/data"]}, got a string`}},
		{"unknown option", `{"command": "x", "sandbox": {"net": true}}`, &Sandbox{},
			[]string{`mcpServers.fs.sandbox.net: unknown sandbox option is ignored; the options are "network", "allowRead", "allowWrite" and "roots"`}},
		// VS Code's sandbox settings, as its mcp.json writes them.
		{"VS Code, on", `{"command": "x", "sandboxEnabled": true}`, &Sandbox{}, nil},
		{"VS Code, its settings", `{"command": "x", "sandboxEnabled": true, "sandbox": {"filesystem": {"allowWrite": ["/srv/data", "${workspaceFolder}"], "denyRead": ["~/.ssh"]}, "network": {"allowedDomains": ["api.example.com"], "deniedDomains": ["x.com"]}}}`,
			&Sandbox{Network: true, AllowWrite: []string{"/srv/data", "${workspaceFolder}"}},
			[]string{
				`mcpServers.fs.sandbox.filesystem.denyRead: is ignored: Switchboard's sandbox shows the server nothing of yours but its roots and what allowRead names, and lets it write only where allowWrite says`,
				`mcpServers.fs.sandbox.network.allowedDomains: lets the server onto the whole network: Switchboard's sandbox does not filter by domain; remove the domains to keep it off the network`,
				`mcpServers.fs.sandbox.network.deniedDomains: is ignored: Switchboard reads "filesystem.allowWrite" and "network.allowedDomains" of VS Code's sandbox settings`,
			}},
		{"VS Code, no domains", `{"command": "x", "sandboxEnabled": true, "sandbox": {"network": {"allowedDomains": []}}}`, &Sandbox{}, nil},
		{"VS Code, off", `{"command": "x", "sandboxEnabled": false, "sandbox": {"network": {"allowedDomains": ["a.com"]}}}`, nil,
			[]string{`mcpServers.fs.sandbox: is ignored: VS Code's sandbox settings apply only with "sandboxEnabled": true, as in VS Code; add it to run the server in a sandbox`}},
		{"VS Code settings without the switch", `{"command": "x", "sandbox": {"filesystem": {"allowWrite": ["/srv"]}}}`, nil,
			[]string{`mcpServers.fs.sandbox: is ignored: VS Code's sandbox settings apply only with "sandboxEnabled": true, as in VS Code; add it to run the server in a sandbox`}},
		{"VS Code, bad switch", `{"command": "x", "sandboxEnabled": "yes"}`, nil,
			[]string{`mcpServers.fs.sandboxEnabled: must be true or false, got a string`}},
		{"remote", `{"url": "https://example.com/mcp", "sandbox": true}`, &Sandbox{},
			[]string{`mcpServers.fs.sandbox: is ignored: only a local (stdio) server runs in a sandbox; remove it`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, _ := ParseContext(context.Background(), "c.json", []byte(`{"mcpServers": {"fs": `+c.entry+`}}`))
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
			if s := f.Entries[0].Server.Sandbox; !reflect.DeepEqual(s, c.want) {
				t.Errorf("Sandbox = %+v, want %+v", s, c.want)
			}
		})
	}
}

func TestSandboxRoundTrip(t *testing.T) {
	for _, c := range []struct {
		in, want string
	}{
		{`{"command":"x","sandbox":true}`, `{"type":"stdio","command":"x","sandbox":true}`},
		{`{"command":"x","sandbox":{}}`, `{"type":"stdio","command":"x","sandbox":true}`},
		{`{"command":"x","sandbox":{"roots":"read"}}`, `{"type":"stdio","command":"x","sandbox":true}`},
		{`{"command":"x","sandbox":{"roots":"write"}}`, `{"type":"stdio","command":"x","sandbox":{"roots":"write"}}`},
		{`{"command":"x","sandbox":false}`, `{"type":"stdio","command":"x"}`},
		{`{"command":"x","sandbox":{"allowWrite":["/srv"],"network":true,"roots":"none"}}`, `{"type":"stdio","command":"x","sandbox":{"network":true,"allowWrite":["/srv"],"roots":"none"}}`},
		// VS Code's settings are written as Switchboard's, its switch not kept.
		{`{"command":"x","sandboxEnabled":true,"sandbox":{"filesystem":{"allowWrite":["/srv"]},"network":{"allowedDomains":["a.com"]}}}`, `{"type":"stdio","command":"x","sandbox":{"network":true,"allowWrite":["/srv"]}}`},
		{`{"command":"x","sandboxEnabled":false}`, `{"type":"stdio","command":"x"}`},
	} {
		var s Server
		if err := json.Unmarshal([]byte(c.in), &s); err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		out, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if string(out) != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.in, out, c.want)
		}
		clone := s.Clone()
		if s.Sandbox != nil {
			if clone.Sandbox == s.Sandbox {
				t.Errorf("Clone shares the sandbox")
			}
			if len(s.Sandbox.AllowWrite) > 0 {
				clone.Sandbox.AllowWrite[0] = "/changed"
				if strings.Contains(string(must(json.Marshal(s))), "/changed") {
					t.Errorf("Clone shares allowWrite")
				}
			}
		}
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
