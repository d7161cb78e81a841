package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
)

// runCLI names the environment variable that makes this test binary run
// cli.Run with the JSON array of arguments it holds (TestMain): the
// 'switchboard daemon' and 'switchboard serve' processes of these tests.
const runCLI = "SWITCHBOARD_TEST_RUN_CLI"

// cliProcess starts this test binary as 'switchboard ARGS...' and returns
// it with its stdin and stdout; its stderr lines go to lines.
func cliProcess(t *testing.T, lines chan<- string, args ...string) (*exec.Cmd, io.WriteCloser, io.ReadCloser) {
	t.Helper()
	a, _ := json.Marshal(args)
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), runCLI+"="+string(a), "XDG_RUNTIME_DIR=")
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
			if lines != nil {
				select {
				case lines <- sc.Text():
				default:
				}
			}
		}
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	return cmd, in, out
}

// waitLine waits for a line of lines containing s.
func waitLine(t *testing.T, lines <-chan string, s string, limit time.Duration) string {
	t.Helper()
	deadline := time.After(limit)
	for {
		select {
		case l := <-lines:
			if strings.Contains(l, s) {
				return l
			}
		case <-deadline:
			t.Fatalf("no line with %q within %s", s, limit)
		}
	}
}

// app is one MCP client app: its user answers forms with its own name and
// records what it was asked.
type app struct {
	name  string
	mu    sync.Mutex
	asked []string
}

func (a *app) Elicit(_ context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	a.mu.Lock()
	a.asked = append(a.asked, req.Params.Message)
	a.mu.Unlock()
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept,
		Content: map[string]any{"name": a.name + "'s user", "check": true, "integer": 7, "email": "a@example.com"}}}, nil
}

func (a *app) questions() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.asked...)
}

// connect starts 'serve --client NAME' as the app would and initializes.
func (a *app) connect(t *testing.T, dir string, lines chan<- string) (*exec.Cmd, *client.Client, io.WriteCloser) {
	t.Helper()
	cmd, in, out := cliProcess(t, lines, "--data-dir", dir, "serve", "--client", a.name)
	cl := client.NewClient(transport.NewIO(out, in, io.NopCloser(strings.NewReader(""))), client.WithElicitationHandler(a))
	if err := cl.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: a.name + "-app", Version: "1"}
	init.Params.Capabilities.Elicitation = &mcp.ElicitationCapability{}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	if _, err := cl.Initialize(ctx, init); err != nil {
		t.Fatalf("%s: initialize: %v", a.name, err)
	}
	return cmd, cl, in
}

func sharedCall(t *testing.T, cl *client.Client, name string, args map[string]any) (string, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = name, args
	res, err := cl.CallTool(ctx, req)
	if err != nil {
		t.Fatalf("call %s: %v", name, err)
	}
	return mcptest.Text(res), res.IsError
}

