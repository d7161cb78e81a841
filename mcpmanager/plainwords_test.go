package mcpmanager

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/plain"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

// A server whose launcher is not installed says so, and what to do, as the
// first line of its status and of its test connection (the window shows
// that line, the rest behind a disclosure; the CLI prints it first).
func TestMissingLauncherSaysWhatToInstall(t *testing.T) {
	empty := t.TempDir()
	t.Setenv("PATH", empty) // neither the servers' PATH nor the app's has uvx
	var errs = make(chan string, 8)
	m := New(Options{BaseEnv: []string{"PATH=" + empty}, OnStatus: func(st supervisor.Status) {
		if st.State == supervisor.Error {
			errs <- st.Error
		}
	}})
	t.Cleanup(func() { m.Close(context.Background()) })
	cfg := ServerConfig{Name: "weather", Command: "uvx", Args: []string{"weather-mcp"}}
	const want = "uvx is not installed: install uv (https://docs.astral.sh/uv/) or change the command in Edit"

	m.Apply([]ServerConfig{cfg})
	select {
	case got := <-errs:
		first, detail, _ := strings.Cut(got, "\n")
		if first != want {
			t.Errorf("status error's first line %q\nwant %q", first, want)
		}
		if !strings.Contains(detail, "executable file not found") {
			t.Errorf("the detail lost what the system said: %q", detail)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("no error status; statuses %+v", m.Status())
	}

	p := m.Test(t.Context(), cfg)
	if p.OK || !strings.HasPrefix(p.Error, want) {
		t.Fatalf("test connection: failed %q error %q, want it to start with %q", p.Failed, p.Error, want)
	}
	r := Report("weather", p, nil)
	if first, _, _ := strings.Cut(r.Steps[len(r.Steps)-1].Error, "\n"); first != want {
		t.Fatalf("the failed step says %q", first)
	}
}

// refuser answers no request: the probe must only declare the
// capabilities, never use them.
type refuser struct{}

func (refuser) CreateMessage(context.Context, string, mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	return nil, errors.New("not in a test")
}

func (refuser) Elicit(context.Context, string, mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	return nil, errors.New("not in a test")
}

// Test connection counts the tools the Servers row counts: the real
// server-everything lists its sampling, elicitation and roots tools only
// to a client that offers those, so the probe must offer what the
// supervised session offers.
func TestTestConnectionCountsWhatTheRowCounts(t *testing.T) {
	m := New(Options{})
	m.SetRequestHandler(refuser{})
	t.Cleanup(func() { m.Close(context.Background()) })
	cfg := ServerConfig{Name: "everything", Command: proctest.NPM(t, "mcp-server-everything"), Roots: []string{t.TempDir()}}
	m.Apply([]ServerConfig{cfg})
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	m.WaitSettled(ctx)
	row, err := m.Router().ServerTools(ctx, "everything")
	if err != nil {
		t.Fatal(err)
	}
	var rowNames []string
	for _, tl := range row {
		rowNames = append(rowNames, tl.Name)
	}
	if !slices.Contains(rowNames, "trigger-sampling-request") {
		t.Fatalf("the session lists no sampling tool: %v", rowNames)
	}
	r := Report("everything", m.Test(ctx, cfg), nil)
	if !r.OK || r.ToolCount != len(row) {
		t.Fatalf("test counted %d tools (%v), the row %d (%v)", r.ToolCount, r.Tools, len(row), rowNames)
	}
	if want := ToolSummary(len(row), 0, nil); r.Summary != want {
		t.Fatalf("summary %q, want %q", r.Summary, want)
	}
}

func TestToolSummary(t *testing.T) {
	for _, c := range []struct {
		count, appOnly int
		dups           []string
		want           string
	}{
		{12, 2, nil, "12 tools, 2 of them app-only (not shown to the model)"},
		{12, 0, nil, "12 tools"},
		{1, 0, nil, "1 tool"},
		{1, 1, nil, "1 tool, app-only (not shown to the model)"},
		{5, 1, []string{"echo"}, "5 tools, 1 of them app-only (not shown to the model); listed twice by the server, used once: echo"},
	} {
		if got := ToolSummary(c.count, c.appOnly, c.dups); got != c.want {
			t.Errorf("%d/%d/%v: %q, want %q", c.count, c.appOnly, c.dups, got, c.want)
		}
	}
}

// The probe's report counts app-only tools and names listed twice.
func TestReportSaysWhatTheModelDoesNotSee(t *testing.T) {
	r := Report("x", supervisor.Probe{OK: true, Tools: []string{"show", "app_only", "echo", "echo"}, AppOnly: []string{"app_only"}}, nil)
	if r.ToolCount != 3 || r.Summary != "3 tools, 1 of them app-only (not shown to the model); listed twice by the server, used once: echo" {
		t.Fatalf("report %+v", r)
	}
	if s, _ := plain.Explain(errors.New(r.Summary)); s != r.Summary {
		t.Fatal("a one-line error is its own sentence")
	}
}
