package host

import (
	"archive/zip"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/datadir"
	"github.com/switchboard-app/switchboard/app/secrets"
	"github.com/switchboard-app/switchboard/mcpmanager/bundle"
	"github.com/switchboard-app/switchboard/mcpmanager/bundle/bundletest"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

// liveHost is a host whose edits start servers, as the window's.
func liveHost(t *testing.T) *Host {
	t.Helper()
	dir := datadir.Dir(t.TempDir())
	if err := dir.Ensure(); err != nil {
		t.Fatal(err)
	}
	h := Open(Options{Dir: dir})
	t.Cleanup(func() { h.Close(context.Background()) })
	if err := h.Servers.Load(); err != nil {
		t.Fatal(err)
	}
	return h
}

// shown calls echo-env's show tool: the ECHO_* environment and arguments.
func shown(t *testing.T, h *Host) (env map[string]string, args []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	h.mgr.WaitSettled(ctx)
	for _, st := range h.mgr.Status() {
		if st.Name == "echo-env" && st.State != supervisor.Ready {
			t.Fatalf("echo-env: %s %s", st.State, st.Error)
		}
	}
	res, err := h.Tools.Call(ctx, "echo-env__show", nil)
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		Env  map[string]string `json:"env"`
		Args []string          `json:"args"`
	}
	if err := json.Unmarshal([]byte(res.Content[0].(mcp.TextContent).Text), &out); err != nil {
		t.Fatal(err)
	}
	return out.Env, out.Args
}

// containsInDir reports a file under dir that holds s.
func containsInDir(t *testing.T, dir, s string) string {
	t.Helper()
	var found string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if b, err := os.ReadFile(p); err == nil && strings.Contains(string(b), s) {
			found = p
		}
		return nil
	})
	return found
}

func TestBundleInstallReinstallRemove(t *testing.T) {
	h := liveHost(t)
	b := h.Bundles
	path := bundletest.Pack(t, "echo-env")
	const key = "sk-test-SECRET-0042"

	in, err := b.Inspect(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	if in.Incompatible != nil || in.Installed != "" || !slices.Equal(in.Values["greeting"], []string{"hello"}) {
		t.Fatalf("inspection: %+v", in)
	}
	if _, err := b.Install(t.Context(), path, bundle.Values{}); !errors.Is(err, bundle.ErrUserConfig) || !strings.Contains(err.Error(), "API key (api_key) is required") {
		t.Fatalf("without the required key: %v", err)
	}
	name, err := b.Install(t.Context(), path, bundle.Values{"api_key": {key}, "limit": {"42"}})
	if err != nil {
		t.Fatal(err)
	}
	if name != "echo-env" {
		t.Fatalf("named %q, want the manifest's name", name)
	}
	env, args := shown(t, h)
	if env["ECHO_API_KEY"] != key || env["ECHO_LIMIT"] != "42" || env["ECHO_VERBOSE"] != "false" {
		t.Errorf("env = %v: want the key from the keyring, limit 42 and the default false", env)
	}
	if !slices.Contains(args, "hello") { // greeting's default
		t.Errorf("args = %q", args)
	}
	if f := containsInDir(t, h.Dir().String(), key); f != "" {
		t.Errorf("the sensitive value is written in %s", f)
	}
	unpacked := filepath.Join(b.Root(), "echo-env", "1.2.0", "server", "index.js")
	if _, err := os.Stat(unpacked); err != nil {
		t.Fatal(err)
	}
	s, _ := h.Servers.Get("echo-env")
	rec, ok := InstalledOf(s)
	if !ok || rec.DisplayName != "Echo Env" || rec.Author != "Switchboard Tests" || rec.Signed != bundle.Unsigned || !strings.Contains(rec.Signature, "Unsigned") {
		t.Errorf("recorded %+v", rec)
	}

	// Reinstall: a new greeting; the key and the limit are kept.
	in, err = b.Inspect(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	if in.Installed != "1.2.0" || !slices.Equal(in.Kept, []string{"api_key"}) || !slices.Equal(in.Values["limit"], []string{"42"}) {
		t.Fatalf("reinstall inspection: installed %q kept %v values %v", in.Installed, in.Kept, in.Values)
	}
	if _, err := b.Install(t.Context(), path, bundle.Values{"greeting": {"hi"}}); err != nil {
		t.Fatal(err)
	}
	env, args = shown(t, h)
	if env["ECHO_API_KEY"] != key || env["ECHO_LIMIT"] != "42" || !slices.Contains(args, "hi") {
		t.Errorf("after reinstall: env %v args %q", env, args)
	}

	secretName := rec.Secrets["api_key"]
	if err := h.Servers.Remove("echo-env"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(b.Root(), "echo-env")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("bundle files left: %v", err)
	}
	if _, err := h.Secrets.Get(secretName); !errors.Is(err, secrets.ErrNotFound) {
		t.Errorf("keyring entry %s left: %v", secretName, err)
	}
}

func TestBundleRefused(t *testing.T) {
	h := liveHost(t)
	b := h.Bundles
	write := func(name string, manifest map[string]any, extra string) string {
		t.Helper()
		p := filepath.Join(t.TempDir(), name)
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		w := zip.NewWriter(f)
		mf, _ := w.Create("manifest.json")
		json.NewEncoder(mf).Encode(manifest)
		if extra != "" {
			e, _ := w.Create(extra)
			e.Write([]byte("x"))
		}
		w.Close()
		f.Close()
		return p
	}
	base := func() map[string]any {
		return map[string]any{"manifest_version": "0.3", "name": "bad", "version": "1.0.0", "description": "d", "author": map[string]any{"name": "a"},
			"server": map[string]any{"type": "node", "entry_point": "i.js", "mcp_config": map[string]any{"command": "node", "args": []string{"${__dirname}/i.js"}}}}
	}
	other := base()
	other["compatibility"] = map[string]any{"platforms": []string{"beos-never"}}
	wrongOS := base()
	wrongOS["compatibility"] = map[string]any{"platforms": slices.DeleteFunc([]string{"darwin", "win32", "linux"}, func(p string) bool { return p == bundle.Platform() })}
	tests := []struct {
		name string
		path string
		want error
		says string
	}{
		{"zip-slip", write("slip.mcpb", base(), "../../../evil.js"), bundle.ErrUnsafe, `entry "../../../evil.js" leaves the bundle's folder`},
		{"another platform", write("os.mcpb", wrongOS, ""), bundle.ErrIncompatible, "and this computer is " + bundle.Platform()},
		{"bad manifest", write("bad.mcpb", other, ""), bundle.ErrManifest, `compatibility.platforms[0]: "beos-never" is not a platform`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := b.Install(t.Context(), tt.path, nil)
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.says) {
				t.Fatalf("err = %v, want %v saying %q", err, tt.want, tt.says)
			}
			if len(h.Servers.List()) != 0 {
				t.Errorf("a server was added: %v", h.Servers.List())
			}
			if ents, _ := os.ReadDir(filepath.Join(b.Root(), "bad")); len(ents) != 0 {
				t.Errorf("files left: %v", ents)
			}
		})
	}
}
