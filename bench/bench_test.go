//go:build bench

// The benchmark table's rows for the whole product: tool calls through the
// router, 'switchboard serve', start-up, memory, the window, import and
// sizes. See doc.go for how to run them.
package bench_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/process"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

// envRelay makes the test binary a byte-copying stdio relay in front of the
// command it names: the floor any stdio proxy pays (two more pipe hops, no
// JSON), against which 'switchboard serve' is judged.
const envRelay = "SWITCHBOARD_BENCH_RELAY"

func init() {
	if cmd := os.Getenv(envRelay); cmd != "" {
		os.Exit(relay(cmd))
	}
}

func relay(command string) int {
	c := exec.Command(command)
	c.Stderr = os.Stderr
	in, _ := c.StdinPipe()
	out, _ := c.StdoutPipe()
	if err := c.Start(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	// Large buffers, so a big message crosses in few writes, as serve's do.
	go func() {
		_, _ = io.CopyBuffer(in, os.Stdin, make([]byte, 1<<20))
		in.Close()
	}()
	_, _ = io.CopyBuffer(os.Stdout, out, make([]byte, 1<<20))
	_ = c.Wait()
	return 0
}

type row struct{ name, ours, base, ratio, target string }

type table struct{ rows []row }

func (tb *table) add(name, ours, base string, ratio float64, target string) {
	r := fmt.Sprintf("%.2f×", ratio)
	if ratio == 0 { // a size or a count with nothing to compare to
		r = ""
	}
	tb.rows = append(tb.rows, row{name, ours, base, r, target})
}

func (tb *table) dur(name string, ours, base time.Duration, target string) {
	tb.add(name, round(ours).String(), round(base).String(), float64(ours)/float64(base), target)
}

// round keeps three significant figures.
func round(d time.Duration) time.Duration {
	for _, u := range []time.Duration{time.Second, time.Millisecond, time.Microsecond} {
		if d >= u {
			return d.Round(u / 1000)
		}
	}
	return d
}

func mb(kb int64) string { return fmt.Sprintf("%.1f MB", float64(kb)/1024) }

func pct(d []time.Duration, p float64) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[min(len(s)-1, int(float64(len(s))*p))]
}

func median(d []time.Duration) time.Duration { return pct(d, 0.5) }

func TestBenchTable(t *testing.T) {
	tb := &table{}
	everything := proctest.NPM(t, "mcp-server-everything")
	bin := appBinary(t)
	load := loadAvg()
	sections := []struct {
		name string
		run  func(t *testing.T, tb *table)
	}{
		{"calls", func(t *testing.T, tb *table) { benchCalls(t, tb, everything) }},
		{"serve", func(t *testing.T, tb *table) { benchServe(t, tb, everything, bin) }},
		{"shared", func(t *testing.T, tb *table) { benchShared(t, tb, everything, bin) }},
		{"bridge", func(t *testing.T, tb *table) { benchBridge(t, tb, everything, bin) }},
		{"concurrency", func(t *testing.T, tb *table) { benchConcurrency(t, tb, everything) }},
		{"startup", func(t *testing.T, tb *table) { benchStartup(t, tb, everything) }},
		{"firstlist", func(t *testing.T, tb *table) { benchFirstList(t, tb, everything, bin) }},
		{"memory", func(t *testing.T, tb *table) { benchMemory(t, tb, everything, bin) }},
		{"window", func(t *testing.T, tb *table) { benchWindow(t, tb, everything, bin) }},
		{"show", func(t *testing.T, tb *table) { benchShow(t, tb, bin) }},
		{"day", func(t *testing.T, tb *table) { benchDay(t, tb, everything, bin) }},
		{"chromium", func(t *testing.T, tb *table) { benchBesideChromium(t, tb, bin) }},
		{"import", func(t *testing.T, tb *table) { benchImport(t, tb); benchImportScale(t, tb, bin) }},
		{"size", func(t *testing.T, tb *table) { benchSize(t, tb, bin) }},
	}
	only := os.Getenv("BENCH_ONLY") // "window,chromium": run those sections only
	for _, s := range sections {
		if only != "" && !slices.Contains(strings.Split(only, ","), s.name) {
			continue
		}
		t.Run(s.name, func(t *testing.T) {
			start := time.Now()
			s.run(t, tb)
			t.Logf("%s took %s", s.name, time.Since(start).Round(time.Second))
		})
	}

	var b strings.Builder
	fmt.Fprintf(&b, "\n| measure | switchboard | baseline | ratio | target |\n|---|---|---|---|---|\n")
	for _, r := range tb.rows {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", r.name, r.ours, r.base, r.ratio, r.target)
	}
	fmt.Fprintf(&b, "\nmachine: %s/%s, %d CPUs (%s), %s, load average %s at the start of the product rows (bench/)\n",
		runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), cpuModel(), runtime.Version(), load)
	fmt.Print(b.String())
	if out := os.Getenv("BENCH_OUT"); out != "" {
		f, err := os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteString(b.String()); err != nil {
			t.Fatal(err)
		}
	}
}

// appBinary is the production binary 'make build' writes (or SWITCHBOARD_BIN).
func appBinary(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("SWITCHBOARD_BIN")
	if bin == "" {
		bin, _ = filepath.Abs("../build/bin/switchboard")
	}
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("%s is missing: run 'make bench' (it runs 'make build' first) or set SWITCHBOARD_BIN: %v", bin, err)
	}
	return bin
}

