package host

import (
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

func TestTaskSettings(t *testing.T) {
	h := open(t)
	if err := h.Servers.Load(); err != nil {
		t.Fatal(err)
	}
	p, err := h.Tasks.Policy()
	if err != nil || p != (TaskPolicy{Optional: true, Limit: router.DefaultTaskLimit}) {
		t.Fatalf("default policy = %+v, %v", p, err)
	}
	want := TaskPolicy{Optional: false, Limit: 90 * time.Minute}
	if err := h.Tasks.SetPolicy(want); err != nil {
		t.Fatal(err)
	}
	if got := TaskPolicy(h.router().TaskPolicy()); got != want {
		t.Fatalf("router follows %+v, want %+v", got, want)
	}
	cfg, err := config.Load(h.Dir().Config())
	if err != nil || !strings.Contains(string(cfg.Settings), `"tasks":{"optionalAsTasks":false,"limitMinutes":90}`) {
		t.Fatalf("saved settings %s, %v", cfg.Settings, err)
	}
	// Another process's edit (the CLI) reaches the running router on load.
	h.router().SetTaskPolicy(router.DefaultTaskPolicy)
	if err := h.Servers.Load(); err != nil {
		t.Fatal(err)
	}
	if got := TaskPolicy(h.router().TaskPolicy()); got != want {
		t.Fatalf("after load %+v, want %+v", got, want)
	}
	if err := h.Tasks.SetPolicy(TaskPolicy{Limit: 10 * time.Second}); err == nil || !strings.Contains(err.Error(), "choose between 1 minute") {
		t.Fatalf("a 10 s limit: %v", err)
	}
}
