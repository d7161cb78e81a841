package host

import (
	"context"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/app/datadir"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/fetch"
	"github.com/switchboard-app/switchboard/mcpmanager/fetch/fetchtest"
	"github.com/switchboard-app/switchboard/mcpmanager/process"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

func TestDownloadTimeoutSetting(t *testing.T) {
	h := open(t)
	d := h.Fetch
	if got, err := d.Timeout(); err != nil || got != fetch.Timeout {
		t.Fatalf("Timeout() = %s, %v; want the default %s", got, err, fetch.Timeout)
	}
	tests := []struct {
		set  time.Duration
		want time.Duration // after the call
		err  string
	}{
		{12 * time.Minute, 12 * time.Minute, ""},
		{time.Second, 12 * time.Minute, "choose between 10 seconds"},
		{3 * time.Hour, 12 * time.Minute, "choose between 10 seconds"},
		{90 * time.Second, 90 * time.Second, ""},
	}
	for _, tt := range tests {
		err := d.SetTimeout(tt.set)
		if (err == nil) != (tt.err == "") || err != nil && !strings.Contains(err.Error(), tt.err) {
			t.Errorf("SetTimeout(%s) = %v, want %q", tt.set, err, tt.err)
		}
		if got, _ := d.Timeout(); got != tt.want {
			t.Errorf("after SetTimeout(%s): %s, want %s", tt.set, got, tt.want)
		}
	}
	cfg, err := h.readConfig()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(cfg.Settings), `"servers":{"downloadTimeoutSeconds":90}`) {
		t.Errorf("settings = %s", cfg.Settings)
	}
}

// A server added (even disabled) has its package downloaded at once, in
// the background; enabled later it starts warm, without installing.
func TestAddedServerIsFetchedInTheBackground(t *testing.T) {
	reg, err := fetchtest.Start(t.Context(), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dir := datadir.Dir(t.TempDir())
	if err := dir.Ensure(); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var states []supervisor.State
	h := Open(Options{Dir: dir, OnStatus: func(st supervisor.Status) {
		if st.Name == "tiny" {
			mu.Lock()
			states = append(states, st.State)
			mu.Unlock()
		}
	}})
	t.Cleanup(func() { h.Close(context.Background()) })
	if err := h.Servers.Load(); err != nil {
		t.Fatal(err)
	}
	npmEnv := reg.Env(t.TempDir())
	if err := h.Servers.Add(config.Server{Name: "tiny", Transport: config.Stdio, Command: "npx", Args: []string{"-y", reg.Spec()}, Env: npmEnv, Disabled: true}); err != nil {
		t.Fatal(err)
	}
	// The plan and environment as the manager runs them.
	npx, err := process.LookPath("npx", process.LoginPATH())
	if err != nil {
		t.Fatal(err)
	}
	plan := fetch.For(npx, []string{"-y", reg.Spec()})
	env := os.Environ()
	for k, v := range npmEnv {
		env = append(env, k+"="+v)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	for !fetch.Fetched(plan, env) {
		select {
		case <-ctx.Done():
			t.Fatal("the added server's package was not downloaded")
		case <-time.After(50 * time.Millisecond):
		}
	}
	if err := h.Servers.SetEnabled("tiny", true); err != nil {
		t.Fatal(err)
	}
	h.mgr.WaitSettled(ctx)
	for _, st := range h.mgr.Status() {
		if st.Name == "tiny" && st.State != supervisor.Ready {
			t.Fatalf("tiny: %s %s", st.State, st.Error)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if slices.Contains(states, supervisor.Installing) {
		t.Errorf("states %v: the first start downloaded again", states)
	}
	if n := reg.Downloads.Load(); n != 1 {
		t.Errorf("downloaded %d times", n)
	}
}