// stdioClient starts command as an MCP server and initializes a bare mcp-go
// client on it; it returns the client and the process it runs.
func stdioClient(t *testing.T, env []string, command string, args ...string) (*client.Client, *os.Process) {
	t.Helper()
	c, p, _ := stdioClientVersion(t, mcp.LATEST_PROTOCOL_VERSION, env, command, args...)
	return c, p
}

// stdioClientVersion is stdioClient asking for protocol version and
// returning the one the server chose. The version matters to a comparison:
// on 2026-07-28 mcp-go's client re-encodes every request's params three
// more times (per-request _meta), work the baseline would not do.
func stdioClientVersion(t *testing.T, version string, env []string, command string, args ...string) (*client.Client, *os.Process, string) {
	t.Helper()
	var cmd *exec.Cmd
	tr := transport.NewStdioWithOptions(command, env, args, transport.WithCommandFunc(
		func(ctx context.Context, command string, env []string, args []string) (*exec.Cmd, error) {
			cmd = exec.CommandContext(ctx, command, args...)
			cmd.Env = env
			return cmd, nil
		}))
	if err := tr.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	// A 2026-07-28 client first probes with server/discover and falls back
	// to the 2025 handshake when no answer comes within 5 s: on a loaded
	// machine serve's start-up takes longer, and the rows would then
	// measure the wrong era (the test fails on that).
	c := client.NewClient(tr, client.WithDiscoverTimeout(time.Minute))
	t.Cleanup(func() { c.Close() })
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = version
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	res, err := c.Initialize(ctx, init)
	if err != nil {
		t.Fatalf("initialize %s: %v", command, err)
	}
	return c, cmd.Process, res.ProtocolVersion
}

func echo(ctx context.Context, c *client.Client, tool, msg string) error {
	return callText(ctx, c, tool, "message", msg)
}

// callText calls tool with one string argument.
func callText(ctx context.Context, c *client.Client, tool, arg, msg string) error {
	req := mcp.CallToolRequest{}
	req.Params.Name = tool
	req.Params.Arguments = map[string]any{arg: msg}
	res, err := c.CallTool(ctx, req)
	if err == nil && res.IsError {
		err = fmt.Errorf("%s: tool error: %v", tool, res.Content)
	}
	return err
}

// newManager returns a Manager whose servers have all reported ready, and
// closes it at cleanup.
func newManager(t *testing.T, cfgs []mcpmanager.ServerConfig) *mcpmanager.Manager {
	t.Helper()
	m, _ := startTogether(t, cfgs)
	t.Cleanup(func() { m.Close(context.Background()) })
	return m
}

// startTogether applies cfgs and returns once every server reported ready
// (status events, not polling), with the time that took.
func startTogether(t *testing.T, cfgs []mcpmanager.ServerConfig) (*mcpmanager.Manager, time.Duration) {
	t.Helper()
	events := make(chan supervisor.Status, 64*len(cfgs))
	m := mcpmanager.New(mcpmanager.Options{OnStatus: func(st supervisor.Status) { events <- st }})
	t0 := time.Now()
	m.Apply(cfgs)
	ready := map[string]bool{}
	timeout := time.After(3 * time.Minute)
	for len(ready) < len(cfgs) {
		select {
		case st := <-events:
			switch st.State {
			case supervisor.Ready:
				ready[st.Name] = true
			case supervisor.Error:
				m.Close(context.Background())
				t.Fatalf("%s did not start: %s", st.Name, st.Error)
			}
		case <-timeout:
			m.Close(context.Background())
			t.Fatalf("servers not ready after 3 minutes: %d of %d", len(ready), len(cfgs))
		}
	}
	return m, time.Since(t0)
}

func servers(n int, prefix string, cfg mcpmanager.ServerConfig) []mcpmanager.ServerConfig {
	var out []mcpmanager.ServerConfig
	for i := range n {
		c := cfg
		c.Name = fmt.Sprintf("%s%d", prefix, i)
		out = append(out, c)
	}
	return out
}

// benchCalls: tools/call through the router vs a bare mcp-go client on
// the same kind of server, interleaved.
func benchCalls(t *testing.T, tb *table, everything string) {
	ctx := t.Context()
	bare, _ := stdioClient(t, os.Environ(), everything)
	m := newManager(t, []mcpmanager.ServerConfig{{Name: "everything", Command: everything}})
	for _, size := range []int{100, 100 << 10, 5 << 20} {
		msg := strings.Repeat("x", size)
		n := map[int]int{100: 400, 100 << 10: 100, 5 << 20: 10}[size]
		var ours, base []time.Duration
		for range n {
			t0 := time.Now()
			if err := echo(ctx, bare, "echo", msg); err != nil {
				t.Fatal(err)
			}
			base = append(base, time.Since(t0))
			t0 = time.Now()
			if _, err := m.Router().Call(ctx, "everything", "echo", map[string]any{"message": msg}, router.CallOptions{}); err != nil {
				t.Fatal(err)
			}
			ours = append(ours, time.Since(t0))
		}
		tb.dur(fmt.Sprintf("tools/call echo %s p50: registry vs bare mcp-go", human(size)), pct(ours, .5), pct(base, .5), "≤ 1.10×")
		tb.dur(fmt.Sprintf("tools/call echo %s p95: registry vs bare mcp-go", human(size)), pct(ours, .95), pct(base, .95), "")
	}
}

