package cli

import (
	"archive/zip"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/secrets"
	"github.com/switchboard-app/switchboard/mcpmanager/bundle"
	"github.com/switchboard-app/switchboard/mcpmanager/bundle/bundletest"
)

func TestServersInstallBundle(t *testing.T) {
	data := t.TempDir()
	path := bundletest.Pack(t, "echo-env")
	const key = "sk-cli-SECRET-7777"

	code, _, errOut := runIn(t, data, "servers", "install", path)
	if code != ExitUsage || !strings.Contains(errOut, "API key (api_key) is required: enter it in the form, or pass --set api_key=VALUE") {
		t.Fatalf("without the key: exit %d, %s", code, errOut)
	}
	code, out, errOut := runIn(t, data, "servers", "install", path, "--set", "api_key="+key, "--set", "folders=/tmp/a", "--set", "folders=/tmp/b")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "installed echo-env 1.2.0: Echo Env by Switchboard Tests") || !strings.Contains(out, "Unsigned: nobody vouches") {
		t.Errorf("out = %q", out)
	}
	code, out, errOut = runIn(t, data, "tools", "call", "echo-env__show", "--args", "{}")
	if code != 0 {
		t.Fatalf("tools call: exit %d: %s", code, errOut)
	}
	// The key shows masked (only the real value is masked so): results are
	// masked at the source like anything else a server says.
	if strings.Contains(out, key) {
		t.Errorf("the result shows the key in full: %s", out)
	}
	for _, want := range []string{secrets.Mask(key), `/tmp/a`, `/tmp/b`, `"ECHO_LIMIT":"10"`} {
		if !strings.Contains(out, want) {
			t.Errorf("the server did not get %s: %s", want, out)
		}
	}
	filepath.WalkDir(data, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, _ := os.ReadFile(p); strings.Contains(string(b), key) {
				t.Errorf("%s holds the sensitive value", p)
			}
		}
		return nil
	})

	code, out, _ = runIn(t, data, "servers", "install", path, "--set", "greeting=hey")
	if code != 0 || !strings.Contains(out, "reinstalled (was 1.2.0) echo-env") {
		t.Fatalf("reinstall: exit %d %q", code, out)
	}
	if code, _, e := runIn(t, data, "servers", "remove", "echo-env"); code != 0 {
		t.Fatal(e)
	}
	if _, err := os.Stat(filepath.Join(data, "bundles", "echo-env")); !os.IsNotExist(err) {
		t.Errorf("bundle files left after remove: %v", err)
	}
	if code, _, e := runIn(t, data, "servers", "install", filepath.Join(t.TempDir(), "none.mcpb")); code == 0 || !strings.Contains(e, "none.mcpb") {
		t.Errorf("a missing file: exit %d %s", code, e)
	}
}

// smallBundle writes a bundle of a tiny server (its manifest edited by
// edit) and returns its path.
func smallBundle(t *testing.T, edit func(m map[string]any)) string {
	t.Helper()
	m := map[string]any{
		"manifest_version": "0.1", "name": "echo-small", "version": "1.0.0", "description": "d", "author": map[string]any{"name": "Probe"},
		"server": map[string]any{"type": "node", "entry_point": "server/index.js",
			"mcp_config": map[string]any{"command": "node", "args": []string{"${__dirname}/server/index.js", "--cfg", "${user_config.cfg}", "${user_config.dirs}"}}},
		"user_config": map[string]any{
			"cfg":  map[string]any{"type": "file", "title": "Config file", "description": "c"},
			"dirs": map[string]any{"type": "directory", "title": "Folders", "description": "d", "multiple": true},
			"name": map[string]any{"type": "string", "title": "Name", "description": "n"},
		},
	}
	if edit != nil {
		edit(m)
	}
	raw, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "small.mcpb")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w := zip.NewWriter(f)
	for name, body := range map[string]string{"manifest.json": string(raw), "server/index.js": "// the server"} {
		e, _ := w.Create(name)
		e.Write([]byte(body))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return p
}

