package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/mcpregistry"
	"github.com/switchboard-app/switchboard/mcpmanager/mcpregistry/mcpregistrytest"
)

func TestRegistrySearchAndAdd(t *testing.T) {
	old := mcpregistry.PageLimit
	t.Cleanup(func() { mcpregistry.PageLimit = old })
	mcpregistry.PageLimit = 3
	reg, err := mcpregistrytest.Start(t.Context(), 5)
	if err != nil {
		t.Fatal(err)
	}
	data := t.TempDir()

	code, out, e := runIn(t, data, "registry", "search", "--registry", reg.URL, "--all")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, e)
	}
	for _, want := range []string{"io.github.example/weather", "1.4.2", "npm", "com.example/tickets", "remote", "io.github.example/filler-5"} {
		if !strings.Contains(out, want) {
			t.Errorf("search --all lacks %q:\n%s", want, out)
		}
	}
	code, out, e = runIn(t, data, "registry", "search", "--registry", reg.URL)
	if code != 0 || strings.Contains(out, "filler-5") || !strings.Contains(e, "more servers: run again with --all") {
		t.Errorf("one page: exit %d\n%s\n%s", code, out, e)
	}

	tests := []struct {
		args []string
		code int
		says string // in stdout, or stderr when it fails
	}{
		{[]string{"io.github.example/weather", "--set", "WEATHER_API_KEY=wk-SECRET-1"}, 0, "added weather: npx -y @example/weather-mcp@1.4.2 --units metric"},
		{[]string{"io.github.example/time-py", "--set", "timezone=Europe/Paris"}, 0, "added time-py: uvx --python 3.12 mcp-server-time==0.6.2 --local-timezone Europe/Paris"},
		{[]string{"io.github.example/github-oci", "--set", "GITHUB_PERSONAL_ACCESS_TOKEN=ghp-SECRET-2"}, 0, "added github-oci: docker run -i --rm -e GITHUB_PERSONAL_ACCESS_TOKEN ghcr.io/example/github-mcp-server:0.5.0 stdio"},
		{[]string{"com.example/tickets", "--set", "tenant=acme", "--set", "api_token=tk-SECRET-3"}, 0, "added tickets: https://acme.tickets.example.com/mcp"},
		{[]string{"io.github.example/filler-1"}, 0, "added filler-1"},
		{[]string{"io.github.example/weather"}, ExitUsage, `a server with that name already exists: "weather"`},
		{[]string{"io.github.example/nope"}, ExitUsage, "no server of that name"},
	}
	for _, tt := range tests {
		code, out, e := runIn(t, data, append([]string{"registry", "add", "--registry", reg.URL}, tt.args...)...)
		got := out
		if tt.code != 0 {
			got = e
		}
		if code != tt.code || !strings.Contains(got, tt.says) {
			t.Errorf("registry add %v: exit %d, out %q, err %q; want %d saying %q", tt.args, code, out, e, tt.code, tt.says)
		}
	}
	raw, err := os.ReadFile(filepath.Join(data, "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"wk-SECRET-1", "ghp-SECRET-2", "tk-SECRET-3"} {
		if strings.Contains(string(raw), secret) {
			t.Errorf("config.json holds %s", secret)
		}
	}
	var cfg struct {
		MCPServers map[string]struct {
			Env     map[string]string `json:"env"`
			Headers map[string]string `json:"headers"`
		} `json:"mcpServers"`
	}
	json.Unmarshal(raw, &cfg)
	if v := cfg.MCPServers["weather"].Env["WEATHER_API_KEY"]; !strings.HasPrefix(v, "${secret:") {
		t.Errorf("weather's key is %q, want a keyring reference", v)
	}
	if v := cfg.MCPServers["tickets"].Headers["Authorization"]; !strings.HasPrefix(v, "Bearer ${secret:") {
		t.Errorf("tickets' Authorization is %q", v)
	}

	// The registry down: the cached listing, and how old it is.
	reg.Down.Store(true)
	code, out, e = runIn(t, data, "registry", "search", "--registry", reg.URL)
	if code != 0 || !strings.Contains(out, "io.github.example/weather") || !strings.Contains(e, "The MCP Registry at "+reg.URL+" is not working right now (it answered HTTP 503): try again later. Showing the listing fetched ") {
		t.Errorf("registry down: exit %d\n%s\n%s", code, out, e)
	}
}