// benchServe: the same bare client on the server directly, through
// 'switchboard serve' (stdio), and through a byte-copying relay (the floor
// of any stdio proxy), interleaved.
func benchServe(t *testing.T, tb *table, everything, bin string) {
	ctx := t.Context()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(cfg, fmt.Appendf(nil, `{"mcpServers":{"everything":{"command":%q}}}`, everything), 0o600); err != nil {
		t.Fatal(err)
	}
	// Like with like: the client speaks to serve the protocol version the
	// server chose for the direct session.
	direct, _, version := stdioClientVersion(t, mcp.LATEST_PROTOCOL_VERSION, os.Environ(), everything)
	serve, serveP, v := stdioClientVersion(t, version, append(os.Environ(), "SWITCHBOARD_DATA_DIR="+filepath.Join(dir, "data")), bin, "serve", "--config", cfg)
	if v != version {
		t.Fatalf("serve chose protocol %s, the server directly %s: the rows would not compare like with like", v, version)
	}
	// A client of the newest revision (2026-07-28, what current clients
	// such as Claude Code ask for) against the same direct session: the
	// server speaks the revision it chose, so that is the call the client
	// would make without serve.
	modernServe, modernP, mv := stdioClientVersion(t, mcp.ProtocolVersion20260728, append(os.Environ(), "SWITCHBOARD_DATA_DIR="+filepath.Join(dir, "data")), bin, "serve", "--config", cfg)
	if mv != mcp.ProtocolVersion20260728 {
		t.Fatalf("serve chose protocol %s for a %s client", mv, mcp.ProtocolVersion20260728)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	relayed, relayP, _ := stdioClientVersion(t, version, append(os.Environ(), envRelay+"="+everything), self)
	// Like with like for the newest revision: server-everything speaks only
	// 2025-11-25, so a 2026-07-28 client's call through serve is also
	// measured against the same client on a server of that revision (the
	// project's testserver, whose greet answers "Hello, NAME!"), directly
	// and through serve.
	modernBin := proctest.ModernServer(t)
	modernCfg := filepath.Join(dir, "modern.json")
	if err := os.WriteFile(modernCfg, fmt.Appendf(nil, `{"mcpServers":{"modern":{"command":%q}}}`, modernBin), 0o600); err != nil {
		t.Fatal(err)
	}
	modernDirect, _, dv := stdioClientVersion(t, mcp.ProtocolVersion20260728, os.Environ(), modernBin)
	modernBoth, modernBothP, bv := stdioClientVersion(t, mcp.ProtocolVersion20260728, append(os.Environ(), "SWITCHBOARD_DATA_DIR="+filepath.Join(dir, "data-modern")), bin, "serve", "--config", modernCfg)
	// The floor of that row: the same client through the byte-copying
	// relay, on the same server.
	modernRelayed, modernRelayP, rv := stdioClientVersion(t, mcp.ProtocolVersion20260728, append(os.Environ(), envRelay+"="+modernBin), self)
	if dv != mcp.ProtocolVersion20260728 || bv != mcp.ProtocolVersion20260728 || rv != mcp.ProtocolVersion20260728 {
		t.Fatalf("the 2026-07-28 server spoke %s directly, %s through serve and %s through the relay", dv, bv, rv)
	}
	for _, size := range []int{100, 100 << 10, 5 << 20} {
		msg := strings.Repeat("x", size)
		n := map[int]int{100: 400, 100 << 10: 100, 5 << 20: 8}[size]
		var ours, modern, base, floor, bothDirect, bothServe, bothFloor []time.Duration
		// Where the time goes, whatever the machine's load: each proxy
		// process's CPU and run-queue wait (schedstat), and the client's own
		// CPU (this process's, while its call runs), per call.
		type cost struct{ proxyCPU, proxyWait, clientCPU time.Duration }
		costs := map[*[]time.Duration]*cost{&base: {}, &ours: {}, &modern: {}, &floor: {}, &bothDirect: {}, &bothServe: {}, &bothFloor: {}}
		for range n {
			for _, c := range []struct {
				cl        *client.Client
				tool, arg string
				lat       *[]time.Duration
				p         *os.Process
			}{
				{direct, "echo", "message", &base, nil}, {serve, "everything__echo", "message", &ours, serveP},
				{modernServe, "everything__echo", "message", &modern, modernP}, {relayed, "echo", "message", &floor, relayP},
				{modernDirect, "greet", "name", &bothDirect, nil}, {modernBoth, "modern__greet", "name", &bothServe, modernBothP},
				{modernRelayed, "greet", "name", &bothFloor, modernRelayP},
			} {
				var cpu0, wait0 time.Duration
				if c.p != nil {
					cpu0, wait0 = schedstat(c.p.Pid)
				}
				self0 := selfCPU()
				t0 := time.Now()
				if err := callText(ctx, c.cl, c.tool, c.arg, msg); err != nil {
					t.Fatal(err)
				}
				*c.lat = append(*c.lat, time.Since(t0))
				k := costs[c.lat]
				k.clientCPU += selfCPU() - self0
				if c.p != nil {
					cpu, wait := schedstat(c.p.Pid)
					k.proxyCPU, k.proxyWait = k.proxyCPU+cpu-cpu0, k.proxyWait+wait-wait0
				}
			}
		}
		per := func(d time.Duration) time.Duration { return d / time.Duration(n) }
		tb.dur(fmt.Sprintf("tools/call echo %s, the proxy's CPU per call: switchboard serve (%s client) vs the byte-copying relay", human(size), version), per(costs[&ours].proxyCPU), per(costs[&floor].proxyCPU), "")
		tb.dur(fmt.Sprintf("tools/call echo %s, the proxy's CPU per call: switchboard serve, %s client vs %s client", human(size), mcp.ProtocolVersion20260728, version), per(costs[&modern].proxyCPU), per(costs[&ours].proxyCPU), "")
		tb.dur(fmt.Sprintf("tools/call echo %s, the proxy's wait for a CPU per call (run queue): switchboard serve (%s client) vs the byte-copying relay", human(size), version), per(costs[&ours].proxyWait), per(costs[&floor].proxyWait), "")
		tb.dur(fmt.Sprintf("tools/call echo %s, the client's own CPU per call: mcp-go on %s (through serve) vs on %s (direct)", human(size), mcp.ProtocolVersion20260728, version), per(costs[&modern].clientCPU), per(costs[&base].clientCPU), "")
		tb.dur(fmt.Sprintf("tools/call echo %s p50: through switchboard serve (stdio) vs direct", human(size)), pct(ours, .5), pct(base, .5), "≤ 1.25×")
		if size == 100 {
			tb.dur("tools/call echo 100 B p95: through switchboard serve (stdio) vs direct", pct(ours, .95), pct(base, .95), "")
		}
		tb.dur(fmt.Sprintf("tools/call echo %s p50: a %s client through switchboard serve (stdio) vs direct (%s)", human(size), mcp.ProtocolVersion20260728, version), pct(modern, .5), pct(base, .5), "≤ 1.25×")
		tb.dur(fmt.Sprintf("tools/call echo %s p50: byte-copying stdio relay (no JSON: any proxy's floor) vs direct", human(size)), pct(floor, .5), pct(base, .5), "")
		tb.dur(fmt.Sprintf("tools/call greet %s p50: a %s client through switchboard serve (stdio) vs the same client direct, both on a %s server (the testserver)", human(size), mcp.ProtocolVersion20260728, mcp.ProtocolVersion20260728), pct(bothServe, .5), pct(bothDirect, .5), "≤ 1.25×")
		tb.dur(fmt.Sprintf("tools/call greet %s p50: byte-copying stdio relay (no JSON: any proxy's floor) vs direct, a %s client and server (the testserver)", human(size), mcp.ProtocolVersion20260728), pct(bothFloor, .5), pct(bothDirect, .5), "")
		tb.dur(fmt.Sprintf("tools/call greet %s, the proxy's CPU per call: switchboard serve, %s client and server vs a %s client on server-everything", human(size), mcp.ProtocolVersion20260728, version), per(costs[&bothServe].proxyCPU), per(costs[&ours].proxyCPU), "")
	}
}

// benchConcurrency: 1,000 calls in flight spread over 10 servers, through
// the router vs 10 bare clients on 10 servers of their own; rounds
// alternate, the median round counts.
func benchConcurrency(t *testing.T, tb *table, everything string) {
	const calls, nservers, rounds = 1000, 10, 3
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	m := newManager(t, servers(nservers, "c", mcpmanager.ServerConfig{Command: everything}))
	bare := make([]*client.Client, nservers)
	var barePIDs []int
	for i := range bare {
		var p *os.Process
		bare[i], p = stdioClient(t, os.Environ(), everything)
		barePIDs = append(barePIDs, p.Pid)
	}
	var oursPIDs []int
	for _, st := range m.Status() {
		oursPIDs = append(oursPIDs, st.PID)
	}
	// The servers' CPU time is what the row is limited by (two cores, ten
	// Node processes): measured per call on each side, it says whether the
	// router makes a server work more per call.
	serversCPU := func(pids []int) (cpu time.Duration) {
		for _, p := range pids {
			c, _ := schedstat(p)
			cpu += c
		}
		return cpu
	}
	var oursCPU, baseCPU time.Duration
	burst := func(call func(i int) error) (time.Duration, int64) {
		var errs atomic.Int64
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range calls {
			wg.Go(func() {
				<-start
				if err := call(i); err != nil {
					errs.Add(1)
					t.Logf("call %d: %v", i, err)
				}
			})
		}
		t0 := time.Now()
		close(start)
		wg.Wait()
		return time.Since(t0), errs.Load()
	}
	var ours, base []time.Duration
	var oursErr, baseErr int64
	msg := strings.Repeat("x", 100)
	for range rounds {
		c0 := serversCPU(barePIDs)
		d, e := burst(func(i int) error { return echo(ctx, bare[i%nservers], "echo", msg) })
		base, baseErr, baseCPU = append(base, d), baseErr+e, baseCPU+serversCPU(barePIDs)-c0
		c0 = serversCPU(oursPIDs)
		d, e = burst(func(i int) error {
			_, err := m.Router().Call(ctx, fmt.Sprintf("c%d", i%nservers), "echo", map[string]any{"message": msg}, router.CallOptions{})
			return err
		})
		ours, oursErr, oursCPU = append(ours, d), oursErr+e, oursCPU+serversCPU(oursPIDs)-c0
	}
	o, b := median(ours), median(base)
	tput := func(d time.Duration) float64 { return calls / d.Seconds() }
	tb.add(fmt.Sprintf("%d calls in flight across %d servers, throughput: registry vs %d bare mcp-go clients", calls, nservers, nservers),
		fmt.Sprintf("%.0f calls/s, %d errors", tput(o), oursErr), fmt.Sprintf("%.0f calls/s, %d errors", tput(b), baseErr),
		tput(o)/tput(b), "≥ 0.90×, 0 errors")
	tb.dur(fmt.Sprintf("%d calls in flight across %d servers, the servers' CPU per call: through the registry vs from bare mcp-go clients", calls, nservers),
		oursCPU/(calls*rounds), baseCPU/(calls*rounds), "")
	if oursErr != 0 {
		t.Errorf("%d of %d calls through the registry failed", oursErr, calls*rounds)
	}
}

// benchStartup: 10 servers applied together vs one alone, timed by status
// events. Three kinds: the real npm server (CPU-bound: ~0.4 s of CPU each,
// so on 2 cores ten cannot start in the time of one), the same compared with
// its CPU floor (the servers' CPU time / cores: what remains is waiting of
// ours), and a server that spends its start-up waiting (as one fetching a
// package or a token does), which shows whether starts overlap.
func benchStartup(t *testing.T, tb *table, everything string) {
	process.LoginPATH() // read once per process; not a per-server cost
	alone := func(cfg mcpmanager.ServerConfig) time.Duration {
		var ds []time.Duration
		for range 3 {
			m, d := startTogether(t, []mcpmanager.ServerConfig{cfg})
			m.Close(context.Background())
			ds = append(ds, d)
		}
		return median(ds)
	}
	npmCfg := mcpmanager.ServerConfig{Command: everything}
	one := alone(npmCfg)
	selfCPU0, _ := schedstat(os.Getpid())
	m, ten := startTogether(t, servers(10, "s", npmCfg))
	selfCPU, _ := schedstat(os.Getpid())
	selfCPU -= selfCPU0
	var cpu, wait time.Duration
	for _, st := range m.Status() {
		c, w := schedstat(st.PID)
		cpu, wait = cpu+c, wait+w
	}
	m.Close(context.Background())
	floor := max(one, cpu/time.Duration(runtime.NumCPU()))
	tb.dur("start-up: 10 server-everything together vs one alone (ready events)", ten, one, "≤ 1.3×")
	tb.dur("start-up: 10 server-everything together vs their CPU floor (their CPU time ÷ cores)", ten, floor, "")
	tb.add("start-up: CPU of switchboard (this process) vs the 10 servers' CPU while starting them", round(selfCPU).String(), round(cpu).String(),
		float64(selfCPU)/float64(cpu), "")
	t.Logf("npm start-up: servers' CPU %s, their run-queue wait %s, ours %s", cpu, wait, selfCPU)

	slow := mcpmanager.ServerConfig{Command: "/bin/sh", Args: []string{"-c", "sleep 0.5; exec " + faultServer}}
	one = alone(slow)
	m, ten = startTogether(t, servers(10, "w", slow))
	m.Close(context.Background())
	tb.dur("start-up: 10 servers that wait 500 ms before serving, together vs one alone", ten, one, "≤ 1.3×")
}

// serveConfig writes dir/mcp.json for serve: n servers running command,
// named prefix0, prefix1, …
func serveConfig(t *testing.T, dir, prefix, command string, n int) string {
	t.Helper()
	cfg := filepath.Join(dir, "mcp.json")
	srv := map[string]any{}
	for i := range n {
		srv[fmt.Sprint(prefix, i)] = map[string]any{"command": command}
	}
	data, _ := json.Marshal(map[string]any{"mcpServers": srv})
	if err := os.WriteFile(cfg, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// benchMemory: RSS of 'switchboard serve' (the Go process and its watchdog,
// not the servers it runs) idle with 10 servers, then after 10,000 calls.
func benchMemory(t *testing.T, tb *table, everything, bin string) {
	dir := t.TempDir()
	cfg := serveConfig(t, dir, "m", everything, 10)
	c, p := stdioClient(t, append(os.Environ(), "SWITCHBOARD_DATA_DIR="+filepath.Join(dir, "data")), bin, "serve", "--config", cfg)
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	// serve answers initialize at once; a call of a tool not published yet
	// waits for servers still starting (gateway.StartupWait), and one call
	// each proves they are up before "idle" is read.
	for i := range 10 {
		if err := echo(ctx, c, fmt.Sprintf("m%d__echo", i), "warm"); err != nil {
			t.Fatal(err)
		}
	}
	notServer := func(cmdline string) bool { return !strings.Contains(cmdline, everything) }
	idle, parts := treeMem(p.Pid, notServer)
	t.Logf("serve idle: %s", parts)
	var one mem
	for _, pid := range proctest.Descendants(p.Pid) {
		if m := memOf(pid); !notServer(proctest.Cmdline(pid)) && m.rss > one.rss {
			one = m
		}
	}
	const calls, callers = 10_000, 10
	var errs atomic.Int64
	var wg sync.WaitGroup
	msg := strings.Repeat("x", 100)
	for w := range callers {
		wg.Go(func() {
			for i := range calls / callers {
				if err := echo(ctx, c, fmt.Sprintf("m%d__echo", (w+i)%10), msg); err != nil {
					errs.Add(1)
				}
			}
		})
	}
	wg.Wait()
	after, parts := treeMem(p.Pid, notServer)
	t.Logf("serve after %d calls: %s", calls, parts)
	tb.add("memory: switchboard serve RSS (Go + watchdog) idle with 10 servers vs one server-everything it runs", idle.String(), one.String(),
		float64(idle.rss)/float64(one.rss), "< 150 MB")
	tb.add(fmt.Sprintf("memory: switchboard serve RSS after %d calls (%d errors) vs idle", calls, errs.Load()), after.String(), idle.String(),
		float64(after.rss)/float64(idle.rss), "≤ 1.10×")
	if errs.Load() != 0 {
		t.Errorf("%d of %d calls through serve failed", errs.Load(), calls)
	}
}

// benchWindow: the production binary under the X display of 'make bench'
// (xvfb-run), from exec to the frontend's "frontend ready" log line, with 10
// servers configured vs none; then the RSS of the app's own processes (Go +
// WebKit) once the 10 servers are up and the app is idle.
func benchWindow(t *testing.T, tb *table, everything, bin string) {
	dir := t.TempDir()
	many := filepath.Join(dir, "many")
	file := filepath.Join(dir, "many.json")
	// 30 servers as a long-time user has them: 20 that work (Node), 5 slow
	// to start, 5 broken (one exits during the handshake, one is missing).
	srv := map[string]any{}
	for i := range 20 {
		srv[fmt.Sprint("w", i)] = map[string]any{"command": everything}
	}
	for i := range 5 {
		srv[fmt.Sprint("slow", i)] = map[string]any{"command": "/bin/sh", "args": []string{"-c", "sleep 3; exec " + faultServer}}
	}
	for i := range 4 {
		srv[fmt.Sprint("broken", i)] = map[string]any{"command": faultServer, "args": []string{"-mode", "exit-init"}}
	}
	srv["missing"] = map[string]any{"command": "/nonexistent/mcp-server"}
	data, _ := json.Marshal(map[string]any{"mcpServers": srv})
	if err := os.WriteFile(file, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(bin, "--data-dir", many, "servers", "import", file).CombinedOutput(); err != nil {
		t.Fatalf("import: %v\n%s", err, out)
	}
	noneDir := filepath.Join(dir, "none")
	var withMany, withNone []time.Duration
	var idle, none, unsettled []mem
	for range 3 {
		d, m := launchWindow(t, bin, noneDir, everything, 0)
		withNone, none = append(withNone, d), append(none, m)
		d, m = launchWindow(t, bin, many, everything, 20)
		withMany, idle = append(withMany, d), append(idle, m)
		_, m, _ = launchWindowRenderer(t, bin, noneDir, everything, 0, "SWITCHBOARD_SETTLE=off")
		unsettled = append(unsettled, m)
	}
	byRSS := func(a, b mem) int { return int(a.rss - b.rss) }
	slices.SortFunc(idle, byRSS)
	slices.SortFunc(none, byRSS)
	byPSS := func(a, b mem) int { return int(a.pss - b.pss) }
	slices.SortFunc(unsettled, byPSS)
	nonePSS := slices.SortedFunc(slices.Values(none), byPSS)
	tb.add("memory: app window PSS (Go + WebKit processes) idle, no servers, no chat, once settled vs the same window that keeps its start-up memory (SWITCHBOARD_SETTLE=off)",
		nonePSS[1].String(), unsettled[1].String(), float64(nonePSS[1].pss)/float64(unsettled[1].pss), "≤ 250 MB PSS")
	tb.dur("window start-up, exec to \"frontend ready\" (Xvfb): 30 servers configured (20 server-everything, 5 slow, 5 broken) vs none", median(withMany), median(withNone), "≤ 1.2×")
	tb.add("memory: app window RSS (Go + WebKit processes) idle with 30 servers vs idle with none", idle[1].String(), none[1].String(),
		float64(idle[1].rss)/float64(none[1].rss), "< 150 MB")
}

var sinceStart = regexp.MustCompile(`frontend ready.*sinceStart=(\S+)`)

// launchWindow runs the app once with its own data, config and D-Bus session
// and returns the time to "frontend ready" and the RSS of the app's own
// processes (the app and its WebKit helpers, not the MCP servers it runs,
// whose command lines contain server), read once n server processes run and
// the tree is idle.
func launchWindow(t *testing.T, bin, dataDir, server string, n int) (time.Duration, mem) {
	d, m, _ := launchWindowRenderer(t, bin, dataDir, server, n)
	return d, m
}

// launchWindowRenderer is launchWindow that also returns the memory of the
// web view's renderer (WebKitWebProcess) alone. env is added to the app's
// environment. Idle is after the app settled (its "memory settled" log
// line: it gave back what only start-up needed), unless env turns that off.
func launchWindowRenderer(t *testing.T, bin, dataDir, server string, n int, env ...string) (time.Duration, mem, mem) {
	t.Helper()
	w := startWindow(t, bin, dataDir, env...)
	defer w.stop()
	d := w.readyAfter
	waitIdle(t, w.app, server, n)
	if !slices.Contains(env, "SWITCHBOARD_SETTLE=off") {
		// The tree was idle: read right after the app gave its memory back.
		w.await("\"memory settled\"", func(l string) bool { return strings.Contains(l, "memory settled") }, 60*time.Second)
	}
	m, parts := appMem(w.app, server)
	t.Logf("window with %d servers: ready after %s; %s", n, d.Round(time.Millisecond), parts)
	renderer, _ := treeMem(w.app, func(cmdline string) bool { return strings.Contains(cmdline, "WebKitWebProcess") })
	renderer = subtract(renderer, memOf(w.app)) // treeMem counts its root
	return d, m, renderer
}

// appMem is the memory of the app's own processes (the app and its WebKit
// helpers), not of the MCP servers it runs (whose command lines contain
// server), nor the slow ones' shell and sleep.
func appMem(app int, server string) (mem, string) {
	return treeMem(app, func(cmdline string) bool {
		return !strings.Contains(cmdline, server) && !strings.Contains(cmdline, faultServer) && !strings.HasPrefix(cmdline, "/bin/sh") && !strings.HasPrefix(cmdline, "sleep")
	})
}

// appWindow is the app run with its own data, config and D-Bus session, its
// stderr kept line by line.
type appWindow struct {
	t          *testing.T
	cmd        *exec.Cmd
	app        int           // the app's pid (under dbus-run-session), once ready
	readyAfter time.Duration // exec to "frontend ready"
	t0         time.Time
	exited     chan struct{}
	failed     chan struct{} // closed when an automation script reports an error

	mu      sync.Mutex
	lines   []string
	next    int           // the first line await has not looked at
	changed chan struct{} // closed (and replaced) when a line arrives
}

// startWindow starts the app on dataDir with env added to its environment.
// Its cleanup stops it; await reads its log.
func startWindow(t *testing.T, bin, dataDir string, env ...string) *appWindow {
	t.Helper()
	if os.Getenv("DISPLAY") == "" {
		t.Fatal("no X display: run 'make bench' (it runs the benchmarks under xvfb-run), or xvfb-run -a go test ...")
	}
	home := t.TempDir()
	run := filepath.Join(home, "run")
	if err := os.Mkdir(run, 0o700); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("dbus-run-session", "--", bin, "--data-dir", dataDir)
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+filepath.Join(home, "config"), "XDG_DATA_HOME="+filepath.Join(home, "share"),
		"XDG_CACHE_HOME="+filepath.Join(home, "cache"), "XDG_RUNTIME_DIR="+run, "NO_AT_BRIDGE=1")
	cmd.Env = append(cmd.Env, env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	w := &appWindow{t: t, cmd: cmd, exited: make(chan struct{}), failed: make(chan struct{}), changed: make(chan struct{}), t0: time.Now()}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s under dbus-run-session: %v", bin, err)
	}
	go func() {
		defer close(w.exited)
		failed := false
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64<<10), 4<<20)
		for sc.Scan() {
			w.mu.Lock()
			w.lines = append(w.lines, sc.Text())
			close(w.changed)
			w.changed = make(chan struct{})
			if r, ok := report(sc.Text()); ok && strings.HasPrefix(r, "error ") && !failed {
				failed = true
				close(w.failed)
			}
			if w.readyAfter == 0 && sinceStart.MatchString(sc.Text()) {
				w.readyAfter = time.Since(w.t0)
			}
			w.mu.Unlock()
		}
		_ = cmd.Wait()
	}()
	t.Cleanup(w.stop)
	w.await("\"frontend ready\"", sinceStart.MatchString, 60*time.Second)
	w.app = appPID(cmd.Process.Pid, bin)
	return w
}

// await returns the next log line for which match holds, failing the test
// when the app exits first, when within passes, or when an automation
// script reports an error.
func (w *appWindow) await(what string, match func(line string) bool, within time.Duration) string {
	w.t.Helper()
	deadline := time.After(within)
	for {
		w.mu.Lock()
		for w.next < len(w.lines) {
			l := w.lines[w.next]
			w.next++
			if match(l) {
				w.mu.Unlock()
				return l
			}
		}
		changed := w.changed
		w.mu.Unlock()
		select {
		case <-changed:
		case <-w.failed:
			w.t.Fatalf("the automation script failed before %s:\n%s", what, w.log())
		case <-w.exited:
			w.mu.Lock()
			pending := w.next < len(w.lines)
			w.mu.Unlock()
			if !pending {
				w.t.Fatalf("app exited before %s:\n%s", what, w.log())
			}
		case <-deadline:
			w.t.Fatalf("no %s within %s:\n%s", what, within, w.log())
		}
	}
}

// awaitReport waits (as await) for the automation script's report that
// starts with word and a space, and decodes the JSON after them into v.
func (w *appWindow) awaitReport(word string, v any, within time.Duration) {
	w.t.Helper()
	prefix := word + " "
	l := w.await(fmt.Sprintf("the script's %q report", word), func(l string) bool {
		r, ok := report(l)
		return ok && strings.HasPrefix(r, prefix)
	}, within)
	r, _ := report(l)
	if err := json.Unmarshal([]byte(strings.TrimPrefix(r, prefix)), v); err != nil {
		w.t.Fatalf("the script's %q report: %v\n%s", word, err, r)
	}
}

// automationReport is the app's log line for a script's report (app.Automate):
// slog's text format quotes a value that has spaces or quotes.
var automationReport = regexp.MustCompile(`automation report=("(?:[^"\\]|\\.)*"|\S+)$`)

// report returns the text of an automation report line.
func report(line string) (string, bool) {
	m := automationReport.FindStringSubmatch(line)
	if m == nil {
		return "", false
	}
	if s, err := strconv.Unquote(m[1]); err == nil {
		return s, true
	}
	return m[1], true
}

// skipLog makes await look only at the lines logged from now on.
func (w *appWindow) skipLog() {
	w.mu.Lock()
	w.next = len(w.lines)
	w.mu.Unlock()
}

// log is the app's stderr so far, its last 200 lines.
func (w *appWindow) log() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strings.Join(w.lines[max(0, len(w.lines)-200):], "\n")
}

