//go:build bench

// The benchmark table of 'make bench': each row measures Switchboard and a
// baseline side by side in one run and prints the ratio with the absolute
// figures. Run: go test -tags bench -run TestBenchTable -v ./mcpmanager/
package mcpmanager

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/registry"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

type row struct{ name, ours, base, ratio, target string }

func pct(d []time.Duration, p float64) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[min(len(s)-1, int(float64(len(s))*p))]
}

func TestBenchTable(t *testing.T) {
	ctx := t.Context()
	var rows []row
	everything := npm(t, "mcp-server-everything")

	// Bare mcp-go client on the same server.
	bare, err := client.NewStdioMCPClient(everything, os.Environ())
	if err != nil {
		t.Fatal(err)
	}
	defer bare.Close()
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	if _, err := bare.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	m := New(Options{})
	defer m.Close(context.Background())
	m.Apply([]ServerConfig{{Name: "everything", Command: everything}})
	m.WaitSettled(ctx)

	for _, size := range []int{100, 100 << 10, 5 << 20} {
		msg := strings.Repeat("x", size)
		n := 300
		if size >= 5<<20 {
			n = 10
		}
		var ours, base []time.Duration
		for i := 0; i < n; i++ { // interleaved, so both see the same machine state
			req := mcp.CallToolRequest{}
			req.Params.Name = "echo"
			req.Params.Arguments = map[string]any{"message": msg}
			t0 := time.Now()
			if _, err := bare.CallTool(ctx, req); err != nil {
				t.Fatal(err)
			}
			base = append(base, time.Since(t0))
			t0 = time.Now()
			if _, err := m.Registry().Call(ctx, "everything__echo", map[string]any{"message": msg}, registry.CallOptions{}); err != nil {
				t.Fatal(err)
			}
			ours = append(ours, time.Since(t0))
		}
		for _, p := range []struct {
			name string
			q    float64
		}{{"p50", 0.5}, {"p95", 0.95}} {
			o, b := pct(ours, p.q), pct(base, p.q)
			target := ""
			if p.name == "p50" {
				target = "≤ 1.10×"
			}
			rows = append(rows, row{fmt.Sprintf("tools/call echo %s %s: registry vs bare mcp-go", human(size), p.name),
				o.Round(time.Microsecond).String(), b.Round(time.Microsecond).String(), fmt.Sprintf("%.2f×", float64(o)/float64(b)), target})
		}
	}

	// Through 'switchboard serve' (stdio) vs the server directly.
	exe, err := os.MkdirTemp("", "sbbench")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(exe)
	bin := exe + "/switchboard"
	if out, err := exec.Command("go", "build", "-o", bin, "..").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	cfg := exe + "/mcp.json"
	_ = os.WriteFile(cfg, []byte(fmt.Sprintf(`{"mcpServers":{"everything":{"command":%q}}}`, everything)), 0o600)
	gw, err := client.NewStdioMCPClient(bin, append(os.Environ(), "SWITCHBOARD_DATA_DIR="+exe+"/data"), "serve", "--config", cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer gw.Close()
	if _, err := gw.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	{
		var ours, base []time.Duration
		for i := 0; i < 300; i++ {
			req := mcp.CallToolRequest{}
			req.Params.Name = "echo"
			req.Params.Arguments = map[string]any{"message": "hi"}
			t0 := time.Now()
			if _, err := bare.CallTool(ctx, req); err != nil {
				t.Fatal(err)
			}
			base = append(base, time.Since(t0))
			req.Params.Name = "everything__echo"
			t0 = time.Now()
			if res, err := gw.CallTool(ctx, req); err != nil || res.IsError {
				t.Fatalf("gateway call: %v %v", res, err)
			}
			ours = append(ours, time.Since(t0))
		}
		o, b := pct(ours, 0.5), pct(base, 0.5)
		rows = append(rows, row{"tools/call echo 100 B p50: through switchboard serve (stdio) vs direct",
			o.Round(time.Microsecond).String(), b.Round(time.Microsecond).String(), fmt.Sprintf("%.2f×", float64(o)/float64(b)), "≤ 1.25×"})
	}

	// Start-up: 10 servers together vs the slowest alone.
	fs := faultServer
	var alone time.Duration
	for i := 0; i < 3; i++ {
		m1 := New(Options{})
		t0 := time.Now()
		m1.Apply([]ServerConfig{{Name: "s", Command: fs}})
		m1.WaitSettled(ctx)
		alone = max(alone, time.Since(t0))
		m1.Close(context.Background())
	}
	m10 := New(Options{})
	var cfgs []ServerConfig
	for i := range 10 {
		cfgs = append(cfgs, ServerConfig{Name: fmt.Sprint("s", i), Command: fs})
	}
	t0 := time.Now()
	m10.Apply(cfgs)
	m10.WaitSettled(ctx)
	together := time.Since(t0)
	for _, st := range m10.Status() {
		if st.State != supervisor.Ready {
			t.Errorf("%s not ready", st.Name)
		}
	}
	m10.Close(context.Background())
	rows = append(rows, row{"start-up: 10 servers together vs one alone", together.Round(time.Millisecond).String(), alone.Round(time.Millisecond).String(),
		fmt.Sprintf("%.2f×", float64(together)/float64(alone)), "≤ 1.3×"})

	// Import: parse + validate a 500-server config vs plain json.Unmarshal of it.
	servers := map[string]any{}
	for i := range 500 {
		servers[fmt.Sprintf("server-%d", i)] = map[string]any{"command": "npx", "args": []string{"-y", fmt.Sprintf("@example/server-%d", i)},
			"env": map[string]string{"LOG_LEVEL": "info", "API_URL": "https://example.com"}}
	}
	data, _ := json.Marshal(map[string]any{"mcpServers": servers})
	const reps = 20
	t0 = time.Now()
	for range reps {
		if f, err := config.Parse("bench.json", data); f == nil || len(f.Servers) != 500 {
			t.Fatal(err)
		}
	}
	parse := time.Since(t0) / reps
	t0 = time.Now()
	for range reps {
		var v any
		_ = json.Unmarshal(data, &v)
	}
	raw := time.Since(t0) / reps
	rows = append(rows, row{"import: parse+validate 500 servers vs json.Unmarshal", parse.Round(time.Microsecond).String(), raw.Round(time.Microsecond).String(),
		fmt.Sprintf("%.2f×", float64(parse)/float64(raw)), "< 50 ms absolute"})

	var b strings.Builder
	fmt.Fprintf(&b, "\n| measure | switchboard | baseline | ratio | target |\n|---|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", r.name, r.ours, r.base, r.ratio, r.target)
	}
	fmt.Fprintf(&b, "\nmachine: %s/%s, %d CPUs, %s\n", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version())
	fmt.Print(b.String())
	if out := os.Getenv("BENCH_OUT"); out != "" {
		_ = os.WriteFile(out, []byte(b.String()), 0o644)
	}
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
