package mcpmanager

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/builtin"
	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

// tinyBuiltin makes small in-process servers with one tool, whoami, that
// answers which built-in (and which Key) serves it; starts and releases are
// recorded in order.
type tinyBuiltin struct {
	mu      sync.Mutex
	events  []string
	client  mcp.Implementation // what the last whoami caller introduced itself as
	failErr error
}

func (b *tinyBuiltin) config(name, key string) ServerConfig {
	return ServerConfig{Name: name, Builtin: &Builtin{Key: key, Start: func() (*server.MCPServer, func() error, error) {
		b.record("start " + key)
		if b.failErr != nil {
			return nil, nil, b.failErr
		}
		s := server.NewMCPServer(name, "1.0.0", server.WithToolCapabilities(true))
		s.AddTool(mcp.NewTool("whoami"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if cs, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo); ok {
				b.mu.Lock()
				b.client = cs.GetClientInfo()
				b.mu.Unlock()
			}
			return mcp.NewToolResultText("built-in " + name + " " + key), nil
		})
		return s, func() error { b.record("release " + key); return nil }, nil
	}}}
}

func (b *tinyBuiltin) record(e string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.events = append(b.events, e)
}

func (b *tinyBuiltin) seen() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.events)
}

// statusLog records every status pushed to OnStatus.
type statusLog struct {
	mu      sync.Mutex
	all     []supervisor.Status
	changed chan struct{} // closed by the next on (until waits on it)
}

func (l *statusLog) on(st supervisor.Status) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.all = append(l.all, st)
	if l.changed != nil {
		close(l.changed)
		l.changed = nil
	}
}

// until waits for the first status of name in one of states and returns
// it. A server's OnStatus runs just after Status shows the new state, so
// WaitSettled can return before the callback has: read the log after this.
func (l *statusLog) until(ctx context.Context, name string, states ...supervisor.State) (supervisor.Status, error) {
	for {
		l.mu.Lock()
		for _, st := range l.all {
			if st.Name == name && slices.Contains(states, st.State) {
				l.mu.Unlock()
				return st, nil
			}
		}
		if l.changed == nil {
			l.changed = make(chan struct{})
		}
		changed := l.changed
		l.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
			return supervisor.Status{}, fmt.Errorf("%s never reported %v to OnStatus: %w", name, states, ctx.Err())
		}
	}
}

// progress lists the progress lines pushed for name (a download's).
func (l *statusLog) progress(name string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, st := range l.all {
		if st.Name == name && st.Progress != "" {
			out = append(out, st.Progress)
		}
	}
	return out
}

// states lists the pushed states of name, repeats folded.
func (l *statusLog) states(name string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, st := range l.all {
		s := string(st.State)
		if st.Builtin {
			s += "(built-in)"
		}
		if st.Name == name && (len(out) == 0 || out[len(out)-1] != s) {
			out = append(out, s)
		}
	}
	return out
}

func settle(t *testing.T, m *Manager) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	m.WaitSettled(ctx)
	if ctx.Err() != nil {
		t.Fatalf("not settled: %+v", m.Status())
	}
}

// whoami calls server's whoami through the router.
func whoami(t *testing.T, m *Manager, server string) (string, error) {
	t.Helper()
	res, err := m.Router().Call(t.Context(), server, "whoami", nil, router.CallOptions{})
	if err != nil {
		return "", err
	}
	return mcptest.Text(res), nil
}

func toolNames(t *testing.T, m *Manager) []string {
	t.Helper()
	tools, _ := m.Router().Tools(t.Context())
	var names []string
	for _, tl := range tools {
		names = append(names, tl.Name)
	}
	return names
}

