package clients

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

var cursorFile = config.ClientFile{Path: "mcp.json", Scope: "user", Key: []string{"mcpServers"}, Style: config.StyleMCPServers}

// Taking a server out cuts the server, its comma and the comment on its
// own last line, nothing else: a commented-out server, comments on lines
// of their own (before, between, after, in an object left empty) stay;
// putting it back gives the same bytes.
func TestTakeKeepsComments(t *testing.T) {
	for _, tt := range []struct {
		name, in, take string
		keep           []string // still in the file without the server
		want           string   // the file without it
	}{
		{
			name: "commented-out server between two",
			in: `{ "mcpServers": {
    "playwright": { "command": "npx", "args": ["@playwright/mcp@latest"] },
    /* "old": { "command": "node", "args": ["old.js"] }, */
    "memory": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"] } } }
`,
			take: "playwright",
			want: `{ "mcpServers": {
    /* "old": { "command": "node", "args": ["old.js"] }, */
    "memory": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"] } } }
`,
		},
		{
			name: "the last after a comment line",
			in:   "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\"},\n    // \"b\": {\"command\": \"y\"},\n    \"c\": {\"command\": \"z\"} // c's own\n  }\n}\n",
			take: "c",
			want: "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\"}\n    // \"b\": {\"command\": \"y\"},\n  }\n}\n",
		},
		{
			name: "the only one, with comments around it",
			in:   "{\n  \"mcpServers\": {\n    // my servers\n    \"a\": {\"command\": \"x\"}, // mine\n    /* more later */\n  }\n}\n",
			take: "a",
			want: "{\n  \"mcpServers\": {\n    // my servers\n    /* more later */\n  }\n}\n",
		},
		{
			name: "the only one, nothing around it",
			in:   "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\"}\n  }\n}\n",
			take: "a",
			want: "{\n  \"mcpServers\": {}\n}\n",
		},
		{
			name: "one line",
			in:   `{"mcpServers":{"a":{"command":"x"},"b":{"command":"y"},"c":{"command":"z"}}}`,
			take: "b",
			want: `{"mcpServers":{"a":{"command":"x"},"c":{"command":"z"}}}`,
		},
		{
			name: "one line, the last",
			in:   `{"mcpServers": {"a": {"command": "x"}, "b": {"command": "y"}}}`,
			take: "b",
			want: `{"mcpServers": {"a": {"command": "x"}}}`,
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := read(t, cursorFile, []byte(tt.in))
			text := ""
			ss, _ := d.Servers()
			for _, s := range ss {
				if s.Name == tt.take {
					text = s.Text
				}
			}
			out, slot, err := d.Take(tt.take)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tt.want {
				t.Fatalf("without %s:\n%s\nwant\n%s", tt.take, out, tt.want)
			}
			back, err := read(t, cursorFile, out).Put(tt.take, text, slot)
			if err != nil || string(back) != tt.in {
				t.Errorf("put back (%v):\n%s\nwant\n%s", err, back, tt.in)
			}
			// Switchboard's entry comes and goes the same way.
			conn, err := read(t, cursorFile, out).Add(testEntry)
			if err != nil {
				t.Fatal(err)
			}
			if again, err := read(t, cursorFile, conn).Remove(EntryName, false); err != nil || string(again) != string(out) {
				t.Errorf("connect then disconnect (%v):\n%s\nwant\n%s", err, again, out)
			}
		})
	}
}

var geminiFile = config.ClientFile{Path: ".gemini/settings.json", Scope: "user", Key: []string{"mcpServers"}, Style: config.StyleMCPServers}

