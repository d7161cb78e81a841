package mcpmanager

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/fetch"
	"github.com/switchboard-app/switchboard/mcpmanager/fetch/fetchtest"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

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

	var log statusLog
	m := New(Options{LogDir: t.TempDir(), OnStatus: log.on})
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
	if _, err := log.until(ctx, "tiny", supervisor.Ready); err != nil {
		t.Fatal(err)
	}
	if got := log.states("tiny"); !slices.Equal(got, []string{"starting", "installing", "starting", "ready"}) {
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
	var log statusLog
	m := New(Options{LogDir: t.TempDir(), OnStatus: log.on})
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
	// When each got there: the first ready or failed status's Since.
	failed, err := log.until(ctx, "hang", supervisor.Ready, supervisor.Error)
	if err != nil {
		t.Fatal(err)
	}
	ready, err := log.until(ctx, "ok", supervisor.Ready, supervisor.Error)
	if err != nil {
		t.Fatal(err)
	}
	if took := failed.Since.Sub(begin); took < startup || took > startup+supervisor.DefaultStartTimeout/2 {
		t.Errorf("hang failed after %s, want its own %s", took, startup)
	}
	if !ready.Since.Before(failed.Since) {
		t.Errorf("ok was ready at %s, after hang failed at %s: it waited", ready.Since.Sub(begin), failed.Since.Sub(begin))
	}
	if p := fetch.For(faultServer, nil); p != nil {
		t.Errorf("a plain binary got a fetch plan %+v", p)
	}
}
