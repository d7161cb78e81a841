package mcpmanager

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/mcpmanager/process"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

// faultServer is the misbehaving test server (proctest), built once per run.
var faultServer string

func TestMain(m *testing.M) {
	process.StopGrace, process.TermGrace = 500*time.Millisecond, 500*time.Millisecond
	supervisor.DefaultRestartDelay = 20 * time.Millisecond
	proctest.Main(m, &faultServer)
}

// TestRealServers runs the pinned npm servers plus a broken one, lists the
// namespaced tools (partial results), calls everything__echo and
// memory/filesystem tools, and checks that closing leaves no process behind.
func TestRealServers(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "hello.txt"), []byte("hello from the filesystem server"), 0o600)
	m := New(Options{LogDir: t.TempDir()})
	m.Apply([]ServerConfig{
		{Name: "everything", Command: proctest.NPM(t, "mcp-server-everything")},
		{Name: "memory", Command: proctest.NPM(t, "mcp-server-memory"), Env: map[string]string{"MEMORY_FILE_PATH": filepath.Join(root, "memory.jsonl")}},
		{Name: "filesystem", Command: proctest.NPM(t, "mcp-server-filesystem"), Args: []string{root}},
		{Name: "broken", Command: faultServer, Args: []string{"-mode", "exit-init"}, Restart: supervisor.Restart{Disabled: true}},
		{Name: "off", Command: faultServer, Disabled: true},
	})
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	m.WaitSettled(ctx)

	var pids []int
	for _, st := range m.Status() {
		want := supervisor.Ready
		switch st.Name {
		case "broken":
			want = supervisor.Error
		case "off":
			want = supervisor.Disabled
		}
		if st.State != want {
			t.Errorf("%s: %s (%s), want %s", st.Name, st.State, st.Error, want)
		}
		if st.PID != 0 {
			pids = append(pids, st.PID)
		}
	}

	tools, errs := m.Router().Tools(ctx)
	var names []string
	for _, tl := range tools {
		names = append(names, tl.Name)
	}
	for _, want := range []string{"everything__echo", "memory__read_graph", "memory__create_entities", "filesystem__read_text_file"} {
		if !slices.Contains(names, want) {
			t.Errorf("tool %s missing from %v", want, names)
		}
	}
	var errServers []string
	for _, e := range errs {
		errServers = append(errServers, e.Server)
	}
	slices.Sort(errServers)
	if fmt.Sprint(errServers) != "[broken off]" {
		t.Errorf("listing errors for %v, want [broken off]: %+v", errServers, errs)
	}

	res, err := m.Router().Call(ctx, "everything", "echo", map[string]any{"message": "hello switchboard"}, router.CallOptions{})
	if err != nil || !strings.Contains(mcptest.Text(res), "hello switchboard") {
		t.Fatalf("everything__echo = %v, %v", res, err)
	}
	res, err = m.Router().Call(ctx, "filesystem", "read_text_file", map[string]any{"path": filepath.Join(root, "hello.txt")}, router.CallOptions{})
	if err != nil || !strings.Contains(mcptest.Text(res), "hello from the filesystem server") {
		t.Fatalf("filesystem read = %v, %v", res, err)
	}
	_, err = m.Router().Call(ctx, "memory", "create_entities", map[string]any{"entities": []any{
		map[string]any{"name": "Switchboard", "entityType": "app", "observations": []any{"is an MCP host"}}}}, router.CallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, err = m.Router().Call(ctx, "memory", "read_graph", nil, router.CallOptions{})
	if err != nil || !strings.Contains(mcptest.Text(res), "is an MCP host") {
		t.Fatalf("memory read_graph = %v, %v", res, err)
	}
	// Progress notifications reach the caller that asked for them.
	var steps []router.Progress
	var mu sync.Mutex
	_, err = m.Router().Call(ctx, "everything", "trigger-long-running-operation", map[string]any{"duration": 0.3, "steps": 3},
		router.CallOptions{OnProgress: func(p router.Progress) { mu.Lock(); steps = append(steps, p); mu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	// Progress may trail the result (servers queue notifications apart from responses).
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		n := len(steps)
		last := router.Progress{}
		if n > 0 {
			last = steps[n-1]
		}
		mu.Unlock()
		if n >= 3 && last.Total == 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("progress = %+v", steps)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if got := m.Router().Metrics()["everything"].Calls; got != 2 {
		t.Errorf("everything calls = %d", got)
	}

	if err := m.Close(ctx); err != nil {
		t.Fatal(err)
	}
	proctest.WaitGone(t, pids...)
}

func TestFaultsKeepOthersWorking(t *testing.T) {
	m := New(Options{})
	m.Apply([]ServerConfig{
		{Name: "ok", Command: faultServer},
		{Name: "hang", Command: faultServer, Args: []string{"-mode", "hang-init"}, StartTimeout: 500 * time.Millisecond, Restart: supervisor.Restart{Disabled: true}},
		{Name: "garbage", Command: faultServer, Args: []string{"-mode", "garbage"}},
		{Name: "flood", Command: faultServer, Args: []string{"-mode", "stderr-flood"}},
		{Name: "slow", Command: faultServer, CallTimeout: 300 * time.Millisecond},
		{Name: "crashy", Command: faultServer, Restart: supervisor.Restart{MaxAttempts: 3}},
	})
	t.Cleanup(func() { m.Close(context.Background()) })
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	m.WaitSettled(ctx)

	// The hanging server fails alone, quickly, with a clear error.
	st := statusOf(m, "hang")
	if st.State != supervisor.Error || !strings.Contains(st.Error, "did not finish the MCP handshake") {
		t.Errorf("hang: %s %q", st.State, st.Error)
	}
	for _, name := range []string{"ok", "garbage", "flood"} {
		res, err := m.Router().Call(ctx, name, "echo", map[string]any{"text": name}, router.CallOptions{})
		if err != nil || mcptest.Text(res) != name {
			t.Errorf("%s echo = %v, %v", name, res, err)
		}
	}
	// A slow tool past its timeout gets an error naming the server.
	_, err := m.Router().Call(ctx, "slow", "sleep", map[string]any{"ms": 5000}, router.CallOptions{})
	if err == nil || !strings.Contains(err.Error(), "slow: sleep: tool call timed out") {
		t.Errorf("slow call err = %v", err)
	}
	// A crash mid-call is an error for that call; the server comes back.
	oldPID := statusOf(m, "crashy").PID
	if _, err := m.Router().Call(ctx, "crashy", "crash", nil, router.CallOptions{}); err == nil || !strings.HasPrefix(err.Error(), "crashy: crash: ") {
		t.Errorf("crash call err = %v", err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for st := statusOf(m, "crashy"); st.State != supervisor.Ready || st.PID == oldPID; st = statusOf(m, "crashy") {
		if time.Now().After(deadline) {
			t.Fatalf("crashy did not come back: %+v", st)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !proctest.Gone(oldPID) {
		t.Errorf("crashed pid %d still running", oldPID)
	}
	if res, err := m.Router().Call(ctx, "crashy", "echo", map[string]any{"text": "back"}, router.CallOptions{}); err != nil || mcptest.Text(res) != "back" {
		t.Errorf("after restart: %v, %v", res, err)
	}
}

func statusOf(m *Manager, name string) supervisor.Status {
	for _, st := range m.Status() {
		if st.Name == name {
			return st
		}
	}
	return supervisor.Status{}
}

func TestSameConfigComparesValues(t *testing.T) {
	remote := func() ServerConfig {
		return ServerConfig{Name: "r", Remote: &supervisor.Remote{URL: "https://example.com/mcp", Headers: map[string]string{"A": "b"}}}
	}
	if !sameConfig(remote(), remote()) {
		t.Error("equal remote configs in different allocations compare unequal: Apply would restart them")
	}
	changed := remote()
	changed.Remote.Headers["A"] = "c"
	if sameConfig(remote(), changed) {
		t.Error("a changed header must count as a change")
	}
}

// A server that does not run (disabled, a StartError, refused for a
// built-in's name) gets no log file: nothing would be written to it, and it
// would stay open.
func TestNoLogFileWithoutRun(t *testing.T) {
	logs := t.TempDir()
	m := New(Options{LogDir: logs})
	t.Cleanup(func() { m.Close(context.Background()) })
	m.Apply([]ServerConfig{
		{Name: "off", Command: faultServer, Disabled: true},
		{Name: "no-secret", Command: faultServer, StartError: "no-secret: the secret GITHUB_TOKEN is not set"},
		{Name: "workspace", Command: faultServer},
	})
	settle(t, m)
	if st := m.Status(); len(st) != 3 {
		t.Fatalf("Status() = %+v", st)
	}
	if entries, _ := os.ReadDir(logs); len(entries) != 0 {
		t.Errorf("log files: %v", entries)
	}
}

// TestWaitSettledAfterTheFirstFailure: a server that hangs in its
// handshake settles (for 'tools list', 'servers test', a saved form) when
// its first start fails, not after every restart attempt.
func TestWaitSettledAfterTheFirstFailure(t *testing.T) {
	m := New(Options{})
	t.Cleanup(func() { _ = m.Close(context.WithoutCancel(t.Context())) })
	m.Apply([]ServerConfig{{Name: "hang", Command: faultServer, Args: []string{"-mode", "hang-init"}, StartTimeout: 300 * time.Millisecond,
		Restart: supervisor.Restart{MaxAttempts: 5, Delay: 100 * time.Millisecond}}})
	m.WaitSettled(t.Context())
	st := m.Status()[0]
	if st.Restarts > 1 || st.Error == "" || !strings.Contains(st.Error, "handshake") {
		t.Fatalf("settled at %+v; want the first failure (one restart at most) with its reason", st)
	}
}
