package mcpmanager

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/pins"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

// TestListingRecalledAsListed: a real server's listing, kept by one
// manager, is recalled by the next exactly as the server sent it: every
// schema keyword ($schema, $defs, an output schema) and the definition
// its pin was taken of, so a recalled tool is not withheld as changed.
func TestListingRecalledAsListed(t *testing.T) {
	dir := t.TempDir()
	entries := []config.Server{
		{Name: "everything", Command: proctest.NPM(t, "mcp-server-everything")},
		{Name: "content", Command: proctest.Server(t, "contentserver")},
	}
	specs := func() []ServerConfig { return Specs(entries, func(v string) (string, error) { return v, nil }) }
	m := New(Options{ListingsDir: dir})
	t.Cleanup(func() { _ = m.Close(context.WithoutCancel(t.Context())) })
	m.Apply(specs())
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	m.WaitSettled(ctx)
	for _, c := range specs() {
		live, err := m.Router().ServerTools(ctx, c.Name)
		if err != nil || len(live) == 0 {
			t.Fatalf("%s: tools %v, %v", c.Name, live, err)
		}
		got := newListing(dir, c, nil).recall()
		if len(got) != len(live) {
			t.Fatalf("%s: recalled %d tools, listed %d", c.Name, len(got), len(live))
		}
		for i := range live {
			lb, _ := json.Marshal(live[i])
			gb, _ := json.Marshal(got[i])
			if !bytes.Equal(lb, gb) || !bytes.Equal(live[i].RawInputSchema, got[i].RawInputSchema) || !bytes.Equal(live[i].RawOutputSchema, got[i].RawOutputSchema) {
				t.Fatalf("%s: recalled\n%s\nlisted\n%s", c.Name, gb, lb)
			}
			lh, _, _ := pins.Hash(live[i])
			gh, _, _ := pins.Hash(got[i])
			if lh != gh {
				t.Errorf("%s: %s's pin hash %s recalled, %s listed", c.Name, live[i].Name, gh, lh)
			}
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(files) != 2 {
		t.Fatalf("kept %v, want a file per server", files)
	}
	info, err := os.Stat(files[0])
	if err != nil {
		t.Fatal(err)
	}

	// Listed again (a second session of the same tools): the file is not
	// written again.
	m.Router().Invalidate("everything")
	m.Router().Invalidate("content")
	if _, errs := m.Router().Tools(ctx); len(errs) != 0 {
		t.Fatalf("tools: %v", errs)
	}
	if again, err := os.Stat(files[0]); err != nil || !again.ModTime().Equal(info.ModTime()) {
		t.Errorf("an unchanged listing was written again (%v)", err)
	}
}

// TestListingKey: what runs decides the key; what only changes what the
// router offers does not.
func TestListingKey(t *testing.T) {
	base := config.Server{Name: "fs", Command: "npx", Args: []string{"-y", "server-filesystem", "/home/me"}, Env: map[string]string{"TOKEN": "${secret:fs_token}"}}
	key := listingKey(base)
	same := base.Clone()
	same.Roots, same.ToolTimeout, same.IncludeTools, same.Disabled = []string{"/tmp"}, time.Minute, []string{"read_file"}, true
	if listingKey(same) != key {
		t.Error("roots, timeout, a tool filter or switching it off changed the key")
	}
	for name, change := range map[string]func(*config.Server){
		"args":    func(s *config.Server) { s.Args = append(s.Args, "/tmp") },
		"env":     func(s *config.Server) { s.Env = map[string]string{"TOKEN": "${secret:other}"} },
		"command": func(s *config.Server) { s.Command = "uvx" },
		"name":    func(s *config.Server) { s.Name = "files" },
	} {
		c := base.Clone()
		change(&c)
		if listingKey(c) == key {
			t.Errorf("a change of %s kept the key", name)
		}
	}
}

// TestHoldRecalled: a server whose tools are known from its last run waits
// for the release HoldRecalled gives, offering those tools meanwhile; a
// server with none known starts at once.
func TestHoldRecalled(t *testing.T) {
	dir := t.TempDir()
	specs := Specs([]config.Server{
		{Name: "kept", Command: faultServer},
		{Name: "new", Command: faultServer, Args: []string{"-name", "new"}},
	}, func(v string) (string, error) { return v, nil })
	newListing(dir, specs[0], nil).remember([]mcp.Tool{mcp.NewTool("echo")})

	m := New(Options{ListingsDir: dir})
	t.Cleanup(func() { _ = m.Close(context.WithoutCancel(t.Context())) })
	hold := make(chan struct{})
	m.HoldRecalled(hold)
	m.Apply(specs)
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	for statusOf(m, "new").State != supervisor.Ready {
		select {
		case <-ctx.Done():
			t.Fatalf("new: %+v, want it started while kept is held", statusOf(m, "new"))
		case <-time.After(10 * time.Millisecond):
		}
	}
	if st := statusOf(m, "kept"); st.State != supervisor.Stopped {
		t.Fatalf("kept while held: %+v, want not started", st)
	}
	tools, errs := m.Router().Tools(ctx)
	if len(errs) != 0 || !slices.ContainsFunc(tools, func(tl router.Tool) bool { return tl.Name == "kept__echo" }) {
		t.Fatalf("tools while kept is held: %v, %v; want kept__echo as it was kept", tools, errs)
	}
	lctx, lcancel := context.WithTimeout(ctx, time.Second)
	m.WaitListed(lctx) // returns at once: kept's tools are known
	if lctx.Err() != nil {
		t.Error("WaitListed waited for a held server whose tools are known")
	}
	lcancel()
	close(hold)
	m.WaitSettled(ctx)
	if st := statusOf(m, "kept"); st.State != supervisor.Ready {
		t.Fatalf("kept after the release: %+v", st)
	}
}
