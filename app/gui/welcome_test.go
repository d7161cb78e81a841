package gui

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/switchboard-app/switchboard/app/datadir"
	"github.com/switchboard-app/switchboard/app/host"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// welcomeApp is a Window on a fresh data dir, with HOME holding a Claude
// Desktop config of two servers and a fake Ollama on a loopback port.
func welcomeApp(t *testing.T) (*Window, *[]recorded) {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	claude := filepath.Join(home, ".config", "Claude", "claude_desktop_config.json")
	if err := os.MkdirAll(filepath.Dir(claude), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(claude, []byte(`{"mcpServers": {"memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]}, "time": {"command": "uvx", "args": ["mcp-server-time"]}, "broken": {"args": ["server.js"]}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	ollama := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/tags" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"models":[{"name":"llama3.2:1b","model":"llama3.2:1b"}]}`))
	}))
	t.Cleanup(ollama.Close)
	t.Setenv("OLLAMA_HOST", strings.TrimPrefix(ollama.URL, "http://"))
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close() // LM Studio: nothing listens there
	old := host.LMStudioURL
	host.LMStudioURL = gone.URL + "/v1"
	t.Cleanup(func() { host.LMStudioURL = old })

	dir := datadir.Dir(t.TempDir())
	if err := dir.Ensure(); err != nil {
		t.Fatal(err)
	}
	a := New(context.Background(), dir)
	var mu sync.Mutex
	evs := &[]recorded{}
	a.emit = func(ServerView) {}
	a.emitHook = func(name string, data any) {
		mu.Lock()
		defer mu.Unlock()
		*evs = append(*evs, recorded{name, data})
	}
	a.Startup(context.Background())
	t.Cleanup(func() { a.close(context.Background()) })
	return a, evs
}

func TestWelcomeOffersWhatThisMachineHas(t *testing.T) {
	a, _ := welcomeApp(t)
	v, err := a.WelcomePage.Welcome()
	if err != nil {
		t.Fatal(err)
	}
	if !v.Show {
		t.Fatal("a data dir with no servers and no provider does not show the welcome page")
	}
	i := slices.IndexFunc(v.Configs, func(c DiscoveredConfig) bool { return c.App == "Claude Desktop" })
	if i < 0 || v.Configs[i].Servers != 2 || v.Configs[i].NeedsAttention != 1 || v.Configs[i].Summary != "3 servers, 1 needs attention" {
		t.Fatalf("configs = %+v, want Claude Desktop with 2 servers, 1 needing attention", v.Configs)
	}
	if len(v.Local) != 1 || v.Local[0].Name != "Ollama" || !slices.Equal(v.Local[0].Models, []string{"llama3.2:1b"}) || v.Local[0].Default != "llama3.2:1b" {
		t.Fatalf("local models = %+v, want only Ollama with llama3.2:1b (LM Studio is not running)", v.Local)
	}
	if v.DataDir != a.dir.String() || v.LogDir != a.dir.Logs() {
		t.Fatalf("dirs = %q, %q", v.DataDir, v.LogDir)
	}
}

