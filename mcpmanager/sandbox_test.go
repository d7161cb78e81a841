//go:build linux

package mcpmanager

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
	"github.com/switchboard-app/switchboard/mcpmanager/sandbox"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

// sandboxed parses one mcpServers entry (as config.json holds it) and
// runs it in a manager until the test ends.
func sandboxed(t *testing.T, entry map[string]any) *Manager {
	t.Helper()
	raw, err := json.Marshal(map[string]any{"mcpServers": map[string]any{"s": entry}})
	if err != nil {
		t.Fatal(err)
	}
	f, err := config.ParseContext(context.Background(), "config.json", raw)
	if err != nil {
		t.Fatal(err)
	}
	m := New(Options{})
	t.Cleanup(func() { _ = m.Close(context.WithoutCancel(t.Context())) })
	m.Apply(Specs(f.Servers, func(s string) (string, error) { return s, nil }))
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	m.WaitSettled(ctx)
	return m
}

// TestSandboxRoots: a sandboxed server's roots are bound as its entry
// says — read-only by default, read-write with "roots": "write" — and the
// real server-filesystem, which takes its folders from the roots, writes
// there only when allowed.
func TestSandboxRoots(t *testing.T) {
	for _, c := range []struct {
		name    string
		sandbox any
		write   bool
	}{
		{"roots read-only by default", true, false},
		{"roots writable when asked", map[string]any{"roots": "write"}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			work := t.TempDir()
			if err := os.WriteFile(filepath.Join(work, "in.txt"), []byte("inside the root"), 0o644); err != nil {
				t.Fatal(err)
			}
			node, err := exec.LookPath("node")
			if err != nil {
				t.Fatal(err)
			}
			script, _ := filepath.Abs("testdata/npm/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js")
			proctest.NPM(t, "mcp-server-filesystem")
			m := sandboxed(t, map[string]any{
				"command": node, "args": []string{script}, "roots": []string{work}, "sandbox": c.sandbox,
				"env": map[string]string{"HOME": filepath.Join(t.TempDir(), "home")},
			})
			if st := m.Status()[0]; st.State != supervisor.Ready {
				t.Fatalf("status %s: %s", st.State, st.Error)
			}
			ctx := t.Context()
			var res string
			// The server asks for its roots after initialize; wait until it has them.
			for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
				r, err := m.Router().Call(ctx, "s", "read_text_file", map[string]any{"path": filepath.Join(work, "in.txt")}, router.CallOptions{})
				if err == nil && !r.IsError {
					res = mcptest.Text(r)
					break
				}
			}
			if res != "inside the root" {
				t.Fatalf("read inside the root: %q", res)
			}
			out := filepath.Join(work, "out.txt")
			r, err := m.Router().Call(ctx, "s", "write_file", map[string]any{"path": out, "content": "x"}, router.CallOptions{})
			_, statErr := os.Stat(out)
			if wrote := err == nil && !r.IsError && statErr == nil; wrote != c.write {
				t.Errorf("write in the root: wrote %v, want %v (%v, %+v)", wrote, c.write, err, r)
			}
		})
	}
}

// TestSandboxWithoutBubblewrap: a sandboxed server on a system without
// bwrap is not started at all, and its error says what to install.
func TestSandboxWithoutBubblewrap(t *testing.T) {
	old := sandbox.Bubblewrap
	sandbox.Bubblewrap = "bwrap-missing-for-this-test"
	t.Cleanup(func() { sandbox.Bubblewrap = old })
	m := sandboxed(t, map[string]any{"command": faultServer, "sandbox": true})
	st := m.Status()[0]
	if st.State != supervisor.Error || !strings.Contains(st.Error, "apt install bubblewrap") {
		t.Fatalf("status %s: %q; want an error saying to install bubblewrap", st.State, st.Error)
	}
	if st.PID != 0 || st.Restarts != 0 {
		t.Errorf("the server ran (pid %d) or was retried (%d times)", st.PID, st.Restarts)
	}
}

