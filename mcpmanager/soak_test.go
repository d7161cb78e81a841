//go:build soak

// The soak of 'make soak': ten stdio servers (the pinned npm servers and
// misbehaving Go ones) take SOAK_CALLS tool calls (default 20,000) from 8
// concurrent callers through the router while a chaos loop SIGKILLs a
// random server process every few seconds. Run:
//
//	make soak
//	SOAK_CALLS=2000 go test -tags soak -run TestSoak -v ./mcpmanager/
package mcpmanager

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/process"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

// Soak bounds; variables so a quick run can shorten them.
var (
	soakLimit     = 9 * time.Minute               // the whole soak, calls and checks
	soakCallLimit = 10 * time.Second              // every server's call timeout
	soakHang      = soakCallLimit + 5*time.Second // a call slower than this hung
	soakChaos     = 3 * time.Second               // between two SIGKILLs
	soakSettle    = 90 * time.Second              // for killed servers to come back
	soakLeakWait  = 15 * time.Second              // for goroutines, fds, children to go
)

const soakCallers = 8

// soakServer is one server of the soak and the calls it takes.
type soakServer struct {
	name string
	cfg  string                                              // its entry in the app config
	call func(r *rand.Rand) (string, map[string]any, string) // tool, arguments, text the result must contain
}