// tenServers writes config.json with ten servers: three npm ones (memory,
// everything, filesystem) and seven of the test server, each told apart
// by its -name.
func tenServers(t *testing.T, dir string) map[string]string {
	t.Helper()
	fs := proctest.FaultServer(t)
	root := t.TempDir()
	servers := map[string]any{
		"memory":     map[string]any{"command": proctest.NPM(t, "mcp-server-memory"), "env": map[string]string{"MEMORY_FILE_PATH": filepath.Join(root, "memory.json")}},
		"everything": map[string]any{"command": proctest.NPM(t, "mcp-server-everything")},
		"files":      map[string]any{"command": proctest.NPM(t, "mcp-server-filesystem"), "args": []string{root}},
	}
	marks := map[string]string{"memory": "server-memory", "everything": "server-everything", "files": "server-filesystem"}
	for i := 4; i <= 10; i++ {
		name := fmt.Sprintf("t%d", i)
		servers[name] = map[string]any{"command": fs, "args": []string{"-name", "shared-" + name}}
		marks[name] = "shared-" + name
	}
	b, _ := json.Marshal(map[string]any{"mcpServers": servers})
	if err := os.WriteFile(filepath.Join(dir, "config.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	return marks
}

// running counts, for each server's mark, the processes on this machine
// whose command line holds it, and lists the ones under each of pids.
func running(marks map[string]string) map[string]int {
	out := map[string]int{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		cmdline := proctest.Cmdline(atoi(e.Name()))
		if cmdline == "" {
			continue
		}
		for name, m := range marks {
			if strings.Contains(cmdline, m) && !strings.Contains(cmdline, "-test.run") {
				out[name]++
			}
		}
	}
	return out
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// TestSharedServers: with Switchboard running headless ('switchboard
// daemon', a process of its own) and three apps' 'serve' attached, each
// of ten configured servers (three npm ones) runs exactly once, under the
// daemon, and none under a serve; every app's calls go through; a form the
// everything server asks during one app's call reaches that app only.
// Killing the daemon (SIGKILL) makes each bridge start the servers itself
// and go on with the same session, within a bounded time.
func TestSharedServers(t *testing.T) {
	dir := t.TempDir()
	marks := tenServers(t, dir)
	before := running(marks)

	dlines := make(chan string, 256)
	daemon, _, _ := cliProcess(t, dlines, "--data-dir", dir, "daemon")
	waitLine(t, dlines, "sharing the servers of", 60*time.Second)

	apps := []*app{{name: "claude-code"}, {name: "cursor"}, {name: "zed"}}
	clients := make([]*client.Client, len(apps))
	serves := make([]*exec.Cmd, len(apps))
	lines := make([]chan string, len(apps))
	for i, a := range apps {
		lines[i] = make(chan string, 64)
		serves[i], clients[i], _ = a.connect(t, dir, lines[i])
		waitLine(t, lines[i], "using the servers of the running Switchboard", 30*time.Second)
	}

	// Every app lists every server's tools: all ten are up.
	for i, cl := range clients {
		mcptest.UntilNil(t, "every app lists the tools of all ten servers", func() error {
			ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
			defer cancel()
			res, err := cl.ListTools(ctx, mcp.ListToolsRequest{})
			if err != nil {
				return err
			}
			have := map[string]bool{}
			for _, tl := range res.Tools {
				have[strings.SplitN(tl.Name, "__", 2)[0]] = true
			}
			for name := range marks {
				if !have[name] {
					return fmt.Errorf("%s: no tools of %s yet", apps[i].name, name)
				}
			}
			return nil
		})
	}

	// Each server runs exactly once, and under the daemon.
	now := running(marks)
	under := map[string]int{}
	for _, pid := range proctest.Descendants(daemon.Process.Pid) {
		for name, m := range marks {
			if strings.Contains(proctest.Cmdline(pid), m) {
				under[name]++
			}
		}
	}
	for name, m := range marks {
		// The npm servers' marks are shared with any other test running
		// them at the same time (go test runs packages in parallel), so
		// only the test server's own marks are counted machine-wide.
		mine := strings.HasPrefix(m, "shared-")
		if under[name] != 1 || (mine && now[name]-before[name] != 1) {
			t.Errorf("server %s: %d processes more than before the test (counted for this test's own marks only: %v), %d under the daemon; want exactly 1", name, now[name]-before[name], mine, under[name])
		}
	}
	for i, s := range serves {
		if d := proctest.Descendants(s.Process.Pid); len(d) != 0 {
			t.Errorf("%s's serve started %d processes of its own; want none while attached", apps[i].name, len(d))
		}
	}

	// Calls from each app go through, to the one memory server they share.
	for i, cl := range clients {
		text, isErr := sharedCall(t, cl, "t4__echo", map[string]any{"text": "from " + apps[i].name})
		if isErr || !strings.Contains(text, "from "+apps[i].name) {
			t.Fatalf("%s: t4__echo = %q (error %v)", apps[i].name, text, isErr)
		}
		if _, isErr := sharedCall(t, cl, "memory__create_entities", map[string]any{"entities": []any{map[string]any{"name": apps[i].name, "entityType": "app", "observations": []string{"attached"}}}}); isErr {
			t.Fatalf("%s: memory__create_entities failed", apps[i].name)
		}
	}
	graph, _ := sharedCall(t, clients[2], "memory__read_graph", nil)
	for _, a := range apps {
		if !strings.Contains(graph, a.name) {
			t.Errorf("the shared memory server's graph, read by zed, lacks %s's entity: %s", a.name, graph)
		}
	}

	// A form asked during cursor's call reaches cursor only.
	text, isErr := sharedCall(t, clients[1], "everything__trigger-elicitation-request", nil)
	if isErr || !strings.Contains(text, "cursor's user") {
		t.Fatalf("cursor's elicitation call = %q (error %v); want cursor's user's answer", text, isErr)
	}
	for i, a := range apps {
		q := a.questions()
		if want := map[bool]int{true: 1, false: 0}[a.name == "cursor"]; len(q) != want {
			t.Errorf("app %d (%s) was asked %d forms (%v), want %d", i, a.name, len(q), q, want)
		}
	}

	// Kill the running Switchboard: each bridge says so, starts the
	// servers itself and the same session goes on.
	if err := daemon.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for i := range apps {
		waitLine(t, lines[i], "went away", 15*time.Second)
	}
	for i, cl := range clients {
		mcptest.Within(t, time.Minute, apps[i].name+"'s calls go through again after the daemon died", func() error {
			ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
			defer cancel()
			req := mcp.CallToolRequest{}
			req.Params.Name, req.Params.Arguments = "t5__echo", map[string]any{"text": "after the daemon"}
			res, err := cl.CallTool(ctx, req)
			if err != nil {
				return err
			}
			if text := mcptest.Text(res); res.IsError || !strings.Contains(text, "after the daemon") {
				return fmt.Errorf("t5__echo = %q", text)
			}
			return nil
		})
		if d := proctest.Descendants(serves[i].Process.Pid); len(d) == 0 {
			t.Errorf("%s's serve runs no server after the daemon died", apps[i].name)
		}
	}
}