// TestSandboxRootsChangeRestarts: roots are bound into a sandbox at start,
// so a sandboxed server restarts when they change (others are told).
func TestSandboxRootsChangeRestarts(t *testing.T) {
	a := ServerConfig{Name: "s", Command: "x", Roots: []string{"/a"}}
	b := a
	b.Roots = []string{"/b"}
	if !sameConfig(a, b) {
		t.Error("an unsandboxed server restarts for new roots")
	}
	a.Sandbox, b.Sandbox = &sandbox.Policy{}, &sandbox.Policy{}
	if sameConfig(a, b) {
		t.Error("a sandboxed server keeps running with its old roots bound")
	}
	b.Roots = a.Roots
	if !sameConfig(a, b) {
		t.Error("a sandboxed server restarts without a change")
	}
}

// TestServerEnvironment: a snoop server prints its environment. Sandboxed
// it has what its entry sets and the short sandbox.KeptEnv list (HOME
// and TMPDIR are its private folders); unsandboxed it inherits the app's environment but never
// Switchboard's own secrets (AppSecretEnv). Neither sees the serve token.
// Both get the variables of their "envFile", under the entry's own "env".
func TestServerEnvironment(t *testing.T) {
	envFile := filepath.Join(t.TempDir(), ".env")
	if err := os.WriteFile(envFile, []byte("# the project's\nexport FROM_FILE=\"the file's\"\nOWN=the file's, overridden\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	appSecrets := map[string]string{
		"SWITCHBOARD_SERVE_TOKEN": "serve-token-value",
		"SWITCHBOARD_API_KEY":     "switchboard-key-value",
		"OPENAI_API_KEY":          "openai-key-value",
		"ANTHROPIC_API_KEY":       "anthropic-key-value",
	}
	userSecrets := map[string]string{"GITHUB_TOKEN": "github-token-value", "AWS_SECRET_ACCESS_KEY": "aws-value"}
	for k, v := range appSecrets {
		t.Setenv(k, v)
	}
	for k, v := range userSecrets {
		t.Setenv(k, v)
	}
	t.Setenv("LANG", "C.UTF-8")
	for _, sandboxOn := range []bool{false, true} {
		t.Run(map[bool]string{false: "unsandboxed", true: "sandboxed"}[sandboxOn], func(t *testing.T) {
			entry := map[string]any{"command": proctest.FaultServer(t), "env": map[string]string{"OWN": "the entry's own"}, "envFile": envFile}
			if sandboxOn {
				entry["sandbox"] = true
			}
			m := sandboxed(t, entry)
			if st := m.Status()[0]; st.State != supervisor.Ready {
				t.Fatalf("status %s: %s", st.State, st.Error)
			}
			r, err := m.Router().Call(t.Context(), "s", "environ", nil, router.CallOptions{})
			if err != nil || r.IsError {
				t.Fatalf("environ: %v %+v", err, r)
			}
			env := map[string]string{}
			for _, kv := range strings.Split(mcptest.Text(r), "\n") {
				k, v, _ := strings.Cut(kv, "=")
				env[k] = v
			}
			for k, v := range appSecrets {
				for name, got := range env {
					if got == v {
						t.Errorf("the server got Switchboard's %s (as %s)", k, name)
					}
				}
			}
			if env["OWN"] != "the entry's own" || env["LANG"] != "C.UTF-8" || env["PATH"] == "" {
				t.Errorf("the entry's own variable, LANG or PATH is missing: %q", env)
			}
			if env["FROM_FILE"] != "the file's" {
				t.Errorf("FROM_FILE = %q, want the envFile's value", env["FROM_FILE"])
			}
			for k, v := range userSecrets {
				if got := env[k]; sandboxOn && got != "" || !sandboxOn && got != v {
					t.Errorf("%s = %q; a sandboxed server gets none of the app's environment beyond the kept list, an unsandboxed one inherits it", k, got)
				}
			}
		})
	}
}