func TestSoak(t *testing.T) {
	calls := 20_000
	if v := os.Getenv("SOAK_CALLS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("SOAK_CALLS=%q: want a positive number of calls", v)
		}
		calls = n
	}
	ctx, cancel := context.WithTimeout(t.Context(), soakLimit)
	defer cancel()

	// Chaos kills servers far more often than a real crash loop, so a server
	// counts as stable after seconds (not a minute) and backs off briefly:
	// the soak checks that servers come back, not the give-up policy.
	oldStable, oldMaxDelay := supervisor.StableAfter, supervisor.MaxRestartDelay
	supervisor.StableAfter, supervisor.MaxRestartDelay = 2*time.Second, time.Second
	t.Cleanup(func() { supervisor.StableAfter, supervisor.MaxRestartDelay = oldStable, oldMaxDelay })

	// Baseline, after what lives as long as the process: the process
	// watchdog and the login shell's PATH.
	process.LoginPATH()
	warm, err := process.Start(process.Spec{Command: faultServer})
	if err != nil {
		t.Fatal(err)
	}
	_ = warm.Stop(ctx)
	proctest.WaitGone(t, warm.PID())
	baseGoroutines, baseFDs, baseChildren := runtime.NumGoroutine(), openFDs(t), proctest.Descendants(os.Getpid())

	root := t.TempDir()
	srvs := soakServers(t, root)
	dataDir := filepath.Join(root, "data")
	cfgPath := filepath.Join(dataDir, "config.json")
	var entries []string
	for _, s := range srvs {
		entries = append(entries, fmt.Sprintf("%q: %s", s.name, s.cfg))
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		t.Fatal(err)
	}
	cfgBytes := []byte(fmt.Sprintf("{\n  \"mcpServers\": {\n    %s\n  }\n}\n", strings.Join(entries, ",\n    ")))
	if err := os.WriteFile(cfgPath, cfgBytes, 0o600); err != nil {
		t.Fatal(err)
	}
	appCfg, err := config.Load(cfgPath)
	if err != nil {
		t.Fatalf("soak config: %v", err)
	}
	cfgs := Specs(appCfg.Servers, func(v string) (string, error) { return v, nil })
	for i := range cfgs {
		cfgs[i].CallTimeout = soakCallLimit
		cfgs[i].Restart = supervisor.Restart{MaxAttempts: 1000}
	}

	// Status events keep the latest state of every server.
	var stMu sync.Mutex
	states := map[string]supervisor.Status{}
	changed := make(chan struct{}, 1)
	m := New(Options{LogDir: filepath.Join(dataDir, "logs"), OnStatus: func(st supervisor.Status) {
		stMu.Lock()
		states[st.Name] = st
		stMu.Unlock()
		select {
		case changed <- struct{}{}:
		default:
		}
	}})
	closed := false
	defer func() {
		if !closed {
			m.Close(context.Background())
		}
	}()
	m.Apply(cfgs)
	waitAllReady := func(limit time.Duration) error {
		deadline := time.After(limit)
		for {
			stMu.Lock()
			ready := 0
			var notReady []string
			for _, s := range srvs {
				if states[s.name].State == supervisor.Ready {
					ready++
				} else {
					notReady = append(notReady, fmt.Sprintf("%s (%s %s)", s.name, states[s.name].State, states[s.name].Error))
				}
			}
			stMu.Unlock()
			if ready == len(srvs) {
				return nil
			}
			select {
			case <-changed:
			case <-deadline:
				return fmt.Errorf("not ready after %s: %s", limit, strings.Join(notReady, "; "))
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
	if err := waitAllReady(3 * time.Minute); err != nil {
		t.Fatal(err)
	}

	// Chaos: SIGKILL a random running server every soakChaos.
	var kills sync.Map // server → *atomic.Int64
	chaosCtx, stopChaos := context.WithCancel(ctx)
	chaosDone := make(chan struct{})
	go func() {
		defer close(chaosDone)
		r := rand.New(rand.NewPCG(1, 2))
		tick := time.NewTicker(soakChaos)
		defer tick.Stop()
		for {
			select {
			case <-chaosCtx.Done():
				return
			case <-tick.C:
			}
			s := srvs[r.IntN(len(srvs))]
			srv, err := m.Server(s.name)
			if err != nil {
				continue
			}
			if pid := srv.Status().PID; pid > 0 && syscall.Kill(pid, syscall.SIGKILL) == nil {
				n, _ := kills.LoadOrStore(s.name, new(atomic.Int64))
				n.(*atomic.Int64).Add(1)
			}
		}
	}()

	// Callers.
	var (
		next    atomic.Int64
		resMu   sync.Mutex
		kinds   = map[string]int{}
		slowest time.Duration
		hangs   []string
		unclear []string
	)
	start := time.Now()
	var wg sync.WaitGroup
	for c := range soakCallers {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(c), 7))
			for {
				i := next.Add(1)
				if i > int64(calls) || ctx.Err() != nil {
					return
				}
				s := srvs[r.IntN(len(srvs))]
				tool, args, want := s.call(r)
				t0 := time.Now()
				text, isError, err := soakCall(ctx, m.Router(), s.name, tool, args, i%2 == 0)
				took := time.Since(t0)
				kind := "ok"
				switch {
				case err != nil:
					kind = errKind(err)
					if !strings.Contains(err.Error(), s.name) {
						resMu.Lock()
						unclear = append(unclear, fmt.Sprintf("%s__%s: %v", s.name, tool, err))
						resMu.Unlock()
					}
				case isError:
					kind = "tool error"
				case !strings.Contains(text, want):
					kind = "wrong result"
					t.Errorf("%s__%s = %.200q, want it to contain %q", s.name, tool, text, want)
				}
				resMu.Lock()
				kinds[kind]++
				slowest = max(slowest, took)
				if took > soakHang {
					hangs = append(hangs, fmt.Sprintf("%s__%s took %s (%s)", s.name, tool, took.Round(time.Millisecond), kind))
				}
				resMu.Unlock()
			}
		})
	}
	wg.Wait()
	callTime := time.Since(start)
	stopChaos()
	<-chaosDone
	if ctx.Err() != nil {
		t.Fatalf("soak ran past its %s limit", soakLimit)
	}

	// Every server comes back and answers.
	if err := waitAllReady(soakSettle); err != nil {
		t.Errorf("after the chaos: %v", err)
	}
	r := rand.New(rand.NewPCG(9, 9))
	for _, s := range srvs {
		tool, args, want := s.call(r)
		if tool == "crash" {
			tool, args, want = "echo", map[string]any{"text": "back"}, "back"
		}
		text, _, err := soakCall(ctx, m.Router(), s.name, tool, args, false)
		if err != nil || !strings.Contains(text, want) {
			t.Errorf("%s after the chaos: %q, %v", s.name, text, err)
		}
	}
	restarts := map[string]int{}
	totalKills, totalRestarts := 0, 0
	for _, st := range m.Status() {
		restarts[st.Name] = st.Restarts
		totalRestarts += st.Restarts
		k := 0
		if n, ok := kills.Load(st.Name); ok {
			k = int(n.(*atomic.Int64).Load())
		}
		totalKills += k
		if st.Restarts < k {
			t.Errorf("%s was killed %d times but restarted %d", st.Name, k, st.Restarts)
		}
	}

	closeCtx, closeCancel := context.WithTimeout(context.Background(), time.Minute)
	defer closeCancel()
	if err := m.Close(closeCtx); err != nil {
		t.Errorf("close: %v", err)
	}
	closed = true

	// Nothing leaks: goroutines, fds and child processes return to the
	// baseline (polled: exits and reaping finish asynchronously).
	var goroutines, fds int
	var extra []int
	deadline := time.Now().Add(soakLeakWait)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		goroutines, fds = runtime.NumGoroutine()-baseGoroutines, openFDs(t)-baseFDs
		extra = slices.DeleteFunc(proctest.Descendants(os.Getpid()), func(pid int) bool { return slices.Contains(baseChildren, pid) })
		if (goroutines <= 0 && fds <= 0 && len(extra) == 0) || time.Now().After(deadline) {
			break
		}
		<-tick.C
	}
	if goroutines > 0 {
		buf := make([]byte, 1<<20)
		t.Errorf("%d goroutines leaked:\n%s", goroutines, buf[:runtime.Stack(buf, true)])
	}
	if fds > 0 {
		t.Errorf("%d file descriptors leaked", fds)
	}
	if len(extra) > 0 {
		var what []string
		for _, pid := range extra {
			what = append(what, fmt.Sprintf("%d %s", pid, proctest.Cmdline(pid)))
		}
		t.Errorf("child processes left: %s", strings.Join(what, "; "))
	}

	// The app config is untouched and still loads.
	after, err := os.ReadFile(cfgPath)
	if err != nil || !bytes.Equal(after, cfgBytes) {
		t.Errorf("config.json changed during the soak (%v)", err)
	}
	if again, err := config.Load(cfgPath); err != nil || len(again.Servers) != len(srvs) {
		t.Errorf("config.json no longer loads: %v", err)
	}

	for _, h := range hangs {
		t.Errorf("hung: %s", h)
	}
	for _, u := range unclear {
		t.Errorf("error that does not name its server: %s", u)
	}

	var summary strings.Builder
	fmt.Fprintf(&summary, "soak: %d calls from %d callers over %d servers in %s (slowest %s, limit %s)\n",
		calls, soakCallers, len(srvs), callTime.Round(time.Second), slowest.Round(time.Millisecond), soakCallLimit)
	for _, k := range slices.Sorted(maps.Keys(kinds)) {
		fmt.Fprintf(&summary, "  %-16s %d\n", k, kinds[k])
	}
	fmt.Fprintf(&summary, "  SIGKILLs %d, restarts %d:", totalKills, totalRestarts)
	for _, s := range srvs {
		k := 0
		if n, ok := kills.Load(s.name); ok {
			k = int(n.(*atomic.Int64).Load())
		}
		fmt.Fprintf(&summary, " %s %d/%d", s.name, k, restarts[s.name])
	}
	fmt.Fprintf(&summary, " (killed/restarted)\n  hangs %d, unclear errors %d\n", len(hangs), len(unclear))
	fmt.Fprintf(&summary, "  leaks after Close: goroutines %d, fds %d, child processes %d\n", max(goroutines, 0), max(fds, 0), len(extra))
	fmt.Fprintf(&summary, "  config.json byte-identical and loads: %v\n", bytes.Equal(after, cfgBytes))
	fmt.Print(summary.String())
}