// A built-in is supervised like any other server: its states are pushed,
// it has a log, it introduces itself with Options.ClientInfo, its tools go
// through the router with the long in-process call timeout.
func TestBuiltinIsSupervised(t *testing.T) {
	b := &tinyBuiltin{}
	var sl statusLog
	logs := t.TempDir()
	m := New(Options{LogDir: logs, OnStatus: sl.on, ClientInfo: mcp.Implementation{Name: "switchboard", Version: "9.9.9"}})
	t.Cleanup(func() { m.Close(context.Background()) })
	m.Apply([]ServerConfig{b.config("tiny", "root-a")})
	settle(t, m)

	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	if _, err := sl.until(ctx, "tiny", supervisor.Ready); err != nil {
		t.Fatal(err)
	}
	if got := sl.states("tiny"); !slices.Equal(got, []string{"starting(built-in)", "ready(built-in)"}) {
		t.Errorf("pushed states = %v", got)
	}
	st := m.Status()
	if len(st) != 1 || st[0].Name != "tiny" || st[0].State != supervisor.Ready || !st[0].Builtin || st[0].ServerInfo.Name != "tiny" {
		t.Fatalf("Status() = %+v", st)
	}
	if got := toolNames(t, m); !slices.Equal(got, []string{"tiny__whoami"}) {
		t.Fatalf("tools = %v", got)
	}
	if got, err := whoami(t, m, "tiny"); err != nil || got != "built-in tiny root-a" {
		t.Fatalf("whoami = %q, %v", got, err)
	}
	if c := b.client; c.Name != "switchboard" || c.Version != "9.9.9" {
		t.Errorf("introduced as %+v", c)
	}
	// Test connection would start a second copy beside this one: refused.
	if p := m.Test(t.Context(), b.config("tiny", "root-a")); p.OK || p.Failed != supervisor.StepStart ||
		p.Error != "tiny: built-in servers run inside Switchboard and need no test" {
		t.Errorf("Test = %+v", p)
	}
	m.mu.Lock()
	timeout := source{m.servers["tiny"]}.CallTimeout()
	m.mu.Unlock()
	if timeout != InProcessCallTimeout {
		t.Errorf("call timeout %v, want %v", timeout, InProcessCallTimeout)
	}
	sup, err := m.Server("tiny")
	if err != nil {
		t.Fatal(err)
	}
	sup.Log().Add("a line of the built-in")
	if err := m.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got := b.seen(); !slices.Equal(got, []string{"start root-a", "release root-a"}) {
		t.Errorf("events = %v", got)
	}
	if data, _ := os.ReadFile(filepath.Join(logs, "tiny.log")); !strings.Contains(string(data), "a line of the built-in") {
		t.Errorf("tiny.log = %q", data)
	}
}

// Apply leaves a built-in running while its Key stays, restarts it when
// the Key changes (the old one released before the new one starts), and
// stops and releases it when it is gone. Restart does the same.
func TestBuiltinApplyAndRestart(t *testing.T) {
	b := &tinyBuiltin{}
	m := New(Options{})
	t.Cleanup(func() { m.Close(context.Background()) })
	m.Apply([]ServerConfig{b.config("tiny", "root-a")})
	settle(t, m)
	first, _ := m.Server("tiny")

	m.Apply([]ServerConfig{b.config("tiny", "root-a")}) // a new Start func, the same Key
	settle(t, m)
	if again, _ := m.Server("tiny"); again != first {
		t.Fatal("restarted although its Key did not change")
	}

	m.Apply([]ServerConfig{b.config("tiny", "root-b")})
	settle(t, m)
	if got, err := whoami(t, m, "tiny"); err != nil || got != "built-in tiny root-b" {
		t.Fatalf("after the Key changed: whoami = %q, %v", got, err)
	}

	if err := m.Restart(t.Context(), "tiny"); err != nil {
		t.Fatal(err)
	}
	settle(t, m)
	if st := m.Status(); len(st) != 1 || st[0].State != supervisor.Ready || !st[0].Builtin {
		t.Fatalf("after Restart: %+v", st)
	}

	m.Apply(nil)
	if got := toolNames(t, m); len(got) != 0 {
		t.Errorf("tools after removal: %v", got)
	}
	if err := m.Close(t.Context()); err != nil { // waits for the stop Apply began
		t.Fatal(err)
	}
	want := []string{"start root-a", "release root-a", "start root-b", "release root-b", "start root-b", "release root-b"}
	if got := b.seen(); !slices.Equal(got, want) {
		t.Errorf("events = %v\nwant %v", got, want)
	}
}

// A built-in that cannot start shows the error in its status, its log and
// the router's listing errors, naming the server once, and is not
// retried.
func TestBuiltinStartError(t *testing.T) {
	cause := errors.New("the store is held by another Switchboard; quit it")
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"plain error", cause, "tiny: the store is held by another Switchboard; quit it"},
		{"builtin.StartError naming it", &builtin.StartError{Server: "tiny", Err: cause}, "tiny: the store is held by another Switchboard; quit it"},
		{"builtin.StartError naming another", &builtin.StartError{Server: "other", Err: cause},
			"tiny: built-in server other: the store is held by another Switchboard; quit it"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := &tinyBuiltin{failErr: tt.err}
			logs := t.TempDir()
			m := New(Options{LogDir: logs})
			t.Cleanup(func() { m.Close(context.Background()) })
			m.Apply([]ServerConfig{b.config("tiny", "root-a")})
			settle(t, m)
			if st := m.Status(); len(st) != 1 || st[0].State != supervisor.Error || st[0].Error != tt.want || !st[0].Builtin {
				t.Fatalf("Status() = %+v, want the error %q", st, tt.want)
			}
			if _, errs := m.Router().Tools(t.Context()); len(errs) != 1 || errs[0].Server != "tiny" || !strings.Contains(errs[0].Err, "held by another") {
				t.Errorf("listing errors = %+v", errs)
			}
			if data, _ := os.ReadFile(filepath.Join(logs, "tiny.log")); !strings.Contains(string(data), tt.want) {
				t.Errorf("tiny.log = %q", data)
			}
			if got := b.seen(); !slices.Equal(got, []string{"start root-a"}) {
				t.Errorf("events = %v", got)
			}
		})
	}
}