// installedArgs is the arguments config.json's entry of name has.
func installedArgs(t *testing.T, data, name string) []string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(data, "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Servers map[string]struct {
			Args []string `json:"args"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal(raw, &cfg); err != nil {
		t.Fatal(err)
	}
	return cfg.Servers[name].Args
}

// A relative file or folder given with --set is the one in the current
// directory (the server runs in the bundle's folder); one that does not
// exist is warned of. A string value is left as it is.
func TestServersInstallRelativePaths(t *testing.T) {
	data := t.TempDir()
	wd := t.TempDir()
	t.Chdir(wd)
	if err := os.WriteFile(filepath.Join(wd, "c.json"), []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(wd, "docs"), 0o700); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runIn(t, data, "servers", "install", smallBundle(t, nil),
		"--set", "cfg=c.json", "--set", "dirs=docs", "--set", "dirs=missing", "--set", "dirs=/abs", "--set", "name=rel/name")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	args := installedArgs(t, data, "echo-small")
	want := []string{filepath.Join(wd, "c.json"), filepath.Join(wd, "docs"), filepath.Join(wd, "missing"), "/abs"}
	if !slices.Equal(args[2:], want) {
		t.Errorf("args %q, want %q after --cfg", args, want)
	}
	if !strings.Contains(errOut, "warning: Folders (dirs): "+filepath.Join(wd, "missing")+" does not exist") ||
		!strings.Contains(errOut, "warning: Folders (dirs): /abs does not exist") || strings.Contains(errOut, "c.json") {
		t.Errorf("stderr %q", errOut)
	}
}

// What a bundle install refuses exits 2 and says why: a file that is not
// a zip archive, an entry point it lacks, an older version (without
// --accept-changes); a 0.1 manifest with a display-style name installs,
// and a missing program is warned of.
func TestServersInstallBundleRefusals(t *testing.T) {
	old := bundle.CommandFound
	t.Cleanup(func() { bundle.CommandFound = old })
	bundle.CommandFound = func(c string) bool { return c != "uv" }
	data := t.TempDir()
	notZip := writeFile(t, "notzip.mcpb", "hello, I am not a zip")
	if code, _, e := runIn(t, data, "servers", "install", notZip); code != ExitUsage || !strings.Contains(e, notZip+" is not an MCP Bundle") {
		t.Errorf("not a zip: exit %d %s", code, e)
	}
	noEntry := smallBundle(t, func(m map[string]any) {
		m["server"].(map[string]any)["entry_point"] = "server/nothere.js"
		m["server"].(map[string]any)["mcp_config"].(map[string]any)["args"] = []string{"${__dirname}/server/nothere.js"}
	})
	if code, _, e := runIn(t, data, "servers", "install", noEntry); code != ExitUsage || !strings.Contains(e, `server.entry_point: "server/nothere.js" is not in the bundle`) {
		t.Errorf("no entry point: exit %d %s", code, e)
	}

	badDefault := smallBundle(t, func(m map[string]any) {
		m["name"] = "bad-default"
		m["user_config"] = map[string]any{"n": map[string]any{"type": "number", "title": "N", "description": "n", "default": 500, "min": 1, "max": 100}}
	})
	if code, _, e := runIn(t, data, "servers", "install", badDefault); code != ExitUsage || !strings.Contains(e, "N (n): the bundle's own default is wrong: 500 is outside 1–100; give a value (--set n=VALUE, or in the form), and tell the bundle's author (Probe)") {
		t.Errorf("a default out of its range: exit %d %s", code, e)
	}
	if code, _, e := runIn(t, data, "servers", "install", badDefault, "--set", "n=50"); code != 0 {
		t.Errorf("a value given instead: exit %d %s", code, e)
	}

	v2 := smallBundle(t, func(m map[string]any) { m["name"] = "My MCP Extension"; m["version"] = "2.0.0" })
	code, out, e := runIn(t, data, "servers", "install", v2)
	if code != 0 || !strings.Contains(out, "installed my-mcp-extension 2.0.0: My MCP Extension by Probe") {
		t.Fatalf("a display-style name: exit %d %q %s", code, out, e)
	}
	v1 := smallBundle(t, func(m map[string]any) { m["name"] = "My MCP Extension" })
	if code, _, e := runIn(t, data, "servers", "install", v1); code != ExitUsage || !strings.Contains(e, "This is an older version of my-mcp-extension (1.0.0) than the one installed (2.0.0)") {
		t.Errorf("a downgrade: exit %d %s", code, e)
	}
	if code, out, e := runIn(t, data, "servers", "install", v1, "--accept-changes"); code != 0 || !strings.Contains(out, "went back to 1.0.0 from 2.0.0") {
		t.Errorf("a downgrade accepted: exit %d %q %s", code, out, e)
	}

	uv := smallBundle(t, func(m map[string]any) {
		m["manifest_version"] = "0.4"
		m["name"] = "echo-uv"
		m["server"] = map[string]any{"type": "uv", "entry_point": "server/index.js"}
	})
	if code, _, e := runIn(t, data, "servers", "install", uv); code != 0 || !strings.Contains(e, `warning: echo-uv runs "uv", which is not installed here (not on your PATH): install uv`) {
		t.Errorf("uv missing: exit %d %s", code, e)
	}
}

// 'switchboard install' is 'switchboard servers install': the error says so.
func TestInstallIsAServersCommand(t *testing.T) {
	code, _, e := runIn(t, t.TempDir(), "install", "x.mcpb")
	if code != ExitUsage || !strings.Contains(e, `unknown command "install"`) || !strings.Contains(e, "did you mean 'switchboard servers install'?") {
		t.Fatalf("exit %d %s", code, e)
	}
}

// Without a display the window says so in a sentence (GTK would panic),
// and for a bundle how to install it without the window.
func TestCheckDisplay(t *testing.T) {
	env := func(vars map[string]string) func(string) string { return func(k string) string { return vars[k] } }
	none := env(nil)
	tests := []struct {
		name   string
		getenv func(string) string
		goos   string
		files  []string
		says   string
	}{
		{"X11", env(map[string]string{"DISPLAY": ":0"}), "linux", nil, ""},
		{"Wayland", env(map[string]string{"WAYLAND_DISPLAY": "wayland-0"}), "linux", nil, ""},
		{"macOS", none, "darwin", nil, ""},
		{"Windows", none, "windows", nil, ""},
		{"a bundle", none, "linux", []string{"/home/u/My Bundle.mcpb"}, "there is no display to open the window on (neither DISPLAY nor WAYLAND_DISPLAY is set): install the bundle from here with 'switchboard servers install '/home/u/My Bundle.mcpb''"},
		{"the window", none, "freebsd", nil, "run Switchboard from your desktop session, or use a command here"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckDisplay(tt.getenv, tt.goos, tt.files)
			if tt.says == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.says) {
				t.Fatalf("err = %v, want %q", err, tt.says)
			}
		})
	}
}
