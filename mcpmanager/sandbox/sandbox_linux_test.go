package sandbox_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/mcpmanager/fetch/fetchtest"
	"github.com/switchboard-app/switchboard/mcpmanager/process"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
	"github.com/switchboard-app/switchboard/mcpmanager/sandbox"
)

var canaryBin string

func TestMain(m *testing.M) {
	var err error
	if canaryBin, err = proctest.Build("canary"); err != nil {
		panic(err)
	}
	proctest.Main(m, nil)
}

// start runs spec (sandboxed under p when p is not nil) and returns an
// initialized MCP client; everything stops at the test's end.
func start(t *testing.T, spec process.Spec, p *sandbox.Policy) *client.Client {
	t.Helper()
	if p != nil {
		var err error
		if spec, err = sandbox.Prepare(t.Context(), spec, *p); err != nil {
			t.Fatalf("Prepare: %v", err)
		}
	}
	proc, err := process.Start(spec)
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	var stderr strings.Builder
	stderrDone := make(chan struct{})
	go func() {
		defer close(stderrDone)
		sc := bufio.NewScanner(proc.Stderr)
		for sc.Scan() {
			stderr.WriteString(sc.Text() + "\n")
		}
	}()
	cl := client.NewClient(transport.NewIO(proc.Stdout, proc.Stdin, nil))
	t.Cleanup(func() {
		cl.Close()
		_ = proc.Stop(t.Context())
		<-stderrDone
		if t.Failed() {
			t.Logf("server stderr:\n%s", stderr.String())
		}
	})
	if err := cl.Start(t.Context()); err != nil {
		t.Fatalf("client start: %v", err)
	}
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	req.Params.ClientInfo = mcp.Implementation{Name: "sandbox-test", Version: "1"}
	if _, err := cl.Initialize(t.Context(), req); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	return cl
}

func call(t *testing.T, cl *client.Client, tool string, args map[string]any) (string, bool) {
	t.Helper()
	res, text := mcptest.Call(t, cl, tool, args)
	return text, res.IsError
}

// TestCanary: unsandboxed, the canary server reads a key in a fake home's
// ~/.ssh, writes beside it and connects to a loopback port; sandboxed, all
// three fail while its tool still answers.
func TestCanary(t *testing.T) {
	for _, c := range []struct {
		name    string
		policy  *sandbox.Policy
		blocked bool
	}{
		{"unsandboxed", nil, false},
		{"sandboxed", &sandbox.Policy{Env: []string{"CANARY_PORT"}}, true},
		// Network alone lets the connection through, never the home.
		{"sandboxed with network", &sandbox.Policy{Network: true, Env: []string{"CANARY_PORT"}}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			home := filepath.Join(t.TempDir(), "home")
			key := filepath.Join(home, ".ssh", "id_canary")
			if err := os.MkdirAll(filepath.Dir(key), 0o700); err != nil {
				t.Fatal(err)
			}
			secret := "canary-" + c.name
			if err := os.WriteFile(key, []byte(secret), 0o600); err != nil {
				t.Fatal(err)
			}
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { ln.Close() })
			var greeted atomic.Int32
			hello := make(chan struct{}, 1)
			go func() {
				for {
					conn, err := ln.Accept()
					if err != nil {
						return
					}
					if line, _ := bufio.NewReader(conn).ReadString('\n'); line == "hello\n" {
						greeted.Add(1)
						hello <- struct{}{}
					}
					conn.Close()
				}
			}()
			port := fmt.Sprint(ln.Addr().(*net.TCPAddr).Port)
			env := []string{"HOME=" + home, "PATH=/usr/bin:/bin", "CANARY_PORT=" + port}
			cl := start(t, process.Spec{Command: canaryBin, Env: env}, c.policy)

			out, isErr := call(t, cl, "probe", nil)
			if isErr {
				t.Fatalf("probe failed: %s", out)
			}
			var r struct{ Read, Content, Write, Connect string }
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatalf("probe answered %q: %v", out, err)
			}
			_, statErr := os.Stat(filepath.Join(home, ".ssh", "written"))
			wrote := statErr == nil
			if r.Connect == "" {
				// The server closed the connection; the listener may not
				// have read the greeting yet.
				select {
				case <-hello:
				case <-time.After(5 * time.Second):
				}
			}
			if !c.blocked {
				if r.Read != "" || r.Content != secret || r.Write != "" || !wrote || r.Connect != "" || greeted.Load() != 1 {
					t.Fatalf("unsandboxed the canary should succeed at all three: %+v (file written: %v, greeted: %d)", r, wrote, greeted.Load())
				}
				return
			}
			if r.Read == "" || strings.Contains(r.Content, secret) {
				t.Errorf("the sandboxed server read the key: %+v", r)
			}
			if r.Write == "" || wrote {
				t.Errorf("the sandboxed server wrote beside the key: %+v (file on disk: %v)", r, wrote)
			}
			if wantConnect := c.policy.Network; (r.Connect == "") != wantConnect || (greeted.Load() == 1) != wantConnect {
				t.Errorf("network %v: connect error %q, greeted %d", c.policy.Network, r.Connect, greeted.Load())
			}
		})
	}
}

