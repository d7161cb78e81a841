package gui

import (
	"os"
	"path/filepath"
	"testing"
)

// TestClientAppsListsWorkspaceProjectFiles: the Connected apps page takes
// the workspace as its project folder, so an app's project file there
// (VS Code's .vscode/mcp.json) is listed with its scope and its servers.
func TestClientAppsListsWorkspaceProjectFiles(t *testing.T) {
	a, _ := window(t)
	root := a.h.Workspace.Root()
	file := filepath.Join(root, ".vscode", "mcp.json")
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(`{"servers": {"notes": {"command": "node", "args": ["notes.js"]}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	v, err := a.ClientsPage.ClientApps()
	if err != nil {
		t.Fatal(err)
	}
	for _, app := range v.Apps {
		for _, f := range app.Files {
			if f.Path == file {
				if app.Name != "vscode" || f.Scope != "project" || f.Servers != 1 {
					t.Fatalf("the workspace's .vscode/mcp.json is listed as %s %+v", app.Name, f)
				}
				return
			}
		}
	}
	t.Fatalf("the workspace's %s is not listed: %+v", file, v.Apps)
}
