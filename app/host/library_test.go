package host

import (
	"slices"
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// TestProfilesComeFromTheServers: a profile exists once a server declares
// an override for it; only such a profile can be made active, and the
// server then runs with its override (Runnable).
func TestProfilesComeFromTheServers(t *testing.T) {
	h := open(t)
	if err := h.Servers.Add(config.Server{Name: "api", URL: "https://api.example.com/mcp"}); err != nil {
		t.Fatal(err)
	}
	if err := h.Library.SetProfile("work"); err == nil {
		t.Fatal("a profile no server declares was made active")
	}
	if err := h.Library.SetServerProfile("api", "work", ProfileOverride{URL: "https://work.example.com/mcp"}); err != nil {
		t.Fatal(err)
	}
	if err := h.Library.SetProfile("work"); err != nil {
		t.Fatal(err)
	}
	active, names, err := h.Library.Profiles()
	if err != nil || active != "work" || !slices.Equal(names, []string{"work"}) {
		t.Fatalf("Profiles = %q, %v, %v", active, names, err)
	}
	run, skipped, err := h.Servers.Runnable()
	if err != nil || len(skipped) > 0 || len(run) != 1 || run[0].URL != "https://work.example.com/mcp" {
		t.Fatalf("runs %+v (skipped %v, %v), not at the profile's URL", run, skipped, err)
	}
}
