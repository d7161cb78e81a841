package host

import (
	"errors"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

func TestSetSandbox(t *testing.T) {
	h := open(t)
	data := `{"mcpServers": {"fs": {"command": "/bin/true"}, "remote": {"url": "https://example.com/mcp"}}}`
	if _, err := h.Servers.Import(t.Context(), ImportRequest{Name: "c.json", Data: []byte(data)}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		server string
		sb     *config.Sandbox
		want   *config.Sandbox // what config.json holds afterwards
		err    string
	}{
		{"on", "fs", &config.Sandbox{}, &config.Sandbox{}, ""},
		{"settings", "fs", &config.Sandbox{Network: true, AllowWrite: []string{"/srv"}, Roots: "read"}, &config.Sandbox{Network: true, AllowWrite: []string{"/srv"}, Roots: "read"}, ""},
		{"a relative folder names its JSON path", "fs", &config.Sandbox{AllowRead: []string{"notes"}}, &config.Sandbox{Network: true, AllowWrite: []string{"/srv"}, Roots: "read"},
			`fs.sandbox.allowRead[0]: "notes" is not an absolute path`},
		{"off", "fs", nil, nil, ""},
		{"remote", "remote", &config.Sandbox{}, nil, "only a local (stdio) server runs in a sandbox"},
		{"unknown", "nope", &config.Sandbox{}, nil, `no server named "nope"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := h.Servers.SetSandbox(c.server, c.sb)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err = %v, want %q", err, c.err)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			s, ok := h.Servers.Get(c.server)
			if ok && showSandbox(s.Sandbox) != showSandbox(c.want) {
				t.Errorf("config.json holds %s, want %s", showSandbox(s.Sandbox), showSandbox(c.want))
			}
		})
	}
	var ve *config.ValidationError
	if err := h.Servers.SetSandbox("fs", &config.Sandbox{AllowWrite: []string{"~"}}); !errors.As(err, &ve) {
		t.Errorf("err = %v, want a *config.ValidationError", err)
	}
}

func TestImportSandboxed(t *testing.T) {
	h := open(t)
	data := `{"mcpServers": {"a": {"command": "/bin/true"}, "b": {"command": "/bin/true", "sandbox": {"network": true}}, "r": {"url": "https://example.com/mcp"}}}`
	if _, err := h.Servers.Import(t.Context(), ImportRequest{Name: "c.json", Data: []byte(data), Sandbox: true}); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"a": "true", "b": `{"network":true}`, "r": ""} {
		s, _ := h.Servers.Get(name)
		if got := showSandbox(s.Sandbox); got != want {
			t.Errorf("%s: sandbox %s, want %s", name, got, want)
		}
	}
}

func showSandbox(s *config.Sandbox) string {
	if s == nil {
		return ""
	}
	b, _ := s.MarshalJSON()
	return string(b)
}
