package mcpmanager

import (
	"maps"
	"os"
	"path/filepath"
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

// TestFromConfigChecksFinalHeaders: a header still holding a ${…} after
// substitution (a VS Code input given no value, a ${VAR} written straight
// into config.json) stops the server with a sentence naming the header and
// the fix, instead of going to the server as the literal placeholder.
func TestFromConfigChecksFinalHeaders(t *testing.T) {
	cases := []struct {
		headers map[string]string
		want    string // StartError; "" = starts
	}{
		{map[string]string{"Authorization": "Bearer abc", "X-Note": "cost: $5 {per} call"}, ""},
		{map[string]string{"X-Api-Key": "${input:api-key}"}, `r: header X-Api-Key still holds ${input:api-key}, which nothing fills in: give it a value (--set api-key=VALUE on the command line, or import the server again and enter it), or write the value as ${secret:NAME} in "headers"`},
		{map[string]string{"Authorization": "Bearer ${GITHUB_TOKEN}"}, `r: header Authorization still holds ${GITHUB_TOKEN}, which nothing fills in: write it ${env:GITHUB_TOKEN} (an environment variable) or ${secret:GITHUB_TOKEN} (the keyring: 'switchboard secrets set GITHUB_TOKEN') in "headers"`},
		{map[string]string{"Authorization": "Bearer ${{ secrets.TOKEN }}"}, `r: header Authorization still holds ${{ secrets.TOKEN }}, which nothing fills in: write it ${env:NAME}`},
	}
	for _, c := range cases {
		for _, tr := range []config.Transport{config.HTTP, config.SSE} {
			sc := FromConfig(config.Server{Name: "r", Transport: tr, URL: "https://x.example/mcp", Headers: c.headers})
			if (c.want == "") != (sc.StartError == "") || !strings.HasPrefix(sc.StartError, c.want) {
				t.Errorf("%s %v: start error %q, want %q", tr, c.headers, sc.StartError, c.want)
			}
		}
	}
}

// An envFile that cannot be read, or is not an absolute path, keeps the
// server from starting with a sentence that says which and what to do;
// one that can gives its variables under the entry's own.
func TestSpecsEnvFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, ".env")
	if err := os.WriteFile(good, []byte("A=from file\nB=from file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	same := func(s string) (string, error) { return s, nil }
	for _, c := range []struct {
		envFile, startError string
		env                 map[string]string
	}{
		{good, "", map[string]string{"A": "from file", "B": "own"}},
		{filepath.Join(dir, "missing.env"), `s: envFile ` + filepath.Join(dir, "missing.env") + `: stat`, nil},
		{".env", `s: envFile ".env" is not an absolute path; write the file's full path`, nil},
	} {
		got := Specs([]config.Server{{Name: "s", Transport: config.Stdio, Command: "x", Env: map[string]string{"B": "own"}, EnvFile: c.envFile}}, same)[0]
		if !strings.HasPrefix(got.StartError, c.startError) || (c.startError == "") != (got.StartError == "") {
			t.Errorf("%s: StartError %q, want %q", c.envFile, got.StartError, c.startError)
		}
		if c.env != nil && !maps.Equal(got.Env, c.env) {
			t.Errorf("%s: env %q, want %q", c.envFile, got.Env, c.env)
		}
	}
}