// stop ends the app's process group: SIGTERM, then SIGKILL after 20 s.
func (w *appWindow) stop() {
	_ = syscall.Kill(-w.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-w.exited:
	case <-time.After(20 * time.Second):
		_ = syscall.Kill(-w.cmd.Process.Pid, syscall.SIGKILL)
		<-w.exited
	}
}

func subtract(a, b mem) mem { return mem{a.rss - b.rss, a.pss - b.pss, a.anon - b.anon} }

// appPID finds the app under dbus-run-session.
func appPID(root int, bin string) int {
	for _, pid := range proctest.Descendants(root) {
		if strings.HasPrefix(proctest.Cmdline(pid), bin) {
			return pid
		}
	}
	return root
}

// waitIdle waits until n processes matching server run under pid and the
// tree has used under 2 % of a CPU over the last half second (up to 90 s).
func waitIdle(t *testing.T, pid int, server string, n int) {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	tick := time.NewTicker(500 * time.Millisecond) // the window over which idle is judged
	defer tick.Stop()
	var last time.Duration
	for time.Now().Before(deadline) {
		count := 0
		var cpu time.Duration
		for _, p := range append(proctest.Descendants(pid), pid) {
			if strings.Contains(proctest.Cmdline(p), server) {
				count++
			}
			c, _ := schedstat(p)
			cpu += c
		}
		if count >= n && last > 0 && cpu-last < 10*time.Millisecond {
			return
		}
		last = cpu
		<-tick.C
	}
	t.Fatalf("app with %d servers did not settle within 90 s", n)
}

