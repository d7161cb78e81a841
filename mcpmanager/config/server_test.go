package config

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func parseFile(t *testing.T, name string) *File {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "parse", name))
	if err != nil {
		t.Fatal(err)
	}
	f, _ := ParseContext(context.Background(), name, data)
	if f == nil {
		t.Fatalf("%s did not parse", name)
	}
	return f
}

func TestInputs(t *testing.T) {
	f := parseFile(t, "vscode_mcp.json")
	if got := strings.Join(f.InputIDs(), ","); got != "fetch-key,github_token,perplexity-key" {
		t.Fatalf("InputIDs = %s", got)
	}
	if got := f.Servers[1].InputIDs(); len(got) != 1 || got[0] != "github_token" {
		t.Fatalf("github InputIDs = %q", got)
	}

	_, err := f.WithInputs(map[string]string{"github_token": "ghp_1"})
	var mi *MissingInputError
	if !errors.As(err, &mi) || !errors.Is(err, ErrMissingInput) {
		t.Fatalf("err = %v, want *MissingInputError", err)
	}
	if want := "the config needs a value for ${input:fetch-key}, ${input:perplexity-key}; enter it when asked, or replace the placeholder in the file"; err.Error() != want {
		t.Errorf("err = %s\nwant  %s", err, want)
	}

	all := map[string]string{"github_token": "ghp_1", "perplexity-key": "pplx", "fetch-key": "k&1"}
	g, err := f.WithInputs(all)
	if err != nil {
		t.Fatal(err)
	}
	if h := g.Servers[1].Headers["Authorization"]; h != "Bearer ghp_1" {
		t.Errorf("Authorization = %q", h)
	}
	if u := g.Servers[2].URL; u != "https://example.com/sse?key=k&1" {
		t.Errorf("url = %q", u)
	}
	if g.Entries[0].Server.Env["PERPLEXITY_API_KEY"] != "pplx" {
		t.Errorf("entries not substituted: %v", g.Entries[0].Server.Env)
	}
	// ${workspaceFolder} is VS Code's business, not an input.
	if a := g.Servers[3].Args[2]; a != "${workspaceFolder}/out" {
		t.Errorf("args[2] = %q", a)
	}
	// The original is untouched.
	if f.Servers[1].Headers["Authorization"] != "Bearer ${input:github_token}" {
		t.Error("WithInputs modified its receiver")
	}

	one := Server{Name: "x", Command: "run", Args: []string{"${input:a}", "${input:b}"}}
	_, err = one.WithInputs(map[string]string{"a": "1"})
	if err == nil || err.Error() != `server "x" needs a value for ${input:b}; enter it when asked, or replace the placeholder in the file` {
		t.Errorf("err = %v", err)
	}
}