// fsServer is @modelcontextprotocol/server-filesystem as pinned in
// mcpmanager/testdata/npm (installed by the Makefile's test set-up).
func fsServer(t *testing.T) string {
	t.Helper()
	p, err := filepath.Abs("../testdata/npm/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("server-filesystem is not installed (run the Makefile's test set-up: make test-go): %v", err)
	}
	return p
}

// TestFilesystemServer: the real server-filesystem, told its folder is the
// whole (fake) home, works sandboxed in the folder listed in allowWrite
// and cannot read or write anything else of that home.
func TestFilesystemServer(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	work := filepath.Join(home, "work")
	key := filepath.Join(home, ".ssh", "id_canary")
	for _, d := range []string{work, filepath.Dir(key)} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(key, []byte("secret key"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "notes.txt"), []byte("hello from work"), 0o644); err != nil {
		t.Fatal(err)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal(err)
	}
	env := []string{"HOME=" + home, "PATH=" + filepath.Dir(node) + ":/usr/bin:/bin"}
	cl := start(t, process.Spec{Command: node, Args: []string{fsServer(t), home}, Env: env},
		&sandbox.Policy{AllowWrite: []string{work}})

	if out, isErr := call(t, cl, "read_text_file", map[string]any{"path": filepath.Join(work, "notes.txt")}); isErr || !strings.Contains(out, "hello from work") {
		t.Errorf("read inside allowWrite: %q (error %v)", out, isErr)
	}
	written := filepath.Join(work, "new.txt")
	if out, isErr := call(t, cl, "write_file", map[string]any{"path": written, "content": "made in the sandbox"}); isErr {
		t.Errorf("write inside allowWrite: %s", out)
	}
	if b, err := os.ReadFile(written); err != nil || string(b) != "made in the sandbox" {
		t.Errorf("the file written inside allowWrite is not on disk: %q, %v", b, err)
	}
	if out, isErr := call(t, cl, "read_text_file", map[string]any{"path": key}); !isErr || strings.Contains(out, "secret key") {
		t.Errorf("read outside allowWrite succeeded: %q (error %v)", out, isErr)
	}
	outside := filepath.Join(home, "outside.txt")
	call(t, cl, "write_file", map[string]any{"path": outside, "content": "escaped"})
	if _, err := os.Stat(outside); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a write outside allowWrite reached the disk: %v", err)
	}
	if out, _ := call(t, cl, "list_directory", map[string]any{"path": home}); strings.Contains(out, ".ssh") || !strings.Contains(out, "work") {
		t.Errorf("the home as the sandboxed server sees it: %q; want only work", out)
	}
}