// soakServers are the ten servers: the pinned npm ones and the testserver in
// the modes that serve (a hang-init or exit-init server never comes back,
// which is another test's business).
func soakServers(t *testing.T, root string) []soakServer {
	t.Helper()
	everything, memory, filesystem := proctest.NPM(t, "mcp-server-everything"), proctest.NPM(t, "mcp-server-memory"), proctest.NPM(t, "mcp-server-filesystem")
	files := filepath.Join(root, "files")
	if err := os.MkdirAll(files, 0o700); err != nil {
		t.Fatal(err)
	}
	cmd := func(command string, args ...string) string {
		b, _ := json.Marshal(map[string]any{"command": command, "args": args})
		return string(b)
	}
	echoMsg := func(r *rand.Rand) (string, map[string]any, string) {
		msg := fmt.Sprintf("soak-%d", r.IntN(1_000_000))
		return "echo", map[string]any{"message": msg}, msg
	}
	echoText := func(r *rand.Rand) (string, map[string]any, string) {
		msg := fmt.Sprintf("soak-%d", r.IntN(1_000_000))
		return "echo", map[string]any{"text": msg}, msg
	}
	memCfg, _ := json.Marshal(map[string]any{"command": memory, "env": map[string]string{"MEMORY_FILE_PATH": filepath.Join(root, "memory.jsonl")}})
	return []soakServer{
		{"everything-a", cmd(everything), echoMsg},
		{"everything-b", cmd(everything), echoMsg},
		{"memory", string(memCfg), func(*rand.Rand) (string, map[string]any, string) { return "read_graph", nil, "entities" }},
		{"filesystem", cmd(filesystem, files), func(*rand.Rand) (string, map[string]any, string) {
			return "list_allowed_directories", nil, files
		}},
		{"go-ok", cmd(faultServer), echoText},
		{"go-slow", cmd(faultServer), func(r *rand.Rand) (string, map[string]any, string) {
			return "sleep", map[string]any{"ms": 20 + r.IntN(300)}, "slept"
		}},
		{"go-crashy", cmd(faultServer), func(r *rand.Rand) (string, map[string]any, string) {
			if r.IntN(200) == 0 {
				return "crash", nil, "" // exits mid-call
			}
			return echoText(r)
		}},
		{"go-garbage", cmd(faultServer, "-mode", "garbage"), echoText},
		{"go-ignore-stdin", cmd(faultServer, "-mode", "ignore-stdin"), echoText},
		{"go-big", cmd(faultServer), func(r *rand.Rand) (string, map[string]any, string) {
			return "big", map[string]any{"bytes": 64 << 10}, strings.Repeat("x", 64<<10)
		}},
	}
}

