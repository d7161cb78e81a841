package mcpmanager

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/fetch"
	"github.com/switchboard-app/switchboard/mcpmanager/fetch/fetchtest"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

// fetchLog keeps every status each server went through.
type fetchLog struct {
	mu   sync.Mutex
	seen map[string][]supervisor.Status
}

func (l *fetchLog) add(st supervisor.Status) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.seen == nil {
		l.seen = map[string][]supervisor.Status{}
	}
	l.seen[st.Name] = append(l.seen[st.Name], st)
}

// states is the server's states in order, repeats folded.
func (l *fetchLog) states(name string) []supervisor.State {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []supervisor.State
	for _, st := range l.seen[name] {
		if len(out) == 0 || out[len(out)-1] != st.State {
			out = append(out, st.State)
		}
	}
	return out
}

func (l *fetchLog) progress(name string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, st := range l.seen[name] {
		if st.Progress != "" {
			out = append(out, st.Progress)
		}
	}
	return out
}

// entry parses one server as a user writes it in config.json.
func entry(t *testing.T, name string, v map[string]any) ServerConfig {
	t.Helper()
	raw, err := json.Marshal(map[string]any{"mcpServers": map[string]any{name: v}})
	if err != nil {
		t.Fatal(err)
	}
	f, err := config.ParseContext(t.Context(), "config.json", raw)
	if err != nil {
		t.Fatal(err)
	}
	return FromConfig(f.Servers[0])
}

// An "npx -y" server on an empty npm cache whose download takes longer
// than its whole "startupTimeout" still comes up: the download is the
// installing phase, with npm's progress lines, and only the handshake is
// timed.
func TestFirstStartDownloadNotCounted(t *testing.T) {
	reg, err := fetchtest.Start(t.Context(), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	const startup = 3 * time.Second
	reg.SetDelay(startup + time.Second)
	env := reg.Env(t.TempDir())

	var log fetchLog
	m := New(Options{LogDir: t.TempDir(), OnStatus: log.add})
	t.Cleanup(func() { m.Close(context.WithoutCancel(t.Context())) })
	c := entry(t, "tiny", map[string]any{
		"command": "npx", "args": []string{"-y", reg.Spec()}, "env": env,
		"startupTimeout": startup.Milliseconds(), "restart": map[string]any{"enabled": false},
	})
	if c.StartTimeout != startup {
		t.Fatalf("StartTimeout = %s, want %s from \"startupTimeout\"", c.StartTimeout, startup)
	}
	m.Apply([]ServerConfig{c})
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	m.WaitSettled(ctx)

	st := m.Status()[0]
	if st.State != supervisor.Ready {
		t.Fatalf("state %s: %s (states %v)", st.State, st.Error, log.states("tiny"))
	}
	if got := log.states("tiny"); !slices.Equal(got, []supervisor.State{supervisor.Starting, supervisor.Installing, supervisor.Starting, supervisor.Ready}) {
		t.Errorf("states = %v, want starting, installing, starting, ready", got)
	}
	if p := log.progress("tiny"); !slices.ContainsFunc(p, func(l string) bool { return strings.Contains(l, fetchtest.Package+"-"+fetchtest.Version+".tgz") }) {
		t.Errorf("progress lines %q do not show the download", p)
	}
	if n := reg.Downloads.Load(); n != 1 {
		t.Errorf("downloaded %d times, want 1", n)
	}
	res, err := m.Router().Call(ctx, "tiny", "hello", nil, router.CallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := mcptest.Text(res); got != "hello from "+fetchtest.Package {
		t.Errorf("hello = %q", got)
	}
}

// A server hanging in initialize fails after its own "startupTimeout",
// not the default, and a healthy server started beside it is ready long
// before: no server waits for another.
func TestStartupTimeoutOwnAndIndependent(t *testing.T) {
	var log fetchLog
	var mu sync.Mutex
	readyAt := map[string]time.Time{}
	m := New(Options{LogDir: t.TempDir(), OnStatus: func(st supervisor.Status) {
		log.add(st)
		mu.Lock()
		if _, ok := readyAt[st.Name]; !ok && (st.State == supervisor.Ready || st.State == supervisor.Error) {
			readyAt[st.Name] = time.Now()
		}
		mu.Unlock()
	}})
	t.Cleanup(func() { m.Close(context.WithoutCancel(t.Context())) })
	const startup = 1500 * time.Millisecond
	hang := entry(t, "hang", map[string]any{"command": faultServer, "args": []string{"-mode", "hang-init"},
		"startupTimeout": startup.Milliseconds(), "restart": map[string]any{"enabled": false}})
	ok := entry(t, "ok", map[string]any{"command": faultServer})
	begin := time.Now()
	m.Apply([]ServerConfig{hang, ok})
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	m.WaitSettled(ctx)

	byName := map[string]supervisor.Status{}
	for _, st := range m.Status() {
		byName[st.Name] = st
	}
	if st := byName["hang"]; st.State != supervisor.Error || !strings.Contains(st.Error, supervisor.ErrTimeout.Error()) || !strings.Contains(st.Error, fmt.Sprintf("(%s)", startup)) {
		t.Fatalf("hang: %s %q, want an error naming the handshake timeout of %s", st.State, st.Error, startup)
	}
	if st := byName["ok"]; st.State != supervisor.Ready {
		t.Fatalf("ok: %s %q", st.State, st.Error)
	}
	mu.Lock()
	defer mu.Unlock()
	if took := readyAt["hang"].Sub(begin); took < startup || took > startup+supervisor.DefaultStartTimeout/2 {
		t.Errorf("hang failed after %s, want its own %s", took, startup)
	}
	if !readyAt["ok"].Before(readyAt["hang"]) {
		t.Errorf("ok was ready at %s, after hang failed at %s: it waited", readyAt["ok"].Sub(begin), readyAt["hang"].Sub(begin))
	}
	if p := fetch.For(faultServer, nil); p != nil {
		t.Errorf("a plain binary got a fetch plan %+v", p)
	}
}
