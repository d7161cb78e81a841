package cli

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
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
		// One value each: a second --set of a key would silently win over the first.
		{[]string{"io.github.example/time-py", "--set", "timezone=Europe/Paris", "--set", "timezone=UTC"}, ExitUsage, "timezone is given twice"},
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

// TestRegistryAddTheSpecsExamples: what 'registry add' makes of the
// server.json spec's examples, and the exit status of each refusal (2:
// the user's or the publisher's to change).
func TestRegistryAddTheSpecsExamples(t *testing.T) {
	reg, err := mcpregistrytest.Start(t.Context(), 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range mcpregistrytest.Examples {
		reg.AddMeta(e.Doc, e.Meta)
	}
	reg.Add(strings.Replace(mcpregistrytest.SpecDatabaseNetwork, "io.github.example/database-manager", "io.github.example/hostnet", 1))
	files := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("not the bundle")) }))
	t.Cleanup(files.Close)
	reg.Add(`{"name": "io.github.example/badsha", "description": "d", "version": "1.0.0",
		"packages": [{"registryType": "mcpb", "identifier": "` + files.URL + `/b.mcpb", "fileSha256": "` + strings.Repeat("0", 64) + `", "version": "1.0.0", "transport": {"type": "stdio"}}]}`)
	for _, owner := range []string{"alice", "bob"} {
		reg.Add(`{"name": "io.github.` + owner + `/notes", "description": "d", "version": "1.0.0",
			"packages": [{"registryType": "npm", "identifier": "@` + owner + `/notes-mcp", "version": "1.0.0", "transport": {"type": "stdio"}}]}`)
	}
	data := t.TempDir()
	db := []string{"--set", "DB_USERNAME=u", "--set", "DB_PASSWORD=x", "--set", "database_name=mydb", "--set", "db_type=postgres"}
	tests := []struct {
		args       []string
		code       int
		out, err   string // in stdout, in stderr
		notOutOrEr string
	}{
		{append([]string{"io.github.example/database-manager"}, db...), 0,
			"added database-manager: docker run -i --rm -e DB_TYPE=postgres -e DB_USERNAME -e DB_PASSWORD -e SSL_MODE example/database-manager-mcp:3.1.0 --host localhost mydb", "", "--port"},
		{[]string{"io.github.modelcontextprotocol/filesystem", "--set", "target_dir=/home/me/proj"}, 0,
			"added filesystem: npx -y @modelcontextprotocol/server-filesystem@1.0.2 /home/me/proj", "", "Desktop"},
		{[]string{"io.github.example/flags", "--set", "dir=/home/me/proj", "--set", "read-only=true"}, 0,
			"added flags: npx -y flags-mcp@1.0.0 --read-only /home/me/proj --config {config_json}", "", ""},
		{[]string{"io.modelcontextprotocol.anonymous/hybrid-mcp", "--set", "nope=1"}, ExitUsage,
			"", `"nope" is not a value io.modelcontextprotocol.anonymous/hybrid-mcp takes (it takes mode)`, ""},
		{[]string{"io.modelcontextprotocol.anonymous/hybrid-mcp", "--option", "1"}, ExitUsage,
			"", "a required value is missing: X-API-Key (header: API key for authentication); give it with --set X-API-Key=VALUE", ""},
		{[]string{"io.github.example/hostnet", "--set", "db_type=postgres"}, ExitUsage, "", "puts the container in this computer's network namespace", ""},
		{[]string{"io.github.example/badsha"}, ExitUsage, "", "its SHA-256 is", ""},
		{[]string{"io.github.example/malware"}, ExitUsage, "", "is marked deleted in the registry", ""},
		{[]string{"io.github.example/http-pkg"}, ExitUsage, "", "serves streamable-http itself", "offers no npm"},
		{[]string{"io.github.example/old-forecast"}, 0, "added old-forecast", "warning: io.github.example/old-forecast is deprecated in the registry", ""},
		{[]string{"io.github.alice/notes"}, 0, "added notes", "", ""},
		{[]string{"io.github.bob/notes"}, ExitUsage, "", "give it another name (the Name field in Details, or registry add --name NAME)", ""},
		{[]string{"io.github.bob/notes", "--name", "bob-notes"}, 0, "added bob-notes: npx -y @bob/notes-mcp@1.0.0", "", ""},
	}
	for _, tt := range tests {
		code, out, e := runIn(t, data, append([]string{"registry", "add", "--registry", reg.URL}, tt.args...)...)
		if code != tt.code || !strings.Contains(out, tt.out) || !strings.Contains(e, tt.err) || tt.notOutOrEr != "" && strings.Contains(out+e, tt.notOutOrEr) {
			t.Errorf("registry add %v: exit %d\nout %q\nerr %q\nwant %d, out %q, err %q, neither %q", tt.args, code, out, e, tt.code, tt.out, tt.err, tt.notOutOrEr)
		}
	}

	code, out, e := runIn(t, data, "registry", "search", "--registry", reg.URL, "forecast")
	if code != 0 || !strings.Contains(out, "0.9.5 (deprecated)") {
		t.Errorf("search marks a deprecated server: exit %d\n%s\n%s", code, out, e)
	}
	code, out, e = runIn(t, data, "registry", "search", "--registry", reg.URL, "filesystem")
	if code != 0 || strings.Count(out, "io.github.modelcontextprotocol/filesystem") != 1 {
		t.Errorf("search lists one version: exit %d\n%s\n%s", code, out, e)
	}
}

// TestRegistrySearchAddresses: a registry that answers only v0 is read
// through it; an address that is not a registry, or not https (nor plain
// http to this computer), says so and exits 2.
func TestRegistrySearchAddresses(t *testing.T) {
	reg, err := mcpregistrytest.Start(t.Context(), 0)
	if err != nil {
		t.Fatal(err)
	}
	reg.V0Only.Store(true)
	data := t.TempDir()
	for _, tt := range []struct {
		url  string
		code int
		says string
	}{
		{reg.URL, 0, "io.github.example/weather"},
		{reg.URL + "/nothing-here", ExitUsage, "not an MCP Registry"},
		{"ftp://x", ExitUsage, "must be an https:// URL (plain http only for this computer"},
		{"http://localhost.evil.example", ExitUsage, "plain http to localhost.evil.example is refused"},
	} {
		code, out, e := runIn(t, data, "registry", "search", "--registry", tt.url)
		if code != tt.code || !strings.Contains(out+e, tt.says) || strings.Contains(e, "internet connection") {
			t.Errorf("search --registry %s: exit %d\nout %q\nerr %q\nwant %d saying %q", tt.url, code, out, e, tt.code, tt.says)
		}
	}
	code, out, e := runIn(t, data, "registry", "add", "--registry", reg.URL, "io.github.example/weather", "--set", "WEATHER_API_KEY=k")
	if code != 0 || !strings.Contains(out, "added weather") {
		t.Errorf("add from a v0 registry: exit %d\n%s\n%s", code, out, e)
	}
}
