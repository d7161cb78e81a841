//go:build bench

package bench_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
)

// startDaemon runs 'switchboard daemon' on a data dir whose config.json
// holds servers, and returns it once it shares them.
func startDaemon(t *testing.T, bin, dataDir string, servers map[string]any) *os.Process {
	t.Helper()
	data, _ := json.Marshal(map[string]any{"mcpServers": servers})
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dataDir, "config.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--data-dir", dataDir, "daemon")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "sharing the servers of") {
				close(ready)
			}
		}
	}()
	select {
	case <-ready:
	case <-time.After(2 * time.Minute):
		t.Fatal("switchboard daemon did not say it shares its servers within 2 minutes")
	}
	return cmd.Process
}

// benchShared: Switchboard running (a 'switchboard daemon') shared by
// three apps, each through its own 'switchboard serve' attached to it,
// against the same three apps each running the ten servers itself (the
// call through the bridge is benchBridge's).
func benchShared(t *testing.T, tb *table, everything, bin string) {
	const apps, nservers = 3, 10
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Minute)
	defer cancel()
	servers := map[string]any{}
	for i := range nservers {
		servers[fmt.Sprint("m", i)] = map[string]any{"command": everything}
	}
	dataDir := filepath.Join(t.TempDir(), "shared")
	daemon := startDaemon(t, bin, dataDir, servers)
	var roots []int
	roots = append(roots, daemon.Pid)
	for a := range apps {
		c, p := stdioClient(t, os.Environ(), bin, "--data-dir", dataDir, "serve", "--client", fmt.Sprint("app", a))
		waitTools(ctx, t, c, nservers)
		for i := range nservers {
			if err := echo(ctx, c, fmt.Sprintf("m%d__echo", i), "warm"); err != nil {
				t.Fatal(err)
			}
		}
		roots = append(roots, p.Pid)
	}
	ours, oursProcs := appsMem(roots)

	// The same apps without Switchboard: each starts the ten servers.
	var direct []int
	for range apps {
		for range nservers {
			c, p := stdioClient(t, os.Environ(), everything)
			if err := echo(ctx, c, "echo", "warm"); err != nil {
				t.Fatal(err)
			}
			direct = append(direct, p.Pid)
		}
	}
	base, baseProcs := appsMem(direct)
	tb.add(fmt.Sprintf("%d apps × %d servers: processes, through one running Switchboard (daemon + %d attached serve) vs each app running its own", apps, nservers, apps),
		fmt.Sprint(oursProcs), fmt.Sprint(baseProcs), float64(oursProcs)/float64(baseProcs), "each server once")
	tb.add(fmt.Sprintf("%d apps × %d servers: PSS of every process, through one running Switchboard vs each app running its own", apps, nservers),
		mb(ours.pss), mb(base.pss), float64(ours.pss)/float64(base.pss), "< 1×")
}

// benchBridge: one call through a serve attached to a running Switchboard
// (the bridge: app → serve → socket → Switchboard → server) vs a standalone serve vs direct, interleaved, for a client
// of each protocol era.
func benchBridge(t *testing.T, tb *table, everything, bin string) {
	ctx := t.Context()
	oneDir := filepath.Join(t.TempDir(), "one")
	startDaemon(t, bin, oneDir, map[string]any{"everything": map[string]any{"command": everything}})
	cfg := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(cfg, fmt.Appendf(nil, `{"mcpServers":{"everything":{"command":%q}}}`, everything), 0o600); err != nil {
		t.Fatal(err)
	}
	directC, _, version := stdioClientVersion(t, mcp.LATEST_PROTOCOL_VERSION, os.Environ(), everything)
	bridged, _, v1 := stdioClientVersion(t, version, os.Environ(), bin, "--data-dir", oneDir, "serve", "--client", "bench")
	waitTools(ctx, t, bridged, 1)
	alone, _, v2 := stdioClientVersion(t, version, append(os.Environ(), "SWITCHBOARD_DATA_DIR="+filepath.Join(t.TempDir(), "alone")), bin, "serve", "--config", cfg)
	if v1 != version || v2 != version {
		t.Fatalf("protocols differ (direct %s, bridge %s, serve %s): the rows would not compare like with like", version, v1, v2)
	}
	modern, _, v3 := stdioClientVersion(t, mcp.ProtocolVersion20260728, os.Environ(), bin, "--data-dir", oneDir, "serve", "--client", "bench-modern")
	if v3 != mcp.ProtocolVersion20260728 {
		t.Fatalf("the bridge chose protocol %s for a %s client", v3, mcp.ProtocolVersion20260728)
	}
	for _, size := range []int{100, 100 << 10, 5 << 20} {
		msg := strings.Repeat("x", size)
		n := map[int]int{100: 300, 100 << 10: 100, 5 << 20: 8}[size]
		var viaBridge, viaModern, viaServe, straight []time.Duration
		for range n {
			for _, c := range []struct {
				cl   *client.Client
				tool string
				lat  *[]time.Duration
			}{{directC, "echo", &straight}, {bridged, "everything__echo", &viaBridge}, {modern, "everything__echo", &viaModern}, {alone, "everything__echo", &viaServe}} {
				t0 := time.Now()
				if err := echo(ctx, c.cl, c.tool, msg); err != nil {
					t.Fatal(err)
				}
				*c.lat = append(*c.lat, time.Since(t0))
			}
		}
		tb.dur(fmt.Sprintf("tools/call echo %s p50: through serve attached to the running Switchboard (bridge) vs direct", human(size)), median(viaBridge), median(straight), "≤ 1.25×")
		tb.dur(fmt.Sprintf("tools/call echo %s p50: through serve attached (bridge) vs a standalone serve", human(size)), median(viaBridge), median(viaServe), "")
		tb.dur(fmt.Sprintf("tools/call echo %s p50: a %s client through serve attached (bridge) vs direct (%s)", human(size), mcp.ProtocolVersion20260728, version), median(viaModern), median(straight), "≤ 1.25×")
	}
}

// appsMem sums the memory of every process in the trees of roots and
// counts them.
func appsMem(roots []int) (mem, int) {
	var total mem
	n := 0
	for _, r := range roots {
		for _, p := range append([]int{r}, proctest.Descendants(r)...) {
			m := memOf(p)
			total.rss, total.pss, total.anon = total.rss+m.rss, total.pss+m.pss, total.anon+m.anon
			n++
		}
	}
	return total, n
}

// waitTools waits until c lists the echo tool of n servers: the daemon's
// servers may still be starting (on a loaded machine, longer than a
// serve's start-up wait).
func waitTools(ctx context.Context, t *testing.T, c *client.Client, n int) {
	t.Helper()
	for {
		res, err := c.ListTools(ctx, mcp.ListToolsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		echoes := 0
		for _, tl := range res.Tools {
			if strings.HasSuffix(tl.Name, "__echo") {
				echoes++
			}
		}
		if echoes >= n {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("only %d of %d servers' tools listed: %v", echoes, n, ctx.Err())
		case <-time.After(500 * time.Millisecond):
		}
	}
}
