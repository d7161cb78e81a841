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
	"github.com/switchboard-app/switchboard/mcpmanager/config"
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
// A keyring value the server was given shows masked (secrets.Mask), as in
// any result: only the real value is masked so.
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
	if env["ECHO_API_KEY"] != secrets.Mask(key) || env["ECHO_LIMIT"] != "42" || env["ECHO_VERBOSE"] != "false" {
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
	if env["ECHO_API_KEY"] != secrets.Mask(key) || env["ECHO_LIMIT"] != "42" || !slices.Contains(args, "hi") {
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
		{"another platform", write("os.mcpb", wrongOS, "i.js"), bundle.ErrIncompatible, "and this computer is " + bundle.Platform()},
		{"bad manifest", write("bad.mcpb", other, ""), bundle.ErrManifest, `compatibility.platforms[0]: "beos-never" is not a platform`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// An unsafe archive is refused as soon as it is looked at.
			if in, err := b.Inspect(t.Context(), tt.path); err == nil && errors.Is(tt.want, bundle.ErrUnsafe) &&
				(!errors.Is(in.Refused, bundle.ErrUnsafe) || !strings.Contains(in.Refused.Error(), tt.says)) {
				t.Errorf("Inspect: Refused = %v", in.Refused)
			}
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

// upBundle is echo-env at version, with the options uc and the environment
// env (each ${user_config.KEY} its value).
func upBundle(t *testing.T, version string, uc map[string]any, env map[string]any) string {
	t.Helper()
	return writeBundle(t, func(m map[string]any) {
		m["version"] = version
		m["user_config"] = uc
		mcp := m["server"].(map[string]any)["mcp_config"].(map[string]any)
		mcp["args"] = []any{"${__dirname}/server/index.js"}
		mcp["env"] = env
	})
}

// entryOf is config.json's entry of name as saved, and what it records.
func entryOf(t *testing.T, h *Host, name string) (Server, Installed) {
	t.Helper()
	s, ok := h.Bundles.installed(name)
	if !ok {
		t.Fatalf("%s is not in config.json", name)
	}
	rec, _ := InstalledOf(s)
	return s, rec
}

// An update that marks an option sensitive moves its value from
// config.json to the keyring (the CLI's --accept-changes and a plain
// reinstall after it keep it there), and the keyring entry of an option it
// dropped goes, from the keyring and from the index of secrets.
func TestBundleUpdateMakesAnOptionSensitive(t *testing.T) {
	h := quietHost(t)
	b := h.Bundles
	v1 := upBundle(t, "1.0.0", map[string]any{
		"key":  map[string]any{"type": "string", "title": "Key", "sensitive": true, "required": true},
		"tok":  map[string]any{"type": "string", "title": "Token"},
		"mode": map[string]any{"type": "string", "title": "Mode", "default": "a"},
	}, map[string]any{"B_KEY": "${user_config.key}", "B_TOK": "${user_config.tok}", "B_MODE": "${user_config.mode}"})
	v2 := upBundle(t, "2.0.0", map[string]any{
		"tok":  map[string]any{"type": "string", "title": "Token", "sensitive": true},
		"mode": map[string]any{"type": "string", "title": "Mode", "default": "b"},
	}, map[string]any{"B_TOK": "${user_config.tok}", "B_MODE": "${user_config.mode}"})
	if _, err := b.Install(t.Context(), v1, bundle.Values{"key": {"KEY-111"}, "tok": {"PLAINTOK-222"}}); err != nil {
		t.Fatal(err)
	}
	_, rec1 := entryOf(t, h, "echo-env")
	keyName := rec1.Secrets["key"]
	if keyName == "" || !slices.Equal(rec1.Values["tok"], []string{"PLAINTOK-222"}) {
		t.Fatalf("v1 recorded %+v", rec1)
	}

	in, err := b.Inspect(t.Context(), v2)
	if err != nil {
		t.Fatal(err)
	}
	if _, shown := in.Values["tok"]; shown || !slices.Equal(in.Kept, []string{"tok"}) {
		t.Fatalf("v2's form would show the token in plaintext: values %v kept %v", in.Values, in.Kept)
	}
	cfgPath := filepath.Join(h.Dir().String(), "config.json")
	for i, install := range []func(context.Context, string, map[string][]string) (string, error){b.InstallChanged, b.Install} {
		if _, err := install(t.Context(), v2, nil); err != nil { // --accept-changes, then a plain reinstall
			t.Fatalf("install %d: %v", i, err)
		}
		s, rec := entryOf(t, h, "echo-env")
		if raw, _ := os.ReadFile(cfgPath); strings.Contains(string(raw), "PLAINTOK-222") {
			t.Fatalf("install %d: config.json holds the now sensitive value:\n%s", i, raw)
		}
		name := rec.Secrets["tok"]
		if s.Env["B_TOK"] != "${secret:"+name+"}" || name == "" {
			t.Fatalf("install %d: B_TOK = %q, secrets %v", i, s.Env["B_TOK"], rec.Secrets)
		}
		if v, err := h.Secrets.Get(name); err != nil || v != "PLAINTOK-222" {
			t.Fatalf("install %d: the keyring has %q, %v", i, v, err)
		}
		if s.Env["B_MODE"] != "b" {
			t.Errorf("install %d: B_MODE = %q: v1's default stuck", i, s.Env["B_MODE"])
		}
	}
	if _, err := h.Secrets.Get(keyName); !errors.Is(err, secrets.ErrNotFound) {
		t.Errorf("the keyring entry of the dropped option is left: %v", err)
	}
	cfg, err := h.readConfig()
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(secrets.Names(cfg.Settings), keyName) {
		t.Errorf("the dropped option's entry is still indexed: %v", secrets.Names(cfg.Settings))
	}
}

// Only the answers the user gave are recorded: a new version's default
// applies where the user took the old one's (also from a record an older
// Switchboard wrote, with the defaults in it), and an answer stays.
func TestBundleNewDefaultApplies(t *testing.T) {
	uc := func(def string) map[string]any {
		return map[string]any{
			"mode":  map[string]any{"type": "string", "title": "Mode", "default": def},
			"level": map[string]any{"type": "string", "title": "Level", "default": "low"},
		}
	}
	env := map[string]any{"B_MODE": "${user_config.mode}", "B_LEVEL": "${user_config.level}"}
	tests := []struct {
		name      string
		given     bundle.Values
		oldRecord bool // the record keeps v1's defaults as answers
		mode      string
	}{
		{"the default taken", nil, false, "b"},
		{"an older record", nil, true, "b"},
		{"an answer given", bundle.Values{"mode": {"mine"}}, false, "mine"},
		{"the default typed in the form", bundle.Values{"mode": {"a"}, "level": {"low"}}, false, "b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := quietHost(t)
			if _, err := h.Bundles.Install(t.Context(), upBundle(t, "1.0.0", uc("a"), env), tt.given); err != nil {
				t.Fatal(err)
			}
			if tt.oldRecord {
				editRecord(t, h, "echo-env", func(in *Installed) { in.Values = bundle.Values{"mode": {"a"}, "level": {"low"}} })
			}
			if _, err := h.Bundles.Install(t.Context(), upBundle(t, "2.0.0", uc("b"), env), nil); err != nil {
				t.Fatal(err)
			}
			s, rec := entryOf(t, h, "echo-env")
			if s.Env["B_MODE"] != tt.mode || s.Env["B_LEVEL"] != "low" {
				t.Errorf("B_MODE %q B_LEVEL %q, want %q low", s.Env["B_MODE"], s.Env["B_LEVEL"], tt.mode)
			}
			if _, ok := rec.Values["level"]; ok {
				t.Errorf("a default recorded as an answer: %v", rec.Values)
			}
		})
	}
}

// editRecord changes what name's entry records of its bundle.
func editRecord(t *testing.T, h *Host, name string, edit func(in *Installed)) {
	t.Helper()
	err := h.edit(func(cfg *config.Config) error {
		i := slices.IndexFunc(cfg.Servers, func(s Server) bool { return s.Name == name })
		in, _ := InstalledOf(cfg.Servers[i])
		edit(&in)
		raw, err := json.Marshal(in)
		cfg.Servers[i].Extra[bundleKey] = raw
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// An older version than the installed one is a change to confirm.
func TestBundleDowngradeAsks(t *testing.T) {
	h := quietHost(t)
	b := h.Bundles
	v := func(version string) string {
		return writeBundle(t, func(m map[string]any) { m["version"] = version })
	}
	if _, err := b.Install(t.Context(), v("2.0.0"), echoKey); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Install(t.Context(), v("2.1.0"), nil); err != nil {
		t.Fatalf("an update asks: %v", err)
	}
	old := v("1.0.0")
	_, err := b.Install(t.Context(), old, nil)
	var ce *BundleChangedError
	if !errors.As(err, &ce) || len(ce.Changes) != 1 || ce.Changes[0] != (BundleChange{What: "version", Was: "2.1.0", Now: "1.0.0"}) {
		t.Fatalf("a downgrade: %v", err)
	}
	if sentence, _ := ce.Plain(); !strings.Contains(sentence, "This is an older version of echo-env (1.0.0) than the one installed (2.1.0)") {
		t.Errorf("Plain = %q", sentence)
	}
	if _, rec := entryOf(t, h, "echo-env"); rec.Version != "2.1.0" {
		t.Fatalf("installed %s after the refusal", rec.Version)
	}
	if _, err := b.InstallChanged(t.Context(), old, nil); err != nil {
		t.Fatal(err)
	}
	if _, rec := entryOf(t, h, "echo-env"); rec.Version != "1.0.0" {
		t.Fatalf("installed %s", rec.Version)
	}
}

// A display-style name (MANIFEST.md's "My MCP Extension") installs as a
// server name made from it, in a folder of that name, and updates as
// itself; the row shows the name as written.
func TestBundleDisplayStyleName(t *testing.T) {
	h := quietHost(t)
	p := writeBundle(t, func(m map[string]any) { m["name"] = "My MCP Extension"; delete(m, "display_name") })
	name, err := h.Bundles.Install(t.Context(), p, echoKey)
	if err != nil || name != "my-mcp-extension" {
		t.Fatalf("installed as %q: %v", name, err)
	}
	_, rec := entryOf(t, h, "my-mcp-extension")
	if rec.Name != "My MCP Extension" || filepath.Base(filepath.Dir(rec.Dir)) != "my-mcp-extension" {
		t.Errorf("recorded %+v", rec)
	}
	in, err := h.Bundles.Inspect(t.Context(), p)
	if err != nil || in.Installed != "1.2.0" {
		t.Fatalf("inspection: %+v %v", in, err)
	}
}

// What Install would run, before anything is written: the folder it will
// have, the values given, sensitive ones masked; a required one missing
// is the error.
func TestBundlePreview(t *testing.T) {
	h := quietHost(t)
	b := h.Bundles
	in, err := b.Inspect(t.Context(), writeBundle(t, func(map[string]any) {}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Preview(in, nil); !errors.Is(err, ErrBundleUserConfig) || !errors.Is(err, ErrBundleRequired) || !strings.Contains(err.Error(), "is required") {
		t.Fatalf("without the key: %v", err)
	}
	run, err := b.Preview(in, bundle.Values{"api_key": {"sk-preview-SECRET"}, "greeting": {"hi there"}})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(b.Root(), "echo-env", "1.2.0")
	want := "node " + filepath.Join(dir, "server", "index.js") + ` --greeting "hi there" ` + os.Getenv("HOME")
	if run.Command != want || strings.Contains(run.Command, "SECRET") {
		t.Errorf("command %q, want %q", run.Command, want)
	}
	if !slices.Equal(run.Env, []string{"ECHO_API_KEY", "ECHO_HOME", "ECHO_LIMIT", "ECHO_VERBOSE"}) {
		t.Errorf("env %v", run.Env)
	}
	if ents, _ := os.ReadDir(b.Root()); len(ents) != 0 {
		t.Errorf("a preview wrote %v", ents)
	}
}

// A dropped bundle waits in Incoming until Discard, or ClearIncoming;
// Discard takes a token only, never a path.
func TestBundleIncoming(t *testing.T) {
	h := quietHost(t)
	b := h.Bundles
	a, err := b.Receive("a.mcpb", []byte("zip"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := b.Receive("c.mcpb", []byte("zip"))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Discard(a); err != nil {
		t.Fatal(err)
	}
	if err := b.Discard(a); err != nil {
		t.Fatalf("discarding again: %v", err)
	}
	for _, bad := range []string{"../config.json", filepath.Join(b.Incoming(), c), "", ".mcpb"} {
		if err := b.Discard(bad); err == nil {
			t.Errorf("Discard(%q) took it", bad)
		}
	}
	if ents, _ := os.ReadDir(b.Incoming()); len(ents) != 1 || ents[0].Name() != c {
		t.Fatalf("incoming: %v", ents)
	}
	if err := b.ClearIncoming(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(b.Incoming()); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("incoming left: %v", err)
	}
}

// A sensitive option given twice is refused, as Check refuses any single
// option given twice: the keyring keeps one value, so the other would be
// dropped without a word (--set api_key=A --set api_key=B). Nothing is
// installed.
func TestBundleSensitiveGivenTwice(t *testing.T) {
	h := quietHost(t)
	p := upBundle(t, "1.0.0", map[string]any{
		"key": map[string]any{"type": "string", "title": "Key", "sensitive": true, "required": true},
	}, map[string]any{"B_KEY": "${user_config.key}"})
	_, err := h.Bundles.Install(t.Context(), p, bundle.Values{"key": {"KEY-A", "KEY-B"}})
	if !errors.Is(err, bundle.ErrUserConfig) || !strings.Contains(err.Error(), "Key (key) takes one value, got 2") {
		t.Fatalf("Install = %v, want a refusal saying Key takes one value", err)
	}
	if strings.Contains(err.Error(), "KEY-") {
		t.Errorf("the refusal shows a sensitive value: %v", err)
	}
	if _, ok := h.Bundles.installed("echo-env"); ok {
		t.Error("installed after the refusal")
	}
}
