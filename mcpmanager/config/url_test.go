package config

import (
	"errors"
	"strings"
	"testing"
)

// TestCheckURL: the URL rules hold for the final URL, whatever was
// substituted into it; a placeholder left in it is refused.
func TestCheckURL(t *testing.T) {
	cases := []struct {
		url  string
		t    Transport
		want string // "" = allowed
	}{
		{"https://example.com/mcp", HTTP, ""},
		{"http://127.0.0.1:8080/mcp", HTTP, ""},
		{"http://localhost/mcp", SSE, ""},
		{"http://[::1]:9/mcp", HTTP, ""},
		{"wss://example.com/ws", WebSocket, ""},
		{"HTTPS://EXAMPLE.COM/mcp", HTTP, ""},
		// What ${env:…} or a template may have substituted in:
		{"http://169.254.169.254/latest/meta-data", HTTP, "url http://169.254.169.254 uses plain http to 169.254.169.254"},
		{"http://example.com/mcp?key=s3cret", HTTP, "url http://example.com uses plain http"},
		{"ftp://example.com/mcp", HTTP, `scheme "ftp" is not supported`},
		{"example.com/mcp", HTTP, "has no scheme"},
		{"https:///mcp", HTTP, "has no host"},
		{"ws://example.com/ws", WebSocket, "uses plain ws"},
		{"https://exa mple.com/", HTTP, "is not a valid URL"},
		// Placeholders never filled in:
		{"https://{{host}}/mcp", HTTP, "still holds the placeholder {{host}}"},
		{"http://{{ host }}.example.com/mcp", HTTP, "still holds the placeholder {{ host }}"},
		{"https://example.com/mcp?token=${secret:api}", HTTP, "still holds the placeholder ${secret:api}"},
		{"${env:MCP_URL}", HTTP, "still holds the placeholder ${env:MCP_URL}"},
	}
	for _, c := range cases {
		t.Run(c.url, func(t *testing.T) {
			err := CheckURL(c.url, c.t)
			if c.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var ue *URLError
			if !errors.Is(err, ErrURL) || !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err %v, want a *URLError containing %q", err, c.want)
			}
			if strings.Contains(err.Error(), "s3cret") {
				t.Errorf("the error shows the query: %v", err)
			}
		})
	}
}

// TestCheckURLAsWritten: a file's placeholders are still skipped where they
// may supply the missing parts, and reported where they cannot help.
func TestCheckURLAsWritten(t *testing.T) {
	cases := []struct {
		url  string
		want string // "" = no problem
	}{
		{"${env:MCP_URL}", ""},
		{"https://{{host}}/mcp", ""},
		{"http://{{host}}/mcp", ""},
		{"https://${env:HOST}/mcp", ""},
		{"http://10.0.0.1/${env:PATH}", "uses plain http to 10.0.0.1"},
		{"ftp://example.com/${env:P}", `scheme "ftp" is not supported`},
		{"http://10.0.0.1/mcp", "uses plain http to 10.0.0.1"},
	}
	for _, c := range cases {
		t.Run(c.url, func(t *testing.T) {
			err := Server{Name: "s", Transport: HTTP, URL: c.url}.Validate()
			if (err == nil) != (c.want == "") || err != nil && !strings.Contains(err.Error(), c.want) {
				t.Errorf("Validate: %v, want %q", err, c.want)
			}
		})
	}
}
