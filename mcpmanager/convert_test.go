package mcpmanager

import (
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// TestFromConfigChecksFinalURL: the URL rules hold for the URL a server
// runs with, whatever a placeholder put in it; a placeholder still in it
// stops the server.
func TestFromConfigChecksFinalURL(t *testing.T) {
	cases := []struct {
		url  string
		t    config.Transport
		want string // substring of StartError; "" = starts
	}{
		{"https://x.example/mcp", config.HTTP, ""},
		{"http://127.0.0.1:8080/mcp", config.SSE, ""},
		{"http://169.254.169.254/mcp", config.HTTP, "r: url http://169.254.169.254 uses plain http to 169.254.169.254"},
		{"http://10.0.0.1/sse", config.SSE, "r: url http://10.0.0.1 uses plain http"},
		{"https://{{host}}/mcp", config.HTTP, "r: url still holds the placeholder {{host}}"},
		{"https://x.example/mcp?key=${env:KEY}", config.HTTP, "r: url still holds the placeholder ${env:KEY}"},
	}
	for _, c := range cases {
		t.Run(c.url, func(t *testing.T) {
			sc := FromConfig(config.Server{Name: "r", Transport: c.t, URL: c.url})
			if (c.want == "") != (sc.StartError == "") || !strings.Contains(sc.StartError, c.want) {
				t.Errorf("start error %q, want %q", sc.StartError, c.want)
			}
		})
	}
}
