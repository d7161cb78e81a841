package host

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// allowedDirs asks the real filesystem server for its allowed directories.
func allowedDirs(t *testing.T, h *Host, server string) string {
	t.Helper()
	res, err := h.Call(t.Context(), server+"__list_allowed_directories", map[string]any{})
	if err != nil {
		t.Fatalf("%s: list_allowed_directories: %v", server, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// waitAllowed polls the server until its allowed directories mention want:
// it fetches its roots on its own after notifications/roots/list_changed.
func waitAllowed(t *testing.T, h *Host, server, want string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		got := allowedDirs(t, h, server)
		if strings.Contains(got, want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: allowed directories %q, want %s", server, got, want)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestRootsOfTheRealFilesystemServer starts the pinned
// @modelcontextprotocol/server-filesystem without folders: its only
// allowed directory is the workspace (the roots Switchboard offers), it
// follows a switch of the workspace (notifications/roots/list_changed), and
// an entry's "roots" replace the workspace.
func TestRootsOfTheRealFilesystemServer(t *testing.T) {
	bin, err := filepath.Abs("../../mcpmanager/testdata/npm/node_modules/.bin/mcp-server-filesystem")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("run 'make test' (npm ci in mcpmanager/testdata/npm): %v", err)
	}
	h := open(t)
	h.StartBuiltins()
	own := t.TempDir()
	err = h.Edit(func(cfg *config.Config) error {
		cfg.Servers = []config.Server{
			{Name: "fs", Transport: config.Stdio, Command: bin},
			{Name: "pinned", Transport: config.Stdio, Command: bin, Roots: []string{own}},
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Load(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	h.Manager().WaitSettled(ctx)

	ws := h.Workspace().Root()
	waitAllowed(t, h, "fs", ws)
	if got := allowedDirs(t, h, "pinned"); !strings.Contains(got, own) || strings.Contains(got, ws) {
		t.Fatalf("pinned: allowed %q, want only its own root %s", got, own)
	}
	sup, err := h.Manager().Server("fs")
	if err != nil {
		t.Fatal(err)
	}
	pid := sup.Status().PID

	moved := t.TempDir()
	if err := h.Workspace().SetRoot(moved); err != nil {
		t.Fatal(err)
	}
	waitAllowed(t, h, "fs", moved)
	if got := allowedDirs(t, h, "fs"); strings.Contains(got, ws) {
		t.Fatalf("fs still allows the old workspace: %q", got)
	}
	if st := sup.Status(); st.PID != pid {
		t.Fatalf("fs was restarted (pid %d → %d); a new root must only be notified", pid, st.PID)
	}
	if got := allowedDirs(t, h, "pinned"); !strings.Contains(got, own) || strings.Contains(got, moved) {
		t.Fatalf("pinned followed the workspace: %q", got)
	}
}
