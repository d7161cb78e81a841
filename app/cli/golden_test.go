package cli

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/buildinfo"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/mcpmanager/mcpregistry"
	"github.com/switchboard-app/switchboard/mcpmanager/mcpregistry/mcpregistrytest"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
)

// update rewrites the golden files: go test ./app/cli/ -run TestJSONGolden -update
var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// TestJSONGolden holds the CLI's --json output to the files under
// testdata/golden: it is a contract scripts depend on (DESIGN.md, "CLI
// contract"), so a field that is renamed, dropped or retyped fails here
// and must be changed on purpose, with -update and a note in the README.
//
// Every listing command runs against a data dir this test prepares, with
// the repo's test servers, the fake MCP Registry and a fake model
// provider: nothing reaches the network. What differs from run to run —
// temp paths, ports, durations, the chat's id, the build's version — is
// replaced by a named placeholder in normalise, so the rest is compared
// byte for byte.
func TestJSONGolden(t *testing.T) {
	// Built before HOME moves: go build finds its cache through HOME.
	fault, modern := proctest.FaultServer(t), proctest.ModernServer(t)
	home := t.TempDir()
	// Discover looks in the home directory and the working directory:
	// a fake home with one Cursor config makes its answer the same on
	// every machine (the test's working directory, app/cli, has none).
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("APPDATA", filepath.Join(home, "AppData"))
	mustWrite(t, filepath.Join(home, ".cursor", "mcp.json"), `{"mcpServers": {"cursor-one": {"command": "uvx", "args": ["mcp-server-time"]}}}`)
	// A skill on this computer, and one whose name breaks the Agent Skills rules, loaded with a warning ('skills list').
	mustWrite(t, filepath.Join(home, ".claude", "skills", "release-notes", "SKILL.md"), "---\nname: release-notes\ndescription: Write release notes.\nlicense: MIT\n---\nGroup the changes.\n")
	mustWrite(t, filepath.Join(home, ".claude", "skills", "release-notes", "templates", "NOTES.md"), "# X.Y.Z\n")
	mustWrite(t, filepath.Join(home, ".claude", "skills", "Bad", "SKILL.md"), "---\nname: Bad\ndescription: x\n---\n")

	old := mcpregistry.PageLimit
	t.Cleanup(func() { mcpregistry.PageLimit = old })
	mcpregistry.PageLimit = 3
	reg, err := mcpregistrytest.Start(t.Context(), 5)
	if err != nil {
		t.Fatal(err)
	}
	modelsCatalog(t, tinyGGUF(t, 1<<20))
	llm := providertest.NewServer(t)
	llm.Enqueue(
		providertest.Reply{ToolCalls: []providertest.ToolCall{{ID: "c1", Name: "fault__echo", Arguments: `{"text":"golden"}`}}},
		providertest.Reply{Text: "It said golden."},
	)

	data := t.TempDir()
	// The app config: a local server with metadata and a profile, a
	// second one offering skills, a disabled sandboxed one and a disabled
	// remote one; an agent naming a server and a provider not set up.
	mustWrite(t, filepath.Join(data, "config.json"), fmt.Sprintf(`{"mcpServers": {
  "fault": {"command": %q, "metadata": {"description": "the test server", "tags": ["Test", "local"]},
    "profiles": {"work": {"args": ["--work"]}}},
  "modern": {"command": %q},
  "boxed": {"command": "boxed-server", "sandbox": {"network": true, "allowRead": ["/srv/a"]}, "disabled": true},
  "remote": {"url": "https://mcp.example.com/mcp", "disabled": true}
}, "settings": {"chat": {"agents": [{"id": "a1", "name": "Reviewer", "system": "Review the diff.", "servers": ["fault", "gone"],
  "tools": ["fault__echo"], "policies": {"fault__*": "allow"}, "delegate": true, "provider": "Removed"}]}}}`, fault, modern))
	importFile := filepath.Join(t.TempDir(), "claude_desktop_config.json")
	mustWrite(t, importFile, `{"mcpServers": {
  "fault": {"command": "other"},
  "memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"], "env": {"API_TOKEN": "sk-abcdefghijklmnop1234"}},
  "bad": {"command": "x", "args": "-y"}
}}`)
	if code, _, e := runGolden(t, data, "gt-0123456789abcdef\n", "secrets", "set", "golden-token"); code != 0 {
		t.Fatalf("secrets set: %s", e)
	}

	cases := []struct {
		name string
		args []string
		code int
	}{
		{"version", []string{"version"}, 0},
		{"servers-list", []string{"servers", "list"}, 0},
		{"servers-import-dry-run", []string{"servers", "import", importFile, "--dry-run"}, ExitUsage},
		{"servers-discover", []string{"servers", "discover"}, 0},
		{"servers-test", []string{"servers", "test", "fault"}, 0},
		{"servers-templates", []string{"servers", "templates"}, 0},
		{"servers-profile", []string{"servers", "profile"}, 0},
		{"servers-skills", []string{"servers", "skills", "modern"}, 0},
		{"tools-list", []string{"tools", "list"}, 0},
		{"tools-call", []string{"tools", "call", "fault__echo", "--args", `{"text":"golden"}`}, 0},
		{"secrets-list", []string{"secrets", "list"}, 0},
		{"registry-search", []string{"registry", "search", "--registry", reg.URL, "--all"}, 0},
		{"models-list", []string{"models", "list"}, 0},
		{"skills-list", []string{"skills", "list"}, 0},
		{"agents-list", []string{"agents", "list"}, 0},
		{"chat", []string{"chat", "--provider", "openai", "--base-url", llm.URL(provider.KindOpenAI), "--model", "m1", "--yes", "say", "golden"}, 0},
	}
	repl := []string{
		data, "<DATA>", home, "<HOME>", filepath.Dir(importFile), "<IMPORT-DIR>",
		fault, "<FAULT-SERVER>", modern, "<MODERN-SERVER>",
		reg.URL, "<REGISTRY>", llm.URL(provider.KindOpenAI), "<LLM>",
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := runGolden(t, data, "", append([]string{"--json"}, c.args...)...)
			if code != c.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, c.code, out, errOut)
			}
			got := normalise(out, repl)
			if c.name == "version" {
				// The build's own version and platform, in this command only.
				got = strings.NewReplacer(
					`"version": "`+buildinfo.String()+`"`, `"version": "<VERSION>"`,
					`"go": "`+runtime.Version()+`"`, `"go": "<GO>"`,
					`"os": "`+runtime.GOOS+`"`, `"os": "<OS>"`,
					`"arch": "`+runtime.GOARCH+`"`, `"arch": "<ARCH>"`).Replace(got)
			}
			path := filepath.Join("testdata", "golden", c.name+".json")
			if *update {
				mustWrite(t, path, got)
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to write it)", err)
			}
			if got != string(want) {
				t.Errorf("--json %s differs from %s (if on purpose: -update, and list the field in the README's CLI section)\n--- got\n%s\n--- want\n%s", strings.Join(c.args, " "), path, got, want)
			}
		})
	}
}