// TestMissingBubblewrap: no bwrap, no start — and the error says what to
// install.
func TestMissingBubblewrap(t *testing.T) {
	old := sandbox.Bubblewrap
	sandbox.Bubblewrap = "bwrap-not-installed-" + fmt.Sprint(time.Now().UnixNano())
	t.Cleanup(func() { sandbox.Bubblewrap = old })
	spec, err := sandbox.Prepare(t.Context(), process.Spec{Command: canaryBin}, sandbox.Policy{})
	if !errors.Is(err, sandbox.ErrNoBubblewrap) {
		t.Fatalf("Prepare = %+v, %v; want ErrNoBubblewrap", spec, err)
	}
	if !strings.Contains(err.Error(), "apt install bubblewrap") {
		t.Errorf("the error does not say what to install: %v", err)
	}
	if spec.Command != "" {
		t.Errorf("a spec came back without a sandbox: %+v", spec)
	}
}

// TestNpxFetchedAhead: "npx -y PACKAGE" from a local registry starts
// sandboxed without network — the package was fetched before, outside —
// and a second start fetches nothing.
func TestNpxFetchedAhead(t *testing.T) {
	reg, err := fetchtest.Start(t.Context(), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	old := sandbox.CacheDir
	sandbox.CacheDir = func() (string, error) { return cache, nil }
	t.Cleanup(func() { sandbox.CacheDir = old })
	npx, err := exec.LookPath("npx")
	if err != nil {
		t.Fatal(err)
	}
	env := []string{"HOME=" + filepath.Join(t.TempDir(), "home"), "PATH=" + filepath.Dir(npx) + ":/usr/bin:/bin"}
	for k, v := range reg.Env(t.TempDir()) {
		env = append(env, k+"="+v)
	}
	for i := range 2 {
		cl := start(t, process.Spec{Command: npx, Args: []string{"-y", reg.Spec()}, Env: env}, &sandbox.Policy{})
		if out, isErr := call(t, cl, "hello", nil); isErr || !strings.Contains(out, "hello from "+fetchtest.Package) {
			t.Fatalf("start %d: hello = %q (error %v)", i+1, out, isErr)
		}
		if n := reg.Downloads.Load(); n != 1 {
			t.Fatalf("start %d: %d downloads, want 1", i+1, n)
		}
	}
}

// TestUvxFetchedAhead: "uvx --from PKG CMD ARGS" makes a virtualenv with
// uv, outside the sandbox and once, and runs CMD from it sandboxed. uv is
// a stand-in here that records its arguments and makes the files uv would.
func TestUvxFetchedAhead(t *testing.T) {
	bin := t.TempDir()
	calls := filepath.Join(t.TempDir(), "calls")
	uv := `#!/bin/sh
echo "$*" >> ` + calls + `
case "$1" in
venv) mkdir -p "$3/bin" && ln -s /bin/sh "$3/bin/python" ;;
pip) d=$(dirname "$5"); printf '#!%s\necho "hello from the venv: $*"\n' "$5" > "$d/mcp-tool" && chmod +x "$d/mcp-tool" ;;
esac
`
	for name, body := range map[string]string{"uv": uv, "uvx": "#!/bin/sh\nexit 1\n"} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cache := t.TempDir()
	old := sandbox.CacheDir
	sandbox.CacheDir = func() (string, error) { return cache, nil }
	t.Cleanup(func() { sandbox.CacheDir = old })
	env := []string{"HOME=" + filepath.Join(t.TempDir(), "home"), "PATH=" + bin + ":/usr/bin:/bin"}
	for i := range 2 {
		spec, err := sandbox.Prepare(t.Context(), process.Spec{Command: filepath.Join(bin, "uvx"), Args: []string{"--from", "mcp-pkg@1.2", "mcp-tool", "--flag"}, Env: env}, sandbox.Policy{})
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.CommandContext(t.Context(), spec.Command, spec.Args...)
		cmd.Env = spec.Env
		out, err := cmd.CombinedOutput()
		if err != nil || strings.TrimSpace(string(out)) != "hello from the venv: --flag" {
			t.Fatalf("start %d: %q, %v", i+1, out, err)
		}
	}
	got, _ := os.ReadFile(calls)
	lines := strings.Split(strings.TrimSpace(string(got)), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "venv --quiet "+cache) || !strings.HasSuffix(lines[1], "bin/python mcp-pkg==1.2") {
		t.Errorf("uv was run as %q; want one venv and one pip install of mcp-pkg==1.2", lines)
	}
}
