package mcpmanager

import (
	"context"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

// A server that is ready answers at once while others are still starting:
// listing the tools and calling one never waits for a server that has not
// finished its handshake (issue #22: 30 servers, some slow, some broken).
func TestReadyServerAnswersWhileOthersStart(t *testing.T) {
	ready := make(chan struct{})
	m := New(Options{LogDir: t.TempDir(), OnStatus: func(st supervisor.Status) {
		if st.Name == "ok" && st.State == supervisor.Ready {
			select {
			case <-ready:
			default:
				close(ready)
			}
		}
	}})
	t.Cleanup(func() { m.Close(context.WithoutCancel(t.Context())) })
	cfgs := []ServerConfig{{Name: "ok", Command: faultServer}}
	for _, name := range []string{"hang1", "hang2", "hang3"} {
		cfgs = append(cfgs, ServerConfig{Name: name, Command: faultServer, Args: []string{"-mode", "hang-init"},
			StartTimeout: time.Minute, Restart: supervisor.Restart{Disabled: true}})
	}
	cfgs = append(cfgs, ServerConfig{Name: "broken", Command: faultServer, Args: []string{"-mode", "exit-init"}, Restart: supervisor.Restart{Disabled: true}})
	m.Apply(cfgs)
	select {
	case <-ready:
	case <-time.After(30 * time.Second):
		t.Fatal("ok never became ready")
	}
	// Well under the hanging servers' minute: whatever waited for them fails.
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	tools, _ := m.Router().Tools(ctx)
	found := false
	for _, tl := range tools {
		found = found || tl.Server == "ok"
	}
	if !found || ctx.Err() != nil {
		t.Fatalf("listing tools while others start: ok's tools found=%v, ctx err %v", found, ctx.Err())
	}
	res, err := m.Router().Call(ctx, "ok", "echo", map[string]any{"text": "first"}, router.CallOptions{})
	if err != nil || mcptest.Text(res) != "first" {
		t.Fatalf("first call to ok while others start: %v, %v", res, err)
	}
	for _, st := range m.Status() {
		if st.Name == "hang1" && st.State != supervisor.Starting {
			t.Fatalf("hang1 is %s: the check ran after the others settled, proving nothing", st.State)
		}
	}
}
