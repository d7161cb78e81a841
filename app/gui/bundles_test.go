package gui

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/datadir"
	"github.com/switchboard-app/switchboard/app/host"
)

// bundleZip is a small bundle: manifest edited by edit, its entry point,
// and extra entries (name → body; a body "->TARGET" is a symbolic link).
func bundleZip(t *testing.T, edit func(m map[string]any), extra map[string]string) string {
	t.Helper()
	m := map[string]any{
		"manifest_version": "0.3", "name": "echo-probe", "version": "1.0.0", "description": "d", "author": map[string]any{"name": "Probe"},
		"server": map[string]any{"type": "node", "entry_point": "server/index.js",
			"mcp_config": map[string]any{"command": "node", "args": []string{"${__dirname}/server/index.js", "--cfg", "${user_config.cfg}"}, "env": map[string]string{"B_KEY": "${user_config.key}"}}},
		"user_config": map[string]any{
			"key": map[string]any{"type": "string", "title": "Key", "sensitive": true, "required": true},
			"cfg": map[string]any{"type": "file", "title": "Config file"},
		},
		"tools": []map[string]string{{"name": "show", "description": "show argv/env"}},
	}
	if edit != nil {
		edit(m)
	}
	raw, _ := json.Marshal(m)
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	files := map[string]string{"manifest.json": string(raw), "server/index.js": "// the server"}
	for k, v := range extra {
		files[k] = v
	}
	for name, body := range files {
		h := &zip.FileHeader{Name: name}
		h.SetMode(0o644)
		if target, ok := strings.CutPrefix(body, "->"); ok {
			h.SetMode(os.ModeSymlink | 0o777)
			body = target
		}
		f, err := w.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		f.Write([]byte(body))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes())
}

// incoming lists the dropped files waiting in the window's data dir.
func incoming(t *testing.T, a *Window) []string {
	t.Helper()
	ents, _ := os.ReadDir(a.h.Bundles.Incoming())
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

// A dropped bundle's form: its tools, the command it will run; one that
// cannot be installed says why at once; a file that is not a bundle is
// named as the user named it. A dropped file goes once its form is
// installed, closed, refused or replaced, and at the window's start.
func TestDroppedBundles(t *testing.T) {
	a, _ := window(t)
	b := a.Bundles

	f, err := b.InspectFile("echo.mcpb", bundleZip(t, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	if f.Refused != "" || len(f.ToolInfo) != 1 || f.ToolInfo[0] != (BundleTool{"show", "show argv/env"}) || f.Tools[0] != "show" {
		t.Fatalf("form: %+v", f)
	}
	if got := incoming(t, a); len(got) != 1 || got[0] != f.Token {
		t.Fatalf("incoming %v, want the form's file", got)
	}
	p, err := b.PreviewBundle(f.Token, map[string][]string{"key": {""}, "cfg": {""}})
	if err != nil || !p.Missing {
		t.Fatalf("preview without the key: %+v %v", p, err)
	}
	p, err = b.PreviewBundle(f.Token, map[string][]string{"key": {"sk-gui-SECRET"}, "cfg": {"/home/u/c.json"}})
	dir := filepath.Join(a.h.Bundles.Root(), "echo-probe", "1.0.0")
	if err != nil || p.Command != "node "+filepath.Join(dir, "server", "index.js")+" --cfg /home/u/c.json" || len(p.Env) != 1 || p.Env[0] != "B_KEY" {
		t.Fatalf("preview: %+v %v", p, err)
	}
	if err := b.DiscardBundle(f.Token); err != nil {
		t.Fatal(err)
	}
	if got := incoming(t, a); len(got) != 0 {
		t.Fatalf("a closed form's file is left: %v", got)
	}

	// Refused at once: nothing waits for an Install that cannot succeed.
	for name, extra := range map[string]map[string]string{
		"zip-slip": {"../../../tmp/evil.txt": "pwned"},
		"symlink":  {"server/link": "->/etc/passwd"},
	} {
		f, err := b.InspectFile(name+".mcpb", bundleZip(t, nil, extra))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(f.Refused, "unsafe bundle archive") || f.installable() {
			t.Errorf("%s: refused %q", name, f.Refused)
		}
		p, err := b.PreviewBundle(f.Token, nil)
		if err == nil && p.Problem == "" {
			t.Errorf("%s: a preview without the refusal: %+v", name, p)
		}
	}
	if _, err := b.InspectFile("notzip.mcpb", base64.StdEncoding.EncodeToString([]byte("hello, I am not a zip"))); err == nil ||
		!strings.HasPrefix(err.Error(), "notzip.mcpb is not an MCP Bundle") || strings.Contains(err.Error(), ".incoming") {
		t.Fatalf("a file that is not a zip: %v", err)
	}
	if got := incoming(t, a); len(got) != 0 {
		t.Fatalf("refused files are left: %v", got)
	}

	// Installed: its file goes.
	f, err = b.InspectFile("echo.mcpb", bundleZip(t, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Install(f.Token, map[string][]string{"key": {"sk-gui-SECRET"}, "cfg": {""}}); err != nil {
		t.Fatal(err)
	}
	if got := incoming(t, a); len(got) != 0 {
		t.Fatalf("an installed bundle's file is left: %v", got)
	}
}

// The files an earlier run left in the incoming folder go when the
// window starts, and its own when it closes.
func TestIncomingClearedAtStartAndClose(t *testing.T) {
	dir := datadir.Dir(t.TempDir())
	if err := dir.Ensure(); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(dir.String(), "bundles", ".incoming", "0123456789abcdef.mcpb")
	if err := os.MkdirAll(filepath.Dir(stale), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(stale, []byte("zip"), 0o600); err != nil {
		t.Fatal(err)
	}
	a := New(context.Background(), dir)
	a.emit = func(ServerView) {}
	a.emitHook = func(string, any) {}
	_ = a.Ready()
	a.Startup(context.Background())
	t.Cleanup(func() { a.close(context.Background()) })
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Fatalf("a file an earlier run left is there: %v", err)
	}
	if _, err := a.Bundles.InspectFile("echo.mcpb", bundleZip(t, nil, nil)); err != nil {
		t.Fatal(err)
	}
	a.Shutdown(context.Background())
	if got := incoming(t, a); len(got) != 0 {
		t.Fatalf("files left at close: %v", got)
	}
}

// A bundle without a display name shows its manifest name in its row.
func TestBundleRowNamesABundleWithoutDisplayName(t *testing.T) {
	raw, _ := json.Marshal(host.Installed{Name: "My MCP Extension", Version: "1.0.0", Author: "Probe", Dir: "/nowhere"})
	v := bundleView(host.Server{Extra: map[string]json.RawMessage{"bundle": raw}})
	if v == nil || v.DisplayName != "My MCP Extension" {
		t.Fatalf("row: %+v", v)
	}
}
