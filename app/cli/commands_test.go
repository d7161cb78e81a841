package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
)

// cliEnv runs the CLI with a private data dir.
func runIn(t *testing.T, dataDir string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(t.Context(), append([]string{"--data-dir", dataDir}, args...), Env{Stdout: &out, Stderr: &errb})
	return code, out.String(), errb.String()
}

func writeFile(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestServersImportFlow(t *testing.T) {
	data := t.TempDir()
	file := writeFile(t, "claude_desktop_config.json", `{
  // comment
  "mcpServers": {
    "memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]},
    "bad": {"command": "x", "args": "-y"},
  }
}`)
	code, out, errOut := runIn(t, data, "servers", "import", file, "--dry-run")
	if code != ExitUsage || !strings.Contains(out, "memory  added") || !strings.Contains(out, "bad     invalid") ||
		!strings.Contains(out, "mcpServers.bad.args: must be an array of strings") || !strings.Contains(out, "dry run: nothing was changed") {
		t.Fatalf("dry run: exit %d\n%s\n%s", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(data, "config.json")); !os.IsNotExist(err) {
		t.Fatal("dry run wrote the config")
	}
	code, _, errOut = runIn(t, data, "servers", "import", file)
	if code != ExitUsage || !strings.Contains(errOut, "1 server(s)") {
		t.Fatalf("import: exit %d %s", code, errOut)
	}
	cfg, err := config.Load(filepath.Join(data, "config.json"))
	if err != nil || len(cfg.Servers) != 1 || cfg.Servers[0].Name != "memory" {
		t.Fatalf("saved config = %+v, %v", cfg, err)
	}
	// Importing again: unchanged. A different server under the same name conflicts and is kept.
	code, out, _ = runIn(t, data, "--json", "servers", "import", writeFile(t, "c.json", `{"mcpServers":{"memory":{"command":"uvx","args":["other"]}}}`), "--dry-run")
	var plan struct {
		Items []struct{ Name, Outcome, Resolution string }
	}
	if err := json.Unmarshal([]byte(out), &plan); err != nil || code != 0 {
		t.Fatalf("json plan: %v %q", err, out)
	}
	if plan.Items[0].Outcome != "conflicting" || plan.Items[0].Resolution != "keep" {
		t.Fatalf("plan = %+v", plan)
	}
	if code, _, _ := runIn(t, data, "servers", "import", writeFile(t, "c.json", `{"mcpServers":{"memory":{"command":"uvx"}}}`), "--resolve", "memory=rename"); code != 0 {
		t.Fatalf("rename import exit %d", code)
	}
	code, out, _ = runIn(t, data, "servers", "list")
	if code != 0 || !strings.Contains(out, "memory-2") {
		t.Fatalf("list after rename:\n%s", out)
	}
	for _, c := range [][]string{{"servers", "disable", "memory"}, {"servers", "remove", "memory-2"}} {
		if code, _, e := runIn(t, data, c...); code != 0 {
			t.Fatalf("%v: %d %s", c, code, e)
		}
	}
	cfg, _ = config.Load(filepath.Join(data, "config.json"))
	if len(cfg.Servers) != 1 || !cfg.Servers[0].Disabled {
		t.Fatalf("after disable/remove: %+v", cfg.Servers)
	}
	if code, _, e := runIn(t, data, "servers", "remove", "nope"); code != ExitUsage || !strings.Contains(e, `no server named "nope"`) {
		t.Fatalf("remove unknown: %d %s", code, e)
	}
	if code, _, e := runIn(t, data, "servers", "import", writeFile(t, "x.json", `{"mcpServers": {`)); code != ExitUsage || !strings.Contains(e, "x.json:1:") {
		t.Fatalf("syntax error: %d %s", code, e)
	}
}

func TestToolsListAndCallWithConfigFile(t *testing.T) {
	fs := proctest.FaultServer(t)
	file := writeFile(t, "mcp.json", fmt.Sprintf(`{"mcpServers": {"fault": {"command": %q}, "gone": {"command": "switchboard-no-such-cmd"}}}`, fs))
	data := t.TempDir()
	code, out, errOut := runIn(t, data, "tools", "list", "--config", file)
	if code != 0 || !strings.Contains(out, "fault__echo") || !strings.Contains(errOut, "switchboard-no-such-cmd was not found") {
		t.Fatalf("tools list: %d\n%s\n%s", code, out, errOut)
	}
	code, out, errOut = runIn(t, data, "tools", "call", "fault__echo", "--args", `{"text":"from the cli"}`, "--config", file)
	if code != 0 || strings.TrimSpace(out) != "from the cli" {
		t.Fatalf("tools call: %d %q %s", code, out, errOut)
	}
	if code, _, e := runIn(t, data, "tools", "call", "fault__echo", "--args", `[1]`, "--config", file); code != ExitUsage || !strings.Contains(e, "--args must be a JSON object") {
		t.Fatalf("bad args: %d %s", code, e)
	}
	if code, _, e := runIn(t, data, "tools", "call", "gone__x", "--config", file); code != ExitRuntime || !strings.Contains(e, "not found") {
		t.Fatalf("call to broken server: %d %s", code, e)
	}
}

// TestServeExposesRegistry speaks MCP to 'switchboard serve' over pipes.
func TestServeExposesRegistry(t *testing.T) {
	fs := proctest.FaultServer(t)
	file := writeFile(t, "mcp.json", fmt.Sprintf(`{"mcpServers": {"a": {"command": %q}, "b": {"command": %q}}}`, fs, fs))
	ctx := t.Context()
	cl, res, stop := stdioSession(t, "--data-dir", t.TempDir(), "serve", "--config", file)
	if res.ServerInfo.Name != "switchboard" {
		t.Fatalf("initialize: %+v", res)
	}
	progress := make(chan mcp.JSONRPCNotification, 10)
	cl.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == "notifications/progress" {
			progress <- n
		}
	})
	ictx, icancel := context.WithTimeout(ctx, 30*time.Second)
	defer icancel()
	tools, err := cl.ListTools(ictx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
	}
	if !strings.Contains(strings.Join(names, ","), "a__echo") || !strings.Contains(strings.Join(names, ","), "b__sleep") {
		t.Fatalf("tools = %v", names)
	}
	call := mcp.CallToolRequest{}
	call.Params.Name = "b__echo"
	call.Params.Arguments = map[string]any{"text": "through the gateway"}
	out, err := cl.CallTool(ictx, call)
	if err != nil || out.Content[0].(mcp.TextContent).Text != "through the gateway" {
		t.Fatalf("call = %+v %v", out, err)
	}
	// Progress from the server reaches our client under our own token.
	call.Params.Name = "a__progress"
	call.Params.Meta = &mcp.Meta{ProgressToken: "mine-42"}
	if _, err := cl.CallTool(ictx, call); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 3; i++ {
		select {
		case n := <-progress:
			if n.Params.AdditionalFields["progressToken"] != "mine-42" || n.Params.AdditionalFields["message"] != fmt.Sprintf("step %d", i) {
				t.Fatalf("progress %d = %+v", i, n.Params.AdditionalFields)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("progress %d never arrived", i)
		}
	}
	call.Params.Meta = nil
	call.Params.Name = "a__crash"
	out, err = cl.CallTool(ictx, call)
	if err != nil || !out.IsError || !strings.Contains(out.Content[0].(mcp.TextContent).Text, "a: crash:") {
		t.Fatalf("crash through gateway = %+v %v (want a tool error naming the server)", out, err)
	}
	if code := stop(); code != 0 {
		t.Errorf("serve exit %d", code)
	}
}

// stdioSession runs the CLI with args, speaks MCP to it over pipes and
// returns the initialized client. stop ends the input, as a host closing
// the server does, and returns the exit code (failing if it does not exit).
func stdioSession(t *testing.T, args ...string) (*client.Client, *mcp.InitializeResult, func() int) {
	t.Helper()
	return stdioSessionWithin(t, 30*time.Second, args...)
}

// stdioSessionWithin is stdioSession failing the test when initialize
// takes longer than limit.
func stdioSessionWithin(t *testing.T, limit time.Duration, args ...string) (*client.Client, *mcp.InitializeResult, func() int) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- Run(t.Context(), args, Env{Stdin: inR, Stdout: outW, Stderr: io.Discard})
		outW.Close()
	}()
	cl := client.NewClient(transport.NewIO(outR, inW, nil))
	if err := cl.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	ictx, cancel := context.WithTimeout(t.Context(), limit)
	defer cancel()
	res, err := cl.Initialize(ictx, init)
	if err != nil {
		t.Fatalf("initialize %v: %v", args, err)
	}
	stop := func() int {
		t.Helper()
		cl.Close()
		inW.Close()
		select {
		case code := <-done:
			return code
		case <-time.After(20 * time.Second):
			var stacks strings.Builder
			_ = pprof.Lookup("goroutine").WriteTo(&stacks, 1) // where it is stuck, for the next reader of a CI log
			t.Fatalf("%v did not stop at end of input; its goroutines:\n%s", args, stacks.String())
			return -1
		}
	}
	return cl, res, stop
}

