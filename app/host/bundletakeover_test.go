package host

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/datadir"
	"github.com/switchboard-app/switchboard/mcpmanager/bundle"
	"github.com/switchboard-app/switchboard/mcpmanager/bundle/bundletest"
	"github.com/switchboard-app/switchboard/mcpmanager/pins"
)

// quietHost is a host that starts no servers, as the CLI's.
func quietHost(t *testing.T) *Host {
	t.Helper()
	dir := datadir.Dir(t.TempDir())
	if err := dir.Ensure(); err != nil {
		t.Fatal(err)
	}
	h := Open(Options{Dir: dir})
	t.Cleanup(func() { h.Close(context.Background()) })
	return h
}

var echoKey = bundle.Values{"api_key": {"sk-takeover-1"}}

// Reinstalling a bundle whose author, signer or command differs from the
// installed copy is refused with the differences listed, config.json and
// the installed files untouched; InstallChanged installs it, and a new
// command makes the server's tools be reviewed again and drops the
// policies that let them run without asking.
func TestReinstallThatChangesWhoMadeSignedOrRunsItAsks(t *testing.T) {
	signed := writeBundle(t, func(m map[string]any) {})
	bundletest.Sign(t, signed)
	tests := []struct {
		name   string
		bundle string
		what   []string // the changes, in order
		now    string   // in the error
	}{
		{"author", writeBundle(t, func(m map[string]any) { m["author"] = map[string]any{"name": "Someone Else"} }), []string{"author"}, `"Someone Else"`},
		{"signer", signed, []string{"signer"}, "self-signed certificate"},
		{"command", writeBundle(t, func(m map[string]any) {
			mcp := m["server"].(map[string]any)["mcp_config"].(map[string]any)
			mcp["args"] = []any{"${__dirname}/server/index.js", "--greeting", "${user_config.greeting}", "--exfiltrate"}
		}), []string{"command"}, "--exfiltrate"},
		{"command environment", writeBundle(t, func(m map[string]any) {
			mcp := m["server"].(map[string]any)["mcp_config"].(map[string]any)
			mcp["env"].(map[string]any)["NODE_OPTIONS"] = "--require ./evil.js"
		}), []string{"command"}, "NODE_OPTIONS"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := quietHost(t)
			b := h.Bundles
			if _, err := b.Install(t.Context(), writeBundle(t, func(m map[string]any) {}), echoKey); err != nil {
				t.Fatal(err)
			}
			// The tools were trusted, and the user let one run unasked.
			tool := mcp.Tool{Name: "show", Description: "Shows the environment and arguments"}
			if errs := h.pins.Screen("echo-env", []mcp.Tool{tool}); errs[0] != nil {
				t.Fatal(errs[0])
			}
			if err := h.Settings.EditChat(func(s *chat.Settings) error {
				s.Policies = chat.Policies{"echo-env__show": chat.PolicyAllow, "echo-env__*": chat.PolicyAllow, "other__show": chat.PolicyAllow}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			cfgPath := filepath.Join(h.Dir().String(), "config.json")
			before, _ := os.ReadFile(cfgPath)

			in, err := b.Inspect(t.Context(), tt.bundle)
			if err != nil {
				t.Fatal(err)
			}
			var what []string
			for _, c := range in.Changes {
				what = append(what, c.What)
			}
			if strings.Join(what, ",") != strings.Join(tt.what, ",") {
				t.Fatalf("changes %+v, want %v", in.Changes, tt.what)
			}
			_, err = b.Install(t.Context(), tt.bundle, nil)
			var ce *BundleChangedError
			if !errors.As(err, &ce) || !errors.Is(err, ErrBundleChanged) || !strings.Contains(err.Error(), tt.now) {
				t.Fatalf("reinstall: %v", err)
			}
			if after, _ := os.ReadFile(cfgPath); !bytes.Equal(before, after) {
				t.Errorf("config.json changed by a refused reinstall:\n%s", after)
			}
			if _, err := b.InstallChanged(t.Context(), tt.bundle, nil); err != nil {
				t.Fatal(err)
			}
			s, _ := b.installed("echo-env")
			rec, _ := InstalledOf(s)
			if tt.what[0] == "author" && rec.Author != "Someone Else" {
				t.Errorf("not reinstalled: %+v", rec)
			}
			again := h.pins.Screen("echo-env", []mcp.Tool{tool})[0]
			cfg, err := h.readConfig()
			if err != nil {
				t.Fatal(err)
			}
			st, err := chat.LoadSettings(cfg.Settings)
			if err != nil {
				t.Fatal(err)
			}
			if tt.what[0] == "command" {
				if !errors.Is(again, pins.ErrChanged) {
					t.Errorf("a new command's tool is offered without review: %v", again)
				}
				if _, ok := st.Policies["echo-env__show"]; ok || st.Policies["echo-env__*"] != "" || st.Policies["other__show"] != chat.PolicyAllow {
					t.Errorf("policies after a new command: %v", st.Policies)
				}
			} else if again != nil || st.Policies["echo-env__show"] != chat.PolicyAllow {
				t.Errorf("same command, yet trust was reset: %v, %v", again, st.Policies)
			}
		})
	}
}

// withComment is echo-env packed as the mcpb CLI does, with a zip comment
// (bytes that can change without breaking the archive).
func withComment(t *testing.T, comment string) string {
	t.Helper()
	src := writeBundle(t, func(m map[string]any) {})
	r, err := zip.OpenReader(src)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for _, f := range r.File {
		rc, _ := f.Open()
		e, _ := w.Create(f.Name)
		if _, err := e.Write(mustRead(t, rc)); err != nil {
			t.Fatal(err)
		}
		rc.Close()
	}
	_ = w.SetComment(comment)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "c.mcpb")
	if err := os.WriteFile(p, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func mustRead(t *testing.T, r interface{ Read([]byte) (int, error) }) []byte {
	var b bytes.Buffer
	if _, err := b.ReadFrom(r); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// A bundle whose signature does not match it (changed after signing, or
// another bundle's signature block) is refused with the reason, leaving
// no entry, no files and no keyring entry behind.
func TestInvalidSignatureRefusesTheInstall(t *testing.T) {
	changed := withComment(t, "version A")
	bundletest.Sign(t, changed)
	data, _ := os.ReadFile(changed)
	i := bytes.Index(data, []byte("version A"))
	data[i+8] = 'B' // the comment now says "version B": same length, still a zip
	if err := os.WriteFile(changed, data, 0o600); err != nil {
		t.Fatal(err)
	}

	donor := writeBundle(t, func(m map[string]any) { m["description"] = "another bundle" })
	bundletest.Sign(t, donor)
	signedDonor, _ := os.ReadFile(donor)
	unsigned, _ := os.ReadFile(writeBundle(t, func(m map[string]any) {}))
	block := signedDonor[bytes.LastIndex(signedDonor, []byte("MCPB_SIG_V1")):]
	foreign := filepath.Join(t.TempDir(), "foreign.mcpb")
	if err := os.WriteFile(foreign, append(unsigned, block...), 0o600); err != nil {
		t.Fatal(err)
	}

	for name, p := range map[string]string{"changed after signing": changed, "foreign signature block": foreign} {
		t.Run(name, func(t *testing.T) {
			h := quietHost(t)
			_, err := h.Bundles.Install(t.Context(), p, echoKey)
			if !errors.Is(err, bundle.ErrInvalidSignature) || !strings.Contains(err.Error(), "the bundle's digest differs from the signed one") {
				t.Fatalf("install: %v", err)
			}
			if cfg, _ := h.readConfig(); cfg != nil && len(cfg.Servers) != 0 {
				t.Errorf("installed: %+v", cfg.Servers)
			}
			if left, _ := os.ReadDir(h.Bundles.Root()); len(left) != 0 {
				t.Errorf("files left behind: %v", left)
			}
		})
	}
}

// An install refused after its sensitive value went to the keyring (a
// setting out of range) takes that keyring entry back.
func TestRefusedInstallLeavesNoKeyringEntry(t *testing.T) {
	h := quietHost(t)
	p := writeBundle(t, func(m map[string]any) { m["name"] = "leak-check" })
	_, err := h.Bundles.Install(t.Context(), p, bundle.Values{"api_key": {"sk-leak-1"}, "limit": {"1000"}})
	if !errors.Is(err, bundle.ErrUserConfig) {
		t.Fatalf("install: %v", err)
	}
	if v, err := h.store.Get("leak-check.api_key"); err == nil {
		t.Errorf("the keyring keeps %q for a bundle that was not installed", v)
	}
	if left, _ := os.ReadDir(h.Bundles.Root()); len(left) != 0 {
		t.Errorf("files left behind: %v", left)
	}
}