// A configured server cannot take a built-in's name (issue 16, item 3):
// whether the name is one of the reserved ones or another built-in's, and
// wherever the built-in stands in Apply's list, the configured one is
// refused with an error saying to rename it, listed once under
// "NAME (configured)" (in Status, pushed and in the router's listing
// errors, never under the built-in's name), and the built-in keeps running
// with its tools.
func TestBuiltinNamesCannotBeTaken(t *testing.T) {
	impostor := func(name string) ServerConfig {
		return ServerConfig{Name: name, Command: faultServer, Args: []string{"-mode", "ok"}}
	}
	refused := func(name string) string {
		return fmt.Sprintf("the name %q is reserved for Switchboard's built-in server; rename this server in config.json", name)
	}
	tests := []struct {
		name         string
		builtin      string // the built-in's name
		builtinAfter bool   // the built-in comes after the impostor in Apply's list
		impostor     string
	}{
		{"reserved name", "workspace", false, "workspace"},
		{"reserved name, built-in listed after it", "workspace", true, "workspace"},
		{"reserved name in other case", "content-store", false, "Content-Store"},
		{"another built-in's name", "notes", false, "notes"},
		{"another built-in's name, built-in listed after it", "notes", true, "notes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := &tinyBuiltin{}
			var sl statusLog
			m := New(Options{OnStatus: sl.on})
			t.Cleanup(func() { m.Close(context.Background()) })
			cfgs := []ServerConfig{impostor(tt.impostor), impostor("other")}
			if tt.builtinAfter {
				cfgs = append(cfgs, b.config(tt.builtin, "k"))
			} else {
				cfgs = append([]ServerConfig{b.config(tt.builtin, "k")}, cfgs...)
			}
			m.Apply(cfgs)
			settle(t, m)

			if got, err := whoami(t, m, tt.builtin); err != nil || got != "built-in "+tt.builtin+" k" {
				t.Fatalf("%s__whoami = %q, %v: the built-in lost its tools", tt.builtin, got, err)
			}
			var states []string
			for _, st := range m.Status() {
				states = append(states, fmt.Sprintf("%s|%s|%v|%s", st.Name, st.State, st.Builtin, st.Error))
			}
			listed := tt.impostor + " (configured)"
			want := []string{
				fmt.Sprintf("%s|error|false|%s", listed, refused(tt.impostor)),
				"other|ready|false|",
			}
			builtinState := tt.builtin + "|ready|true|"
			if tt.builtinAfter {
				want = append(want, builtinState)
			} else {
				want = append([]string{builtinState}, want...)
			}
			if !slices.Equal(states, want) {
				t.Errorf("Status() =\n%s\nwant\n%s", strings.Join(states, "\n"), strings.Join(want, "\n"))
			}
			if _, errs := m.Router().Tools(t.Context()); len(errs) != 1 || errs[0].Server != listed || errs[0].Err != refused(tt.impostor) {
				t.Errorf("listing errors = %+v, want the refusal under %q", errs, listed)
			}
			if got := sl.states(listed); !slices.Equal(got, []string{"error"}) {
				t.Errorf("pushed states of %q: %v", listed, got)
			}
			// Nothing pushed under the built-in's name says it failed.
			for _, s := range sl.states(tt.builtin) {
				if strings.HasPrefix(s, "error") {
					t.Errorf("pushed states of %s: %v", tt.builtin, sl.states(tt.builtin))
				}
			}
			// Applying the same list again changes nothing.
			m.Apply(cfgs)
			if again := m.Status(); len(again) != len(want) {
				t.Errorf("Status() after the same Apply = %+v", again)
			}
			// Test connection refuses it too, without starting it.
			if p := m.Test(t.Context(), impostor(tt.impostor)); p.OK || p.Failed != supervisor.StepStart || p.Error != refused(tt.impostor) {
				t.Errorf("Test = %+v", p)
			}
		})
	}
}