// soakCall calls through the router, typed or relayed raw (the gateway's
// path), and returns the result's text.
func soakCall(ctx context.Context, reg *router.Router, server, tool string, args map[string]any, raw bool) (string, bool, error) {
	var res *mcp.CallToolResult
	if raw {
		b, _ := json.Marshal(args)
		out, err := reg.CallRaw(ctx, server, tool, b, router.CallOptions{})
		if err != nil {
			return "", false, err
		}
		if res, err = mcp.ParseCallToolResult(&out); err != nil {
			return "", false, fmt.Errorf("%s: %s: result: %w", server, tool, err)
		}
	} else {
		var err error
		if res, err = reg.Call(ctx, server, tool, args, router.CallOptions{}); err != nil {
			return "", false, err
		}
	}
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n"), res.IsError, nil
}

// errKind sorts a failed call for the summary.
func errKind(err error) string {
	switch {
	case errors.Is(err, router.ErrCallTimeout):
		return "timeout"
	case errors.Is(err, supervisor.ErrNotReady):
		return "not ready"
	case errors.Is(err, transport.ErrTransportClosed), strings.Contains(err.Error(), "transport closed"),
		strings.Contains(err.Error(), "file already closed"), strings.Contains(err.Error(), "broken pipe"):
		return "connection lost"
	}
	return "other: " + err.Error()
}

func openFDs(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(ents)
}