// benchImport: parse + validate a 500-server config vs json.Unmarshal of it.
func benchImport(t *testing.T, tb *table) {
	servers := map[string]any{}
	for i := range 500 {
		servers[fmt.Sprintf("server-%d", i)] = map[string]any{"command": "npx", "args": []string{"-y", fmt.Sprintf("@example/server-%d", i)},
			"env": map[string]string{"LOG_LEVEL": "info", "API_URL": "https://example.com"}}
	}
	data, _ := json.Marshal(map[string]any{"mcpServers": servers})
	const reps = 20
	var parse, raw []time.Duration
	for range reps {
		t0 := time.Now()
		if f, err := config.ParseContext(context.Background(), "bench.json", data); f == nil || len(f.Servers) != 500 {
			t.Fatal(err)
		}
		parse = append(parse, time.Since(t0))
		t0 = time.Now()
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatal(err)
		}
		raw = append(raw, time.Since(t0))
	}
	tb.dur("import: parse+validate 500 servers vs json.Unmarshal", median(parse), median(raw), "< 50 ms")
}

// benchImportScale: 'servers import --dry-run' of 20,000 servers vs 2,000,
// the whole command: linear is about 10×.
func benchImportScale(t *testing.T, tb *table, bin string) {
	run := func(n int) time.Duration {
		servers := map[string]any{}
		for i := range n {
			servers[fmt.Sprintf("s%d", i)] = map[string]any{"command": "npx", "args": []string{"-y", fmt.Sprintf("pkg%d", i)}}
		}
		data, _ := json.Marshal(map[string]any{"mcpServers": servers})
		file := filepath.Join(t.TempDir(), "servers.json")
		if err := os.WriteFile(file, data, 0o600); err != nil {
			t.Fatal(err)
		}
		var best time.Duration
		for range 3 {
			t0 := time.Now()
			if out, err := exec.Command(bin, "--data-dir", t.TempDir(), "servers", "import", "--dry-run", file).CombinedOutput(); err != nil {
				t.Fatalf("import %d: %v\n%.500s", n, err, out)
			}
			if d := time.Since(t0); best == 0 || d < best {
				best = d
			}
		}
		return best
	}
	small, large := run(2000), run(20000)
	tb.dur("import --dry-run: 20,000 servers vs 2,000 (the whole command; linear is 10×)", large, small, "≤ 13×")
}