func TestWelcomeShowsUntilDoneOrSetUp(t *testing.T) {
	cases := []struct {
		name string
		do   func(t *testing.T, a *Window)
		show bool
	}{
		{name: "fresh", do: func(*testing.T, *Window) {}, show: true},
		{name: "finished", do: func(t *testing.T, a *Window) {
			if err := a.WelcomePage.FinishWelcome(); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "a server configured", do: func(t *testing.T, a *Window) {
			if err := a.h.Servers.Add(config.Server{Name: "mem", Command: "npx"}); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "a provider configured", do: func(t *testing.T, a *Window) {
			if err := a.SettingsPage.SaveProvider(ProviderInput{Name: "Ollama", Kind: "ollama"}); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, _ := welcomeApp(t)
			c.do(t, a)
			v, err := a.WelcomePage.Welcome()
			if err != nil {
				t.Fatal(err)
			}
			if v.Show != c.show {
				t.Fatalf("show = %v, want %v", v.Show, c.show)
			}
		})
	}
}

func TestOpenFileIsQueuedAndAnnounced(t *testing.T) {
	a, evs := welcomeApp(t)
	raised := 0
	old := raiseWindow
	raiseWindow = func(context.Context) { raised++ }
	t.Cleanup(func() { raiseWindow = old })
	OpenFile(a, "/tmp/one.mcpb")
	SecondLaunch(a, []string{"/tmp/two.mcpb"})
	if raised != 1 {
		t.Fatalf("the window was raised %d times by one second launch", raised)
	}
	got, err := a.TakeOpenedFiles()
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"/tmp/one.mcpb", "/tmp/two.mcpb"}; !slices.Equal(got, want) {
		t.Fatalf("opened = %q, want %q", got, want)
	}
	if again, _ := a.TakeOpenedFiles(); len(again) != 0 {
		t.Fatalf("files taken twice: %q", again)
	}
	var paths []string
	for _, e := range *evs {
		if e.name == EventFileOpen {
			paths = append(paths, e.data.(FileOpen).Path)
		}
	}
	if !slices.Equal(paths, got) {
		t.Fatalf("file:open events = %q, want %q", paths, got)
	}
}

func TestAboutAndLogFolder(t *testing.T) {
	a, _ := welcomeApp(t)
	ab, err := a.About()
	if err != nil {
		t.Fatal(err)
	}
	if ab.Version == "" || ab.Licence == "" || ab.DataDir != a.dir.String() || ab.LogDir != a.dir.Logs() {
		t.Fatalf("about = %+v", ab)
	}
	// The local model runtime's licences (llama.cpp first).
	if len(ab.ThirdParty) < 2 || ab.ThirdParty[0].Name != "llama.cpp" || ab.ThirdParty[0].Licence != "MIT License" {
		t.Fatalf("about's third-party licences = %+v", ab.ThirdParty)
	}
	var opened string
	old := openFolder
	openFolder = func(dir string) error { opened = dir; return nil }
	t.Cleanup(func() { openFolder = old })
	if err := a.OpenLogFolder(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(opened); opened != a.dir.Logs() || err != nil || !fi.IsDir() {
		t.Fatalf("opened %q (%v), want the existing log folder %q", opened, err, a.dir.Logs())
	}
}

// TestDiscoveryAgrees: the welcome page, the import wizard's "found on this
// machine" list and 'servers discover' show the same configs with the same
// counts, a config with one broken entry among valid ones included.
func TestDiscoveryAgrees(t *testing.T) {
	a, _ := welcomeApp(t)
	v, err := a.WelcomePage.Welcome()
	if err != nil {
		t.Fatal(err)
	}
	wizard, err := a.ServersPage.DiscoverConfigs()
	if err != nil {
		t.Fatal(err)
	}
	var cli []config.Found
	if err := json.Unmarshal([]byte(terminal(t, a.dir, "", "--json", "servers", "discover")), &cli); err != nil {
		t.Fatal(err)
	}
	key := func(path string, servers, attn int) string { return fmt.Sprintf("%s %d+%d", path, servers, attn) }
	var w, z, c []string
	for _, d := range v.Configs {
		w = append(w, key(d.Path, d.Servers, d.NeedsAttention))
	}
	for _, d := range wizard {
		z = append(z, key(d.Path, d.Servers, d.NeedsAttention))
	}
	for _, d := range cli {
		c = append(c, key(d.Path, d.Servers, d.NeedsAttention))
	}
	if len(w) == 0 || !slices.Equal(w, z) || !slices.Equal(w, c) {
		t.Fatalf("welcome %q, wizard %q, CLI %q: want the same non-empty list", w, z, c)
	}
	if !strings.HasSuffix(w[0], " 2+1") {
		t.Fatalf("welcome %q: want the Claude config's 2 valid servers and 1 needing attention", w)
	}
	table := terminal(t, a.dir, "", "servers", "discover")
	if !strings.Contains(table, "3 servers, 1 needs attention") { // three entries, one of them broken
		t.Fatalf("servers discover:\n%s\nwant the counts in words", table)
	}
}