func TestServerJSONRoundTrip(t *testing.T) {
	in := `{
		"command": "npx", "args": ["-y", "pkg"], "env": {"B": "2", "A": "1"},
		"name": "ignored-as-name", "autoApprove": ["a", "b"], "nested": {"x": [1, {"y": null}]},
		"restart": {"enabled": true, "delayMs": 250}, "defaultToolTimeout": 1500, "transport": "stdio"
	}`
	var s Server
	s.Name = "kept"
	if err := json.Unmarshal([]byte(in), &s); err != nil {
		t.Fatal(err)
	}
	if s.Name != "kept" || s.Transport != Stdio || s.ToolTimeout != 1500*time.Millisecond || s.Restart.Delay != 250*time.Millisecond {
		t.Fatalf("decoded %+v", s)
	}
	if string(s.Extra["name"]) != `"ignored-as-name"` || string(s.Extra["nested"]) != `{"x":[1,{"y":null}]}` {
		t.Fatalf("extra = %s", s.Extra)
	}
	out, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"stdio","command":"npx","args":["-y","pkg"],"env":{"A":"1","B":"2"},"restart":{"enabled":true,"delayMs":250},"defaultToolTimeout":1500,"autoApprove":["a","b"],"name":"ignored-as-name","nested":{"x":[1,{"y":null}]}}`
	if string(out) != want {
		t.Errorf("marshal:\n got %s\nwant %s", out, want)
	}
	var back Server
	if err := json.Unmarshal(out, &back); err != nil {
		t.Fatal(err)
	}
	if d := Diff(s, back); len(d) != 0 {
		t.Errorf("round trip changed %v", d)
	}

	if err := new(Server).UnmarshalJSON([]byte(" // nothing\n")); !errors.Is(err, ErrEmpty) {
		t.Errorf("empty server: %v", err)
	}
	err = json.Unmarshal([]byte(`{"args": 1}`), &back)
	var ve *ValidationError
	if !errors.As(err, &ve) || err.Error() != "1:1: needs \"command\" (stdio) or \"url\" (http/sse)\n1:10: args: must be an array of strings, got a number" {
		t.Errorf("err = %v", err)
	}
}

func TestServerValidate(t *testing.T) {
	tests := []struct {
		name string
		s    Server
		want string // "" for valid
	}{
		{"stdio", Server{Name: "m", Command: "npx"}, ""},
		{"inferred http", Server{Name: "r", URL: "https://example.com/mcp"}, ""},
		{"no name", Server{Command: "npx"}, `[""]: server name must not be empty; give the server a name`},
		{"plain http", Server{Name: "r", URL: "http://example.com"}, "r.url: uses plain http to example.com; use https:// (plain http is only allowed to localhost, 127.0.0.1 and ::1)"},
		{"bad stderr", Server{Name: "m", Command: "x", Stderr: "loud"}, `m.stderr: "loud" is not a stderr mode; use "pipe", "inherit", "ignore" or "overlapped"`},
		{"roots", Server{Name: "fs", Command: "x", Roots: []string{"/srv/a", "${env:HOME}/b"}}, ""},
		{"relative root", Server{Name: "fs", Command: "x", Roots: []string{"/srv/a", "src"}}, `fs.roots[1]: "src" is not an absolute path; write the folder's full path, e.g. /home/me/project`},
		{"whole disk as a root", Server{Name: "fs", Command: "x", Roots: []string{"/srv/a", "/"}}, `fs.roots[1]: "/" is the whole disk, which would offer the server every file on it; name the folders it needs, e.g. /home/me/project`},
		{"whole disk spelt long", Server{Name: "fs", Command: "x", Roots: []string{"/srv/.."}}, `fs.roots[0]: "/srv/.." is the whole disk, which would offer the server every file on it; name the folders it needs, e.g. /home/me/project`},
		{"dotted name", Server{Name: "a.b"}, `["a.b"]: needs "command" (stdio) or "url" (http/sse)`},
		{"transport without url", Server{Name: "s", Transport: SSE}, `s: needs "url": an SSE server is reached over the network`},
		{"env name with =", Server{Name: "m", Command: "x", Env: map[string]string{"A=B": "1"}}, `m.env["A=B"]: "A=B" is not a valid variable name: it must not contain '='; rename it`},
		{"built-in's name", Server{Name: "workspace", Command: "npx"}, `workspace: the name "workspace" is reserved for Switchboard's built-in server; choose another name`},
		{"built-in's name in other case", Server{Name: "Content-Store", URL: "https://example.com/mcp"}, `Content-Store: the name "Content-Store" is reserved for Switchboard's built-in server; choose another name`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.s.Validate()
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("unexpected %v", err)
			case tt.want != "" && (err == nil || err.Error() != tt.want):
				t.Fatalf("err = %v\nwant  %s", err, tt.want)
			case err != nil && !errors.Is(err, ErrInvalid):
				t.Fatalf("%v does not wrap ErrInvalid", err)
			}
		})
	}
}

func TestValidationErrorFormat(t *testing.T) {
	e := &ValidationError{File: "c.json", Kind: ErrInvalid, Problems: []Problem{
		{Path: "mcpServers.a.args", Line: 3, Col: 14, Severity: SeverityError, Message: "must be an array of strings"},
		{Path: "mcpServers.a.env.X", Line: 4, Col: 2, Severity: SeverityWarning, Message: "converted"},
		{Path: "mcpServers.b", Severity: SeverityError, Message: "no position"},
	}}
	want := "c.json:3:14: mcpServers.a.args: must be an array of strings\n" +
		"c.json:4:2: warning: mcpServers.a.env.X: converted\n" +
		"c.json: mcpServers.b: no position"
	if e.Error() != want {
		t.Errorf("got\n%s\nwant\n%s", e, want)
	}
	if !errors.Is(e, ErrInvalid) || errors.Is(e, ErrSyntax) {
		t.Error("Unwrap does not return the kind")
	}
	if len(e.Errors()) != 2 {
		t.Errorf("Errors() = %v", e.Errors())
	}
}

// Another app's "enabled": false is read as "disabled" and saved so: the
// server stays off, and switching it on here is not undone by the old key.
func TestEnabledFalseIsDisabled(t *testing.T) {
	f, err := ParseContext(t.Context(), "mcp.json", []byte(`{"mcpServers": {
		"off": {"command": "x", "enabled": false},
		"on": {"command": "y", "enabled": true}
	}}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Servers) != 2 || !f.Servers[0].Disabled || f.Servers[1].Disabled {
		t.Fatalf("servers = %+v", f.Servers)
	}
	out, err := json.Marshal(f.Servers[0])
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), "enabled") || !strings.Contains(string(out), `"disabled":true`) {
		t.Fatalf("saved as %s", out)
	}
}
