package cli

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
)

// cliProcessIn is cliProcess with XDG_RUNTIME_DIR set to runtime ("":
// unset, as in an ssh session, cron, sudo -u or a container).
func cliProcessIn(t *testing.T, runtime string, lines chan<- string, args ...string) (*exec.Cmd, io.WriteCloser, io.ReadCloser) {
	t.Helper()
	a, _ := json.Marshal(args)
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), runCLI+"="+string(a), "XDG_RUNTIME_DIR="+runtime)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	errR, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(errR)
		for sc.Scan() {
			t.Logf("%s[%d]: %s", args[2], cmd.Process.Pid, sc.Text())
			select {
			case lines <- sc.Text():
			default:
			}
		}
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	return cmd, in, out
}

// TestServeFindsTheDaemonFromTheDataDir: an app's 'serve' whose
// environment has another XDG_RUNTIME_DIR than the running Switchboard's
// (or none) uses its servers all the same, found from the data dir; with
// none running, serve says it starts the servers itself, naming the data
// dir, instead of starting them without a word, and why when the address
// the running one left was refused.
func TestServeFindsTheDaemonFromTheDataDir(t *testing.T) {
	dir := t.TempDir()
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"memory": map[string]any{"command": proctest.NPM(t, "mcp-server-memory"),
		"env": map[string]string{"MEMORY_FILE_PATH": filepath.Join(t.TempDir(), "memory.json")}}}})
	if err := os.WriteFile(filepath.Join(dir, "config.json"), cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	serve := func(runtime, want string) {
		t.Helper()
		lines := make(chan string, 64)
		_, in, out := cliProcessIn(t, runtime, lines, "--data-dir", dir, "serve")
		cl := client.NewClient(transport.NewIO(out, in, io.NopCloser(strings.NewReader(""))))
		if err := cl.Start(t.Context()); err != nil {
			t.Fatal(err)
		}
		init := mcp.InitializeRequest{}
		init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
		if _, err := cl.Initialize(t.Context(), init); err != nil {
			t.Fatal(err)
		}
		waitLine(t, lines, want, 30*time.Second)
		cl.Close()
		in.Close()
	}
	serve("", "no running Switchboard for "+dir+"; starting the servers here")

	short, err := os.MkdirTemp("", "sbrt") // a socket path has ~100 bytes
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(short) })
	if err := os.Chmod(short, 0o700); err != nil {
		t.Fatal(err)
	}
	dlines := make(chan string, 256)
	cliProcessIn(t, short, dlines, "--data-dir", dir, "daemon")
	waitLine(t, dlines, "sharing the servers of", 60*time.Second)
	other, err := os.MkdirTemp("", "sbrt")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(other) })
	for _, runtime := range []string{"", other} {
		serve(runtime, "using the servers of the running Switchboard")
	}
	// An address file others could have written is not followed, and
	// serve says why.
	if err := os.Chmod(filepath.Join(dir, "run", "address"), 0o666); err != nil {
		t.Fatal(err)
	}
	serve("", "starting the servers here (bridge: check "+filepath.Join(dir, "run", "address")+": others may write to it")
}
