//go:build bench

// The kept results' rows of 'make bench': the peak memory of one chat
// turn whose tool result is a single line of 10 MB (and of 20 MB), the
// whole path — the call, the capped head for the model, the history, and
// what the chat keeps for its model to read on. Run alone:
//
//	go test -tags bench -run TestBenchTableKept -v ./app/host/
package host

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/mcpmanager"
)

// procKB reads a field of /proc/self/status, in kB.
func procKB(t *testing.T, key string) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, key+":"); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return n
		}
	}
	t.Fatalf("no %s in /proc/self/status", key)
	return 0
}

// oneLine is n bytes of minified JSON without a line break, as a tool that
// dumps a large object returns it.
func oneLine(n int) string {
	var b strings.Builder
	b.WriteByte('[')
	for i := 0; b.Len() < n-64; i++ {
		fmt.Fprintf(&b, `{"id":%d,"name":"item %d","sku":"X%08dZ","tags":["a","b"]},`, i, i, i*7919)
	}
	b.WriteString(`{"end":true}]`)
	return b.String()
}

// TestBenchTableKept: one turn each with a 10 MB and a 20 MB single-line
// result, in a host with its built-ins; the peak RSS of this process
// (VmHWM, reset before each turn) against its RSS before the turn.
func TestBenchTableKept(t *testing.T) {
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		t.Fatalf("cannot reset the peak RSS (%v): this row needs Linux's /proc", err)
	}
	lc := newLongChat(t)
	h := lc.h
	var result string
	srv := server.NewMCPServer("big", "1.0.0")
	srv.AddTool(mcp.NewTool("dump", mcp.WithReadOnlyHintAnnotation(true)), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText(result), nil
	})
	h.cfgMu.Lock()
	h.running = append(h.running, mcpmanager.ServerConfig{Name: "big", Builtin: &mcpmanager.Builtin{Key: "big",
		Start: func() (*server.MCPServer, func() error, error) { return srv, func() error { return nil }, nil }}})
	h.mgr.Apply(h.withBuiltins(WorkspaceRoot(h.dir), h.running))
	h.cfgMu.Unlock()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	h.mgr.WaitSettled(ctx)

	type turn struct {
		mb           int
		before, peak int64 // kB
		took         time.Duration
		kept         chat.Kept
	}
	run := func(mb int) turn {
		result = oneLine(mb << 20)
		lc.llm.Enqueue(
			providertest.Reply{When: "dump " + strconv.Itoa(mb), ToolCalls: []providertest.ToolCall{{Name: "big__dump", Arguments: `{}`}}},
			providertest.Reply{Text: "Dumped."},
		)
		runtime.GC()
		debug.FreeOSMemory()
		tu := turn{mb: mb, before: procKB(t, "VmRSS")}
		if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		res := lc.send(t, "dump "+strconv.Itoa(mb))
		tu.took, tu.peak = time.Since(start), procKB(t, "VmHWM")
		k, ok := chat.KeptOf(res.ToolCalls[0].Result)
		if !ok || k.Dropped == 0 {
			t.Fatalf("the %d MB result was not kept and capped: %+v", mb, k)
		}
		tu.kept = k
		result = ""
		return tu
	}
	ten, twenty := run(10), run(20)
	mib := func(kb int64) string { return fmt.Sprintf("%.0f MB", float64(kb)/1024) }
	var out strings.Builder
	fmt.Fprintf(&out, "\n| measure | switchboard | baseline | ratio | target |\n|---|---|---|---|---|\n")
	fmt.Fprintf(&out, "| a chat turn whose tool result is one 10 MB line (minified JSON): peak RSS of the app's Go process vs before the turn (%d MB kept for read_result, %d lines; %s) | %s | %s | %.2f× | < 1 GB |\n",
		chat.DefaultKeepLimit>>20, ten.kept.Lines, ten.took.Round(time.Millisecond), mib(ten.peak), mib(ten.before), float64(ten.peak)/float64(ten.before))
	fmt.Fprintf(&out, "| the same turn with a 20 MB line vs the 10 MB one: peak RSS above the RSS before the turn (linear is 2×) | %s | %s | %.2f× | ≤ 2× |\n",
		mib(twenty.peak-twenty.before), mib(ten.peak-ten.before), float64(twenty.peak-twenty.before)/float64(ten.peak-ten.before))
	fmt.Fprintf(&out, "\nkept rows: %s/%s, %d CPUs, %s\n", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version())
	fmt.Print(out.String())
	if path := os.Getenv("BENCH_OUT"); path != "" {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteString(out.String()); err != nil {
			t.Fatal(err)
		}
	}
}
