package host

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/mcpmanager"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
)

// allowedDirs asks the real filesystem server for its allowed directories.
func allowedDirs(t *testing.T, h *Host, server string) string {
	t.Helper()
	res, err := h.Tools.Call(t.Context(), server+"__list_allowed_directories", map[string]any{})
	if err != nil {
		t.Fatalf("%s: list_allowed_directories: %v", server, err)
	}
	return mcptest.Text(res)
}

// waitAllowed polls the server until its allowed directories mention want:
// it fetches its roots on its own after notifications/roots/list_changed.
func waitAllowed(t *testing.T, h *Host, server, want string) {
	t.Helper()
	mcptest.UntilNil(t, fmt.Sprintf("%s to allow %s", server, want), func() error {
		if got := allowedDirs(t, h, server); !strings.Contains(got, want) {
			return fmt.Errorf("allowed directories %q", got)
		}
		return nil
	})
}

// filesystemServer is the pinned @modelcontextprotocol/server-filesystem.
func filesystemServer(t *testing.T) string {
	t.Helper()
	return proctest.NPM(t, "mcp-server-filesystem")
}

// runServers opens a host with the built-ins and servers as config.json's
// servers, loads it and waits until every server has settled.
func runServers(t *testing.T, servers ...config.Server) *Host {
	t.Helper()
	h := open(t)
	h.Servers.StartBuiltins()
	if err := h.edit(func(cfg *config.Config) error { cfg.Servers = servers; return nil }); err != nil {
		t.Fatal(err)
	}
	if err := h.Servers.Load(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	h.mgr.WaitSettled(ctx)
	return h
}

// TestRootsOfTheRealFilesystemServer starts the pinned
// @modelcontextprotocol/server-filesystem without folders: its only
// allowed directory is the workspace (the roots Switchboard offers), it
// follows a switch of the workspace (notifications/roots/list_changed), and
// an entry's "roots" replace the workspace.
func TestRootsOfTheRealFilesystemServer(t *testing.T) {
	bin := filesystemServer(t)
	own := t.TempDir()
	h := runServers(t,
		config.Server{Name: "fs", Transport: config.Stdio, Command: bin},
		config.Server{Name: "pinned", Transport: config.Stdio, Command: bin, Roots: []string{own}},
	)

	ws := h.Workspace.Root()
	waitAllowed(t, h, "fs", ws)
	// Each server asks for its roots on its own once initialized: under
	// load "pinned" may not have yet when "fs" has.
	waitAllowed(t, h, "pinned", own)
	if got := allowedDirs(t, h, "pinned"); !strings.Contains(got, own) || strings.Contains(got, ws) {
		t.Fatalf("pinned: allowed %q, want only its own root %s", got, own)
	}
	sup, err := h.mgr.Server("fs")
	if err != nil {
		t.Fatal(err)
	}
	pid := sup.Status().PID

	moved := t.TempDir()
	if err := h.Workspace.SetRoot(moved); err != nil {
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

// TestFilesystemServerKeepsItsFolders: the real server-filesystem set up
// with a folder (as an imported Claude config has it) can still write there
// — it replaces its folders with the roots it is offered, so offering the
// workspace took them away —, one set up with none works in the workspace,
// "both" offers the two, and choosing the workspace later moves it there.
func TestFilesystemServerKeepsItsFolders(t *testing.T) {
	bin := filesystemServer(t)
	docs, other := t.TempDir(), t.TempDir()
	h := runServers(t,
		config.Server{Name: "docs", Transport: config.Stdio, Command: bin, Args: []string{docs}},
		config.Server{Name: "plain", Transport: config.Stdio, Command: bin},
		config.Server{Name: "both", Transport: config.Stdio, Command: bin, Args: []string{other}, RootsMode: config.RootsBoth},
	)
	ws := h.Workspace.Root()

	write := func(server, path string) {
		t.Helper()
		res, err := h.Tools.Call(t.Context(), server+"__write_file", map[string]any{"path": path, "content": "hello from " + server})
		if err != nil || res.IsError {
			t.Fatalf("%s: write_file %s: %v %+v", server, path, err, res)
		}
		if b, err := os.ReadFile(path); err != nil || string(b) != "hello from "+server {
			t.Fatalf("%s: %s holds %q (%v)", server, path, b, err)
		}
	}
	write("docs", filepath.Join(docs, "note.txt"))
	if got := allowedDirs(t, h, "docs"); strings.Contains(got, ws) {
		t.Fatalf("docs: allowed %q, the workspace %s was offered to a server set up with a folder", got, ws)
	}
	write("plain", filepath.Join(ws, "plain.txt"))
	waitAllowed(t, h, "both", ws)
	if got := allowedDirs(t, h, "both"); !strings.Contains(got, other) {
		t.Fatalf("both: allowed %q, want %s and the workspace", got, other)
	}
	for name, want := range map[string]string{"docs": "configured", "plain": "workspace", "both": "both"} {
		if r := h.Servers.Applied().Roots[name]; r.Rule != want {
			t.Errorf("%s: rule %q, want %q (%+v)", name, r.Rule, want, r)
		}
	}

	if err := h.Servers.SetRoots("docs", config.RootsWorkspace, nil); err != nil {
		t.Fatal(err)
	}
	waitAllowed(t, h, "docs", ws)
	if err := h.Servers.SetRoots("docs", "list", []string{"relative/dir"}); err == nil {
		t.Fatal("a relative folder in a roots list was saved")
	}
	cfg, err := config.Load(h.dir.Config())
	if err != nil {
		t.Fatal(err)
	}
	if s := cfg.Servers[0]; s.RootsMode != config.RootsWorkspace || len(s.Roots) != 0 {
		t.Fatalf("docs saved as roots %q mode %q", s.Roots, s.RootsMode)
	}
}

func TestRootsOf(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "server.js")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	const ws = "/work/space"
	tests := []struct {
		name  string
		args  []string
		cwd   string
		roots []string
		mode  string
		want  []string
		rule  string
	}{
		{"no folders: the workspace", []string{"-y", "@modelcontextprotocol/server-memory"}, "", nil, "", []string{ws}, "workspace"},
		{"a folder argument", []string{"-y", "@modelcontextprotocol/server-filesystem", dir}, "", nil, "", []string{dir}, "configured"},
		{"a script is not a folder", []string{file}, "", nil, "", []string{ws}, "workspace"},
		{"--flag=DIR", []string{"--root=" + sub}, "", nil, "", []string{sub}, "configured"},
		{"a launcher's own folder", []string{"--directory", dir, "run", "server.py"}, "", nil, "", []string{ws}, "workspace"},
		{"relative to cwd", []string{"./sub"}, dir, nil, "", []string{sub}, "configured"},
		{"a missing folder", []string{filepath.Join(dir, "gone")}, "", nil, "", []string{ws}, "workspace"},
		{"repeats once", []string{dir, dir + "/"}, "", nil, "", []string{dir}, "configured"},
		{"both", []string{dir}, "", nil, config.RootsBoth, []string{dir, ws}, "both"},
		{"workspace chosen", []string{dir}, "", nil, config.RootsWorkspace, []string{ws}, "workspace"},
		{"configured chosen, none there", nil, "", nil, config.RootsConfigured, []string{}, "configured"},
		{"none", []string{dir}, "", nil, config.RootsNone, []string{}, "none"},
		{"a list wins", []string{dir}, "", []string{"/srv/x"}, config.RootsNone, []string{"/srv/x"}, "list"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := rootsOf(mcpmanager.ServerConfig{Args: tt.args, Dir: tt.cwd, Roots: tt.roots}, tt.mode, ws)
			if !slices.Equal(r.Folders, tt.want) || r.Rule != tt.rule {
				t.Fatalf("rootsOf = %q (%s), want %q (%s)", r.Folders, r.Rule, tt.want, tt.rule)
			}
		})
	}
}