// syncBuffer is a bytes.Buffer safe to read while Run writes to it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

func TestServeHTTP(t *testing.T) {
	file := writeFile(t, "mcp.json", fmt.Sprintf(`{"mcpServers": {"a": {"command": %q}}}`, proctest.FaultServer(t)))
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	// A token anyone could guess is refused before anything listens.
	for _, weak := range []string{" ", "short-token", " test-token-0123456789 "} {
		t.Setenv("SWITCHBOARD_SERVE_TOKEN", weak)
		var werr bytes.Buffer
		if code := Run(t.Context(), []string{"--data-dir", t.TempDir(), "serve", "--config", file, "--http", addr}, Env{Stdout: io.Discard, Stderr: &werr}); code != 2 || !strings.Contains(werr.String(), "SWITCHBOARD_SERVE_TOKEN must be at least 16 characters") {
			t.Fatalf("token %q: exit %d: %s", weak, code, werr.String())
		}
	}
	t.Setenv("SWITCHBOARD_SERVE_TOKEN", "test-token-0123456789")
	ctx, cancel := context.WithCancel(t.Context())
	var errb syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- Run(ctx, []string{"--data-dir", t.TempDir(), "serve", "--config", file, "--http", addr}, Env{Stdout: io.Discard, Stderr: &errb})
	}()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(errb.String(), "Authorization: Bearer test-token-0123456789") {
		if time.Now().After(deadline) {
			t.Fatalf("serve --http did not start: %s", errb.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	hc, err := client.NewStreamableHttpClient("http://"+addr+"/mcp", transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer test-token-0123456789"}))
	if err != nil {
		t.Fatal(err)
	}
	if err := hc.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	if _, err := hc.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	call := mcp.CallToolRequest{}
	call.Params.Name = "a__echo"
	call.Params.Arguments = map[string]any{"text": "http gateway"}
	res, err := hc.CallTool(ctx, call)
	if err != nil || res.Content[0].(mcp.TextContent).Text != "http gateway" {
		t.Fatalf("call = %+v %v", res, err)
	}
	hc.Close()
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit %d: %s", code, errb.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("serve --http did not stop")
	}
}
