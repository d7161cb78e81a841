package router

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// starting is a Source whose server is starting: no session until start,
// tools known from before (Recall) until then, and the listings the
// router fetches remembered.
type starting struct {
	name    string
	known   []mcp.Tool
	started chan struct{}
	cl      *client.Client // its session once started

	mu         sync.Mutex
	remembered [][]mcp.Tool
}

var _ Recaller = (*starting)(nil)

func (s *starting) Name() string               { return s.name }
func (s *starting) CallTimeout() time.Duration { return 0 }
func (s *starting) Client() (Client, error) {
	select {
	case <-s.started:
		return s.cl, nil
	default:
		return nil, errors.New(s.name + ": server is starting")
	}
}
func (s *starting) Recall() []mcp.Tool {
	select {
	case <-s.started:
		return nil
	default:
		return s.known
	}
}
func (s *starting) AwaitStart(ctx context.Context) {
	select {
	case <-s.started:
	case <-ctx.Done():
	}
}
func (s *starting) Remember(tools []mcp.Tool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.remembered = append(s.remembered, slices.Clone(tools))
}

// TestRecallWhileStarting: a server still starting is listed with the tools
// it is known by, under the names its live tools get; a call of one waits
// for its start and then runs; once started, its own listing is offered
// and remembered; a server with nothing known is a failed one, as before.
func TestRecallWhileStarting(t *testing.T) {
	r := New(Options{})
	late := &starting{name: "late", known: []mcp.Tool{mcp.NewTool("echo"), mcp.NewTool("gone")}, started: make(chan struct{}), cl: inProcess(t, "echo", "new")}
	r.Add(late)
	r.Add(newSrc(t, "alpha", "echo"))
	r.Add(&starting{name: "unknown", started: make(chan struct{})})

	names := func() []string {
		tools, _ := r.Tools(t.Context())
		var out []string
		for _, tl := range tools {
			out = append(out, tl.Name)
		}
		return out
	}
	if got, want := names(), []string{"alpha__echo", "late__echo", "late__gone"}; !slices.Equal(got, want) {
		t.Fatalf("tools while late starts = %v, want %v", got, want)
	}
	if _, errs := r.Tools(t.Context()); len(errs) != 1 || errs[0].Server != "unknown" {
		t.Errorf("errs = %+v, want only the server with nothing known", errs)
	}
	if tl, err := r.Lookup(t.Context(), "late__echo"); err != nil || tl.Server != "late" || tl.Tool.Name != "echo" {
		t.Errorf("Lookup(late__echo) = %+v, %v", tl, err)
	}

	done := make(chan error, 1)
	var res *mcp.CallToolResult
	go func() {
		var err error
		res, err = r.Call(t.Context(), "late", "echo", map[string]any{"text": "hi"}, CallOptions{})
		done <- err
	}()
	close(late.started) // the call gets its session only now
	if err := <-done; err != nil || res.Content[0].(mcp.TextContent).Text != "echo:hi" {
		t.Fatalf("call while starting = %+v, %v", res, err)
	}
	r.Invalidate("late") // as the manager does when the server is ready
	if got, want := names(), []string{"alpha__echo", "late__echo", "late__new"}; !slices.Equal(got, want) {
		t.Fatalf("tools once late started = %v, want %v", got, want)
	}
	late.mu.Lock()
	defer late.mu.Unlock()
	// Each listing fetched (the call's, for its task policy, and the one
	// after the invalidation) is remembered; none is the recalled one.
	if n := len(late.remembered); n == 0 || len(late.remembered[n-1]) != 2 || late.remembered[n-1][1].Name != "new" {
		t.Errorf("remembered %d listings, the last %+v; want the server's own [echo new]", n, late.remembered)
	}

	// A call of a server with nothing known fails at once, as before.
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	if _, err := r.Call(ctx, "unknown", "echo", nil, CallOptions{}); err == nil || err.Error() != "unknown: server is starting" {
		t.Errorf("call of a starting server with nothing known = %v", err)
	}
}

// TestRecallCallGivesUp: a call waiting for a server that does not start
// ends with its caller's context.
func TestRecallCallGivesUp(t *testing.T) {
	r := New(Options{})
	r.Add(&starting{name: "late", known: []mcp.Tool{mcp.NewTool("echo")}, started: make(chan struct{})})
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := r.Call(ctx, "late", "echo", nil, CallOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("call with its context ended = %v, want context.Canceled", err)
	}
}

// TestRecalledSchemaTyped: a listing remembered from before schemas were
// typed (its input schema has "type": "" or none) is offered typed
// "object" too, while the server starts.
func TestRecalledSchemaTyped(t *testing.T) {
	s := &starting{name: "old", started: make(chan struct{}), known: []mcp.Tool{
		{Name: "empty", RawInputSchema: json.RawMessage(`{"type":"","properties":{}}`)},
		{Name: "none", RawInputSchema: json.RawMessage(`{"$schema":"http://json-schema.org/draft-07/schema#"}`)},
		{Name: "fine", RawInputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"}}}`)},
	}}
	r := New(Options{})
	r.Add(s)
	tools, errs := r.Tools(t.Context())
	if len(errs) != 0 || len(tools) != 3 {
		t.Fatalf("tools %+v, errs %+v", tools, errs)
	}
	for _, tl := range tools {
		var schema struct{ Type string }
		raw, _ := tl.Schema()
		if err := json.Unmarshal(raw, &schema); err != nil || schema.Type != "object" {
			t.Errorf("%s: schema %s", tl.Name, raw)
		}
	}
	if string(s.known[0].RawInputSchema) != `{"type":"","properties":{}}` {
		t.Error("the source's own listing was changed")
	}
}