// Gemini CLI starts only the servers its "mcp.allowed" lists (those of
// "mcp.excluded" never): connect lists Switchboard's entry there (and
// takes it out of excluded), disconnect takes it out again; a list that
// is not one is refused by its key.
func TestGeminiAllowedList(t *testing.T) {
	for _, tt := range []struct {
		name, in  string
		connected []string // in the connected file
		err       string
	}{
		{
			name:      "mcp.allowed, one per line",
			in:        "{\n \"mcpServers\": {\n    \"github\": {\"command\": \"node\"}\n  },\n  \"mcp\": {\n    \"allowed\": [\n      \"github\"\n    ]\n  }\n}\n",
			connected: []string{"      \"github\",\n      \"switchboard\"\n    ]"},
		},
		{
			name:      "excluded too",
			in:        `{"mcpServers": {"a": {"command": "x"}}, "mcp": {"allowed": ["a"], "excluded": ["b", "switchboard"]}}`,
			connected: []string{`"allowed": ["a", "switchboard"]`, `"excluded": ["b"]`},
		},
		{
			name:      "before Gemini CLI 0.3",
			in:        `{"mcpServers": {}, "allowMCPServers": []}`,
			connected: []string{`"allowMCPServers": ["switchboard"]`},
		},
		{
			name: "no list: nothing else changes",
			in:   `{"mcpServers": {"a": {"command": "x"}}, "mcp": {"serverCommand": "x"}}`,
		},
		{
			name: "not a list",
			in:   `{"mcpServers": {}, "mcp": {"allowed": "github"}}`,
			err:  `"mcp.allowed" is a string, not a list of server names`,
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := read(t, geminiFile, []byte(tt.in))
			excluded := d.Excluded(EntryName)
			out, err := d.Add(testEntry)
			if tt.err != "" {
				if !errors.Is(err, ErrShape) || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want ErrShape naming %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.connected {
				if !strings.Contains(string(out), w) {
					t.Errorf("connected file lacks %q:\n%s", w, out)
				}
			}
			if read(t, geminiFile, out).Excluded(EntryName) {
				t.Errorf("still excluded:\n%s", out)
			}
			again, _ := read(t, geminiFile, out).Add(testEntry)
			if string(again) != string(out) {
				t.Errorf("connecting twice changed the file:\n%s", again)
			}
			back, err := read(t, geminiFile, out).Remove(EntryName, false)
			if err != nil {
				t.Fatal(err)
			}
			if excluded {
				if back, err = read(t, geminiFile, back).Exclude(EntryName); err != nil {
					t.Fatal(err)
				}
			}
			if !excluded && string(back) != tt.in || excluded && !read(t, geminiFile, back).Excluded(EntryName) {
				t.Errorf("disconnected:\n%s\nwant\n%s", back, tt.in)
			}
		})
	}
	// Only Gemini CLI's settings have such lists: another app's "mcp" is not read so.
	claude := config.ClientFile{Path: ".claude.json", Key: []string{"mcpServers"}, Style: config.StyleTyped}
	in := `{"mcpServers": {}, "mcp": {"allowed": []}}`
	if out, err := read(t, claude, []byte(in)).Add(testEntry); err != nil || strings.Contains(string(out), `["switchboard"]`) {
		t.Errorf("Claude Code's file: %v\n%s", err, out)
	}
}

