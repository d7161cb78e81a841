package host

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// realDir holds other people's config files (sources in its README), read
// by the clients package's round-trip tests too.
const realDir = "../../mcpmanager/clients/testdata/real"

// userFile puts the content of a real file (or text) where app keeps its
// user file under a fresh HOME, and returns its path.
func userFile(t *testing.T, app, text string) string {
	t.Helper()
	a, ok := config.ClientAppNamed(app)
	if !ok {
		t.Fatalf("no app %s", app)
	}
	i := slices.IndexFunc(a.Files(clientEnv("")), func(f config.ClientFile) bool { return f.Scope == "user" && !f.ReadOnly })
	path := a.Files(clientEnv(""))[i].Path
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func realText(t *testing.T, file string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(realDir, file))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func fakeHome(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("CODEX_HOME", "")
	t.Setenv("SWITCHBOARD_COMMAND", "/usr/bin/switchboard")
}

// addMine adds the servers of an mcpServers document to h.
func addMine(t *testing.T, h *Host, text string) {
	t.Helper()
	if _, err := h.ServerFiles.Import(t.Context(), ImportRequest{Name: "mine.json", Data: []byte(text)}); err != nil {
		t.Fatal(err)
	}
}

// Connect --move then disconnect on other people's files: the dry run
// and the move agree, the servers Switchboard can run move (the others
// stay, saying why), the app will start Switchboard's entry, and
// disconnecting gives the file back byte for byte, secrets and all.
func TestClientsMoveRoundTripRealFiles(t *testing.T) {
	for _, tt := range []struct {
		app, file string
		mine      string            // servers Switchboard has already
		inputs    map[string]string // VS Code input values
		moved     []string
		stays     []string // what each "stays in the app's file" line says
		connected []string // in the connected file
	}{
		{app: "claude-desktop", file: "claude-desktop.json", moved: []string{"filesystem"}},
		{app: "cursor", file: "cursor-jsonc.json", moved: []string{"playwright", "memory"},
			connected: []string{`/* "old": { "command": "node", "args": ["old.js"] }, */`}},
		{app: "vscode", file: "vscode.json", inputs: map[string]string{"youtube_api_key": "AIzaFAKE-youtube-key-0000"}, moved: []string{"remote-mcp", "stdio-mcp"}},
		{app: "windsurf", file: "windsurf.json", moved: []string{"uLoopMCP"}},
		{app: "zed", file: "zed.json", moved: []string{"mcp-server-github", "remote-docs", "old-style"},
			stays: []string{"postgres-context-server: stays in the app's file: a Zed extension's server"}},
		{app: "gemini", file: "gemini.json", moved: []string{"github", "supabase", "openaiDeveloperDocs", "chrome-devtools", "context7"},
			connected: []string{"      \"context7\",\n      \"switchboard\"\n    ]"}},
		{app: "codex", file: "codex.toml", moved: []string{"computer-use", "node_repl", "notion", "openaiDeveloperDocs", "orch", "RepoPrompt"}},
		// Goose's builtin "memory" has the name of one of the user's servers.
		{app: "goose", file: "goose.yaml", mine: `{"mcpServers": {"memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]}}}`,
			moved: []string{"aider", "atlassian", "context7", "datadog", "fetch", "filesystem", "forevervm-mcp", "github", "playwright", "repomix", "sequential-thinking", "serena", "slack", "terraform"},
			stays: []string{"memory: stays in the app's file: one of Goose's own extensions (type builtin)"}},
		{app: "goose", file: "goose-remote.yaml", moved: []string{"github", "brave", "oldsse"}},
		// Continue's "SQLite" stays (a secret only Continue has), and has the name of one of the user's servers.
		{app: "continue", file: "continue.yaml", mine: `{"mcpServers": {"SQLite": {"command": "uvx", "args": ["mcp-server-sqlite"]}}}`,
			moved: []string{"Remote Docs", "Linear"},
			stays: []string{"SQLite: stays in the app's file: it uses ${{ secrets.SQLITE_API_KEY }}, which only the app gives a value"}},
		{app: "lmstudio", file: "lmstudio.json", moved: []string{"hf-mcp-server"}},
		{app: "opencode", file: "opencode.json", moved: []string{"atlassian-rovo", "beads", "chrome_devtools", "gitlab", "google_cloud", "google_workspace", "sauron", "slack"}},
		{app: "roo", file: "roo.json", moved: []string{"context7", "deepwiki", "wikidata", "sonarqube"}},
		{app: "kiro", file: "kiro.json", moved: []string{"rules"}},
		{app: "gemini", file: "", moved: []string{"a"}, connected: []string{`"excluded": []`}},
	} {
		t.Run(tt.app+" "+tt.file, func(t *testing.T) {
			fakeHome(t)
			h := open(t)
			text := `{"mcpServers": {"a": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"]}}, "mcp": {"excluded": ["switchboard"]}}` + "\n"
			if tt.file != "" {
				text = realText(t, tt.file)
			}
			path := userFile(t, tt.app, text)
			if tt.mine != "" {
				addMine(t, h, tt.mine)
			}
			req := ClientConnect{Name: tt.app, Move: true, Inputs: tt.inputs, DryRun: true}
			dry, err := h.Clients.Connect(t.Context(), req)
			if err != nil {
				t.Fatalf("dry run: %v", err)
			}
			req.DryRun = false
			ch, err := h.Clients.Connect(t.Context(), req)
			if err != nil {
				t.Fatalf("connect --move (the dry run said it would move %v): %v", dry.Moved, err)
			}
			if !slices.Equal(ch.Moved, tt.moved) || !slices.Equal(dry.Moved, tt.moved) {
				t.Errorf("moved %v (dry run %v), want %v", ch.Moved, dry.Moved, tt.moved)
			}
			for _, s := range tt.stays {
				if !slices.ContainsFunc(ch.Skipped, func(x string) bool { return strings.HasPrefix(x, s) }) {
					t.Errorf("skipped %q, want a line %q", ch.Skipped, s)
				}
			}
			connected, _ := os.ReadFile(path)
			for _, w := range tt.connected {
				if !strings.Contains(string(connected), w) {
					t.Errorf("the connected file lacks %q:\n%s", w, connected)
				}
			}
			back, err := h.Clients.Disconnect(t.Context(), ClientDisconnect{Name: tt.app, WithSecrets: true})
			if err != nil {
				t.Fatal(err)
			}
			if len(back.Warnings) > 0 || !slices.Equal(back.Moved, tt.moved) {
				t.Errorf("disconnect returned %v (want %v), warnings %q", back.Moved, tt.moved, back.Warnings)
			}
			if got, _ := os.ReadFile(path); string(got) != text {
				t.Errorf("after move and disconnect the file differs:\n%s", lineDiff(text, string(got)))
			}
		})
	}
}

// What an app's entry sets and Switchboard reads comes with the move:
// Continue's cwd, requestOptions.headers (to the keyring) and
// connectionTimeout, Goose's available_tools, opencode's timeout.
func TestClientsMoveCarriesAppFields(t *testing.T) {
	fakeHome(t)
	h := open(t)
	userFile(t, "continue", strings.Replace(realText(t, "continue.yaml"), "API_KEY: ${{ secrets.SQLITE_API_KEY }}", "API_KEY: ${env:SQLITE_API_KEY}", 1))
	userFile(t, "goose", realText(t, "goose-remote.yaml"))
	userFile(t, "opencode", realText(t, "opencode-remote.jsonc"))
	for _, app := range []string{"continue", "goose", "opencode"} {
		if _, err := h.Clients.Connect(t.Context(), ClientConnect{Name: app, Move: true}); err != nil {
			t.Fatalf("%s: %v", app, err)
		}
	}
	cfg, err := h.readConfig()
	if err != nil {
		t.Fatal(err)
	}
	get := func(name string) Server {
		s, ok := cfg.Lookup(name)
		if !ok {
			t.Fatalf("no server %s in %v", name, cfg.Servers)
		}
		return s
	}
	if s := get("SQLite"); s.Cwd != "/Users/me/projects/app" {
		t.Errorf("Continue's cwd: %q", s.Cwd)
	}
	if s := get("Remote Docs"); !strings.HasPrefix(s.Headers["Authorization"], "${secret:") {
		t.Errorf("Continue's requestOptions.headers: %v", s.Headers)
	}
	if s := get("Linear"); s.StartupTimeout != time.Minute {
		t.Errorf("Continue's connectionTimeout: %v", s.StartupTimeout)
	}
	if s := get("brave"); !slices.Equal(s.IncludeTools, []string{"brave_web_search"}) {
		t.Errorf("Goose's available_tools: %v", s.IncludeTools)
	}
	if s := get("context7"); s.StartupTimeout != 10*time.Second {
		t.Errorf("opencode's timeout: %v", s.StartupTimeout)
	}
}

// The import preview of an app's file says what it leaves behind: a
// line for each entry only the app can start (even when others import),
// and one for each key of an entry that Switchboard does not carry over.
func TestImportSaysWhatAppFilesLeaveOut(t *testing.T) {
	h := open(t)
	for _, tt := range []struct {
		file string
		want []string
	}{
		{"zed.json", []string{`context_servers.postgres-context-server: is left out: it is a Zed extension's server ("source": "extension"), which only Zed can start`}},
		{"goose.yaml", []string{"extensions.memory: is left out: it is one of Goose's own extensions (type builtin)", "extensions.developer: is left out"}},
		{"continue.yaml", nil},
	} {
		res, err := h.ServerFiles.Import(t.Context(), ImportRequest{Name: tt.file, Data: []byte(realText(t, tt.file)), DryRun: true})
		if err != nil {
			t.Fatalf("%s: %v", tt.file, err)
		}
		var all []string
		for _, it := range res.Plan.Items {
			for _, p := range it.Problems {
				all = append(all, p.String())
			}
		}
		for _, w := range tt.want {
			if !slices.ContainsFunc(all, func(p string) bool { return strings.Contains(p, w) }) {
				t.Errorf("%s: no line %q in %q", tt.file, w, all)
			}
		}
	}
	data := "mcpServers:\n  - name: docs\n    url: https://docs.example.com/mcp\n    requestOptions:\n      headers: {X-Team: core}\n      proxy: http://proxy.example:3128\n"
	res, err := h.ServerFiles.Import(t.Context(), ImportRequest{Name: "config.yaml", Data: []byte(data), DryRun: true})
	if err != nil || len(res.Plan.Items) != 1 {
		t.Fatalf("%v %+v", err, res.Plan)
	}
	it := res.Plan.Items[0]
	if it.Incoming.Headers["X-Team"] != "core" || !slices.ContainsFunc(it.Problems, func(p config.Problem) bool {
		return p.Path == "mcpServers.docs.requestOptions.proxy" && strings.HasPrefix(p.Message, "is not carried over")
	}) {
		t.Errorf("Continue's requestOptions: headers %v, problems %v", it.Incoming.Headers, it.Problems)
	}
}

// Moving servers that use VS Code's ${input:ID} with no value given moves
// nothing and says what the window can do (the CLI adds --set).
func TestClientsMoveNeedsInputs(t *testing.T) {
	fakeHome(t)
	h := open(t)
	path := userFile(t, "vscode", realText(t, "vscode.json"))
	_, err := h.Clients.Connect(t.Context(), ClientConnect{Name: "vscode", Move: true})
	var ie *ClientInputError
	if !errors.As(err, &ie) || !errors.Is(err, config.ErrMissingInput) || strings.Contains(err.Error(), "when asked") ||
		!strings.Contains(err.Error(), `server "stdio-mcp" needs a value for ${input:youtube_api_key}: replace the placeholder in the file`) {
		t.Fatalf("err = %v", err)
	}
	if b, _ := os.ReadFile(path); !bytes.Equal(b, []byte(realText(t, "vscode.json"))) {
		t.Error("the file changed")
	}
}

// Disconnect without the secrets leaves them empty and says so; a secret
// the keyring lost is said the same way instead of failing.
func TestClientsDisconnectWithoutSecrets(t *testing.T) {
	fakeHome(t)
	h := open(t)
	path := userFile(t, "lmstudio", realText(t, "lmstudio.json"))
	if _, err := h.Clients.Connect(t.Context(), ClientConnect{Name: "lmstudio", Move: true}); err != nil {
		t.Fatal(err)
	}
	ch, err := h.Clients.Disconnect(t.Context(), ClientDisconnect{Name: "lmstudio"})
	if err != nil || len(ch.Warnings) != 1 || !strings.Contains(ch.Warnings[0], "hf-mcp-server returned without its secret") {
		t.Fatalf("%v %q", err, ch.Warnings)
	}
	if b, _ := os.ReadFile(path); !strings.Contains(string(b), `"Authorization": ""`) {
		t.Errorf("disconnected file:\n%s", b)
	}
}

// The file as it was before Switchboard first changed it is kept (0600)
// through later changes; a secret that moves to the keyring later leaves
// that copy too.
func TestClientsKeepTheOriginalWithoutMovedSecrets(t *testing.T) {
	fakeHome(t)
	h := open(t)
	text := realText(t, "lmstudio.json")
	path := userFile(t, "lmstudio", text)
	if _, err := h.Clients.Connect(t.Context(), ClientConnect{Name: "lmstudio"}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path + ".switchboard.orig"); string(b) != text {
		t.Fatalf("the original's copy:\n%s", b)
	}
	if _, err := h.Clients.Connect(t.Context(), ClientConnect{Name: "lmstudio", Move: true}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path + ".switchboard.orig")
	if strings.Contains(string(b), "hf_FAKE") || !strings.Contains(string(b), `"Authorization": "${secret:`) {
		t.Fatalf("the original's copy after the move:\n%s", b)
	}
	if fi, err := os.Stat(path + ".switchboard.orig"); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the original's copy: %v %v", fi.Mode(), err)
	}
}
