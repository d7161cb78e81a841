package supervisor

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// builtin is a tiny in-process server ("echo", and "sample" that asks the
// client for a completion) that counts its starts and releases and keeps
// the clientInfo it was introduced to.
type builtin struct {
	mu       sync.Mutex
	starts   int
	releases int
	client   mcp.Implementation
	startErr error // returned by Start when set
}

func (b *builtin) start() (*server.MCPServer, func() error, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.starts++
	if b.startErr != nil {
		return nil, nil, b.startErr
	}
	s := server.NewMCPServer("tiny", "0.1", server.WithToolCapabilities(true))
	s.AddTool(mcp.NewTool("echo", mcp.WithString("text")), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if cs, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo); ok {
			b.mu.Lock()
			b.client = cs.GetClientInfo() // what the client introduced itself as
			b.mu.Unlock()
		}
		return mcp.NewToolResultText(req.GetString("text", "")), nil
	})
	s.AddTool(mcp.NewTool("sample"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		req := mcp.CreateMessageRequest{}
		req.Messages = []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent("hi")}}
		res, err := s.RequestSampling(ctx, req)
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		return mcp.NewToolResultText(res.Model), nil
	})
	return s, func() error {
		b.mu.Lock()
		defer b.mu.Unlock()
		b.releases++
		return errors.New("index still busy")
	}, nil
}

func (b *builtin) introduced() mcp.Implementation {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.client
}

func (b *builtin) counts() (starts, releases int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.starts, b.releases
}

// An in-process server goes through the same states as any other, is
// introduced with the configured client info, serves calls and
// sampling, and is released when it stops.
func TestInProcessServes(t *testing.T) {
	tests := []struct {
		name string
		info mcp.Implementation
		want mcp.Implementation
	}{
		{"client info given", mcp.Implementation{Name: "host", Version: "1.2.3"}, mcp.Implementation{Name: "host", Version: "1.2.3"}},
		{"default client info", mcp.Implementation{}, mcp.Implementation{Name: "switchboard", Version: "dev"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := &builtin{}
			rec := newRecorder()
			h := &answers{}
			s, stop, wait := runInProcess(t, Spec{Name: "tiny", InProcess: b.start}, Options{ClientInfo: tt.info, OnStatus: rec.on, Requests: h})
			st := waitState(t, s, Ready, 10*time.Second)
			if !st.Builtin || st.ServerInfo.Name != "tiny" || st.PID != 0 {
				t.Errorf("status = %+v", st)
			}
			if text, isErr, err := callTool(t.Context(), s, "sample"); err != nil || isErr || text != "test-model" {
				t.Errorf("sample = %q %v %v", text, isErr, err)
			}
			cl, err := s.Client()
			if err != nil {
				t.Fatal(err)
			}
			req := mcp.CallToolRequest{}
			req.Params.Name, req.Params.Arguments = "echo", map[string]any{"text": "in process"}
			if res, err := cl.CallTool(t.Context(), req); err != nil || res.Content[0].(mcp.TextContent).Text != "in process" {
				t.Fatalf("echo = %+v %v", res, err)
			}
			if got := b.introduced(); got.Name != tt.want.Name || got.Version != tt.want.Version {
				t.Errorf("introduced as %+v, want %+v", got, tt.want)
			}
			if starts, releases := b.counts(); starts != 1 || releases != 0 {
				t.Fatalf("while running: %d starts, %d releases", starts, releases)
			}
			s.Log().Add("marker")
			// Stop: Run returns once the session ended and the server was released.
			stop()
			if err := wait(); err != nil {
				t.Fatalf("Run = %v", err)
			}
			if starts, releases := b.counts(); starts != 1 || releases != 1 {
				t.Errorf("after stop: %d starts, %d releases", starts, releases)
			}
			if got := rec.seen(); !slices.Equal(got, []State{Starting, Ready, Stopped}) {
				t.Errorf("states = %v", got)
			}
			if tail := s.Log().Tail(0); !slices.Equal(tail, []string{"marker", "release: index still busy"}) {
				t.Errorf("log = %q", tail)
			}
		})
	}
}

// runInProcess supervises spec until stop or the end of the test; wait
// returns Run's result.
func runInProcess(t *testing.T, spec Spec, opts Options) (s *Server, stop context.CancelFunc, wait func() error) {
	t.Helper()
	s, err := New(spec, opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	var runErr error
	go func() { runErr = s.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return s, cancel, func() error {
		select {
		case <-done:
			return runErr
		case <-time.After(10 * time.Second):
			t.Fatal("Run did not return")
			return nil
		}
	}
}

// A built-in that cannot start says why in its status and its log, and
// waits for a restart instead of failing the same way again and again.
func TestInProcessStartFails(t *testing.T) {
	tests := []struct {
		name  string
		b     *builtin
		start func(b *builtin) InProcess
		want  string
	}{
		{"start error", &builtin{startErr: errors.New("store held by another Switchboard")}, func(b *builtin) InProcess { return b.start },
			"tiny: store held by another Switchboard"},
		{"no server", &builtin{}, func(b *builtin) InProcess {
			return func() (*server.MCPServer, func() error, error) {
				b.mu.Lock()
				defer b.mu.Unlock()
				b.starts++
				return nil, nil, nil
			}
		}, "tiny: the built-in returned no server"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := newRecorder()
			s, _, wait := runInProcess(t, Spec{Name: "tiny", InProcess: tt.start(tt.b), Restart: Restart{MaxAttempts: 3}}, Options{OnStatus: rec.on})
			err := wait()
			if err == nil || err.Error() != tt.want {
				t.Fatalf("Run = %v, want %s", err, tt.want)
			}
			st := s.Status()
			if st.State != Error || st.Error != tt.want || !st.Builtin || st.Restarts != 0 {
				t.Errorf("status = %+v", st)
			}
			if starts, _ := tt.b.counts(); starts != 1 {
				t.Errorf("%d starts, want 1", starts)
			}
			if got := rec.seen(); !slices.Equal(got, []State{Starting, Error}) {
				t.Errorf("states = %v", got)
			}
			if tail := s.Log().Tail(0); !slices.Equal(tail, []string{tt.want}) {
				t.Errorf("log = %q, want the error", tail)
			}
		})
	}
}

// Test connection works for in-process servers too, and releases it.
func TestInProcessProbe(t *testing.T) {
	b := &builtin{}
	s, err := New(Spec{Name: "tiny", InProcess: b.start}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := s.Probe(t.Context())
	if !p.OK || p.Transport != "in-process" || !slices.Equal(p.Tools, []string{"echo", "sample"}) || p.ServerInfo.Name != "tiny" {
		t.Fatalf("probe = %+v", p)
	}
	if starts, releases := b.counts(); starts != 1 || releases != 1 {
		t.Errorf("%d starts, %d releases", starts, releases)
	}
	if !strings.Contains(strings.Join(s.Log().Tail(0), "\n"), "release: index still busy") {
		t.Errorf("log = %q", s.Log().Tail(0))
	}
}