// volatile are the values that change from run to run, by field name:
// durations, times, the chat's and its message's ids; and the per-install
// id in a keyring secret's name (server.<id>.env.VAR).
var volatile = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`("(?:ms|totalMs|durationMs)": )[0-9.e+-]+`), `${1}0`},
	{regexp.MustCompile(`("(?:chatId|messageId)": )"[^"]*"`), `${1}"<ID>"`},
	{regexp.MustCompile(`("(?:startedAt|fetchedAt)": )"[^"]*"`), `${1}"<TIME>"`},
	{regexp.MustCompile(`("name": "server\.)[0-9a-f]{12}\.`), `${1}<ID>.`},
}

// normalise replaces what differs between runs (see volatile and the
// replacements repl, old/new pairs: temp paths and URLs with ports)
// with placeholders.
func normalise(out string, repl []string) string {
	// JSON escapes a Windows path's backslashes: replace the escaped
	// form of each value too.
	var pairs []string
	for i := 0; i < len(repl); i += 2 {
		pairs = append(pairs, strings.ReplaceAll(repl[i], `\`, `\\`), repl[i+1])
	}
	out = strings.NewReplacer(pairs...).Replace(out)
	for _, v := range volatile {
		out = v.re.ReplaceAllString(out, v.with)
	}
	return out
}

func runGolden(t *testing.T, dataDir, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(t.Context(), append([]string{"--data-dir", dataDir}, args...), Env{Stdout: &out, Stderr: &errb, Stdin: strings.NewReader(stdin)})
	return code, out.String(), errb.String()
}

func mustWrite(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}