func human(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%d MB", n>>20)
	case n >= 1<<10:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d B", n)
}

// --- /proc readers ------------------------------------------------------------

// mem is the memory of a process or a process tree, in kB: resident
// (VmRSS, what the targets are in), proportional (shared pages split among
// the processes mapping them) and anonymous (heap and stacks, not file
// pages such as the binary's and the GTK/WebKit libraries').
type mem struct{ rss, pss, anon int64 }

func (m mem) String() string {
	return fmt.Sprintf("%s (PSS %s, anon %s)", mb(m.rss), mb(m.pss), mb(m.anon))
}

// memOf reads pid's memory (zero once it is gone).
func memOf(pid int) mem {
	var m mem
	field := func(file, key string) int64 {
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/%s", pid, file))
		for _, l := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(l, key); ok {
				n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
				return n
			}
		}
		return 0
	}
	m.rss, m.anon = field("status", "VmRSS:"), field("status", "RssAnon:")
	m.pss = field("smaps_rollup", "Pss:")
	return m
}

// treeMem sums the memory of pid and of its descendants whose command line
// keep accepts (an MCP server the app runs is not the app), and says which
// processes it counted.
func treeMem(pid int, keep func(cmdline string) bool) (mem, string) {
	total := memOf(pid)
	parts := []string{fmt.Sprintf("%s %s", filepath.Base(strings.Fields(proctest.Cmdline(pid) + " ?")[0]), total)}
	for _, p := range proctest.Descendants(pid) {
		if keep(proctest.Cmdline(p)) {
			m := memOf(p)
			total.rss, total.pss, total.anon = total.rss+m.rss, total.pss+m.pss, total.anon+m.anon
			parts = append(parts, fmt.Sprintf("%s %s", filepath.Base(strings.Fields(proctest.Cmdline(p) + " ?")[0]), m))
		}
	}
	return total, strings.Join(parts, "; ")
}

// schedstat sums, over pid's threads, the time on a CPU and the time spent
// runnable waiting for one.
func schedstat(pid int) (cpu, wait time.Duration) {
	tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	for _, task := range tasks {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/schedstat", pid, task.Name()))
		if err != nil {
			continue
		}
		var c, w int64
		if _, err := fmt.Sscan(string(b), &c, &w); err == nil {
			cpu, wait = cpu+time.Duration(c), wait+time.Duration(w)
		}
	}
	return cpu, wait
}

// selfCPU is this process's CPU time so far (user and system).
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func loadAvg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

func cpuModel() string {
	b, _ := os.ReadFile("/proc/cpuinfo")
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "model name"); ok {
			return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(v), ":"))
		}
	}
	return "unknown CPU"
}