// The app formats read through this package carry what changes how a
// server runs (Continue's cwd, requestOptions.headers, connectionTimeout;
// Goose's available_tools; opencode's timeout in milliseconds), name the
// keys they do not carry, and say which entries only the app can start.
func TestAppEntryFields(t *testing.T) {
	read := func(file, key string, style config.ClientStyle) map[string]Server {
		t.Helper()
		f := config.ClientFile{Path: filepath.Join("testdata", "real", file), Key: []string{key}, Style: style}
		data, err := os.ReadFile(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		d, err := Read(f, data)
		if err != nil {
			t.Fatal(err)
		}
		ss, _ := d.Servers()
		out := map[string]Server{}
		for _, s := range ss {
			out[s.Name] = s
		}
		return out
	}
	cont := read("continue.yaml", "mcpServers", config.StyleContinue)
	if s := cont["SQLite"]; s.Cwd != "/Users/me/projects/app" {
		t.Errorf("Continue's cwd: %+v", s)
	}
	if s := cont["Remote Docs"]; s.Headers["Authorization"] != "Bearer sk-FAKE-not-a-real-key-00000" {
		t.Errorf("Continue's requestOptions.headers: %+v", s)
	}
	if s := cont["Linear"]; s.StartupTimeout != time.Minute || !s.SSE {
		t.Errorf("Continue's connectionTimeout: %+v", s)
	}
	goose := read("goose-remote.yaml", "extensions", config.StyleGoose)
	if s := goose["brave"]; !slices.Equal(s.IncludeTools, []string{"brave_web_search"}) || s.AppOnly != "" {
		t.Errorf("Goose's available_tools: %+v", s)
	}
	if s := goose["developer"]; !strings.Contains(s.AppOnly, "only Goose can start") {
		t.Errorf("Goose's builtin: %+v", s)
	}
	oc := read("opencode-remote.jsonc", "mcp", config.StyleOpencode)
	if s := oc["context7"]; s.StartupTimeout != 10*time.Second {
		t.Errorf("opencode's timeout: %+v", s)
	}
	zed := read("zed.json", "context_servers", config.StyleZed)
	if s := zed["postgres-context-server"]; !strings.Contains(s.AppOnly, "only Zed can start") || !slices.Contains(s.Unmapped, "settings") {
		t.Errorf("Zed's extension server: %+v", s)
	}
	if s := zed["mcp-server-github"]; s.AppOnly != "" || len(s.Unmapped) != 0 {
		t.Errorf("Zed's custom server: %+v", s)
	}

	// Keys nobody maps are named, whatever the format.
	for _, tt := range []struct {
		file  config.ClientFile
		data  string
		want  []string
		style string
	}{
		{config.ClientFile{Path: "config.yaml", Key: []string{"mcpServers"}, Style: config.StyleContinue},
			"mcpServers:\n  - name: a\n    url: https://x.example/mcp\n    requestOptions:\n      headers: {A: b}\n      proxy: http://proxy:3128\n      verifySsl: false\n    faviconUrl: x\n", []string{"requestOptions.proxy"}, "continue"},
		{config.ClientFile{Path: "config.yaml", Key: []string{"extensions"}, Style: config.StyleGoose},
			"extensions:\n  a:\n    cmd: x\n    type: stdio\n    bundled: null\n    description: d\n    socket: /tmp/s\n", []string{"socket"}, "goose"},
		{config.ClientFile{Path: "config.toml", Key: []string{"mcp_servers"}, Style: config.StyleCodex},
			"[mcp_servers.a]\ncommand = \"x\"\nrequired = true\nenabled = true\n", []string{"required"}, "codex"},
		{config.ClientFile{Path: "opencode.json", Key: []string{"mcp"}, Style: config.StyleOpencode},
			`{"mcp": {"a": {"type": "remote", "url": "https://x", "oauth": {"clientId": "c"}}}}`, []string{"oauth"}, "opencode"},
	} {
		d, err := Read(tt.file, []byte(tt.data))
		if err != nil {
			t.Fatal(err)
		}
		ss, _ := d.Servers()
		if len(ss) != 1 || !slices.Equal(ss[0].Unmapped, tt.want) {
			t.Errorf("%s: unmapped %v, want %v", tt.style, ss, tt.want)
		}
	}
}

// The first backup is kept for good: later writes replace the .bak, never
// the .orig, which is private to the user; ScrubOriginal takes a secret
// that moved later out of it.
func TestWriteFileKeepsTheOriginal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(path, []byte("v1"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"v2", "v3"} {
		prev, _ := os.ReadFile(path)
		if err := WriteFile(path, []byte(v), prev); err != nil {
			t.Fatal(err)
		}
	}
	if b, _ := os.ReadFile(path + BackupSuffix); string(b) != "v2" {
		t.Errorf(".bak = %q, want the previous version", b)
	}
	b, err := os.ReadFile(path + OriginalSuffix)
	if err != nil || string(b) != "v1" {
		t.Fatalf(".orig = %q (%v), want the first version", b, err)
	}
	if fi, _ := os.Stat(path + OriginalSuffix); fi.Mode().Perm() != 0o600 {
		t.Errorf(".orig mode %v, want 0600", fi.Mode().Perm())
	}
	if err := ScrubOriginal(path, func(b []byte) []byte { return []byte(strings.ReplaceAll(string(b), "1", "${secret:x}")) }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path + OriginalSuffix); string(b) != "v${secret:x}" {
		t.Errorf("scrubbed .orig = %q", b)
	}
}
