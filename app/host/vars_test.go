package host

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A VS Code mcp.json imported from a folder's .vscode/ gets its variables
// written out (config.json has none), and what has no value is flagged in
// the preview rather than found by the server.
func TestImportExpandsVSCodeVariables(t *testing.T) {
	h := open(t)
	home, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "site", ".vscode", "mcp.json")
	data := `{"servers": {"fs": {"command": "/bin/true", "args": ["${userHome}/Projects", "${workspaceFolder}", "${selectedText}"]}}}`
	dry, err := h.ServerFiles.Import(t.Context(), ImportRequest{Name: "mcp.json", Path: path, Data: []byte(data), DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	var warned []string
	for _, p := range dry.Plan.Items[0].Problems {
		warned = append(warned, p.String())
	}
	if len(warned) != 1 || !strings.Contains(warned[0], "servers.fs.args[2]: uses ${selectedText}, which Switchboard gives no value") {
		t.Errorf("preview problems = %q, want ${selectedText} flagged", warned)
	}
	if _, err := h.ServerFiles.Import(t.Context(), ImportRequest{Name: "mcp.json", Path: path, Data: []byte(data)}); err != nil {
		t.Fatal(err)
	}
	s, ok := h.Servers.Get("fs")
	want := []string{filepath.Join(home, "Projects"), filepath.Dir(filepath.Dir(path)), "${selectedText}"}
	if !ok || !slices.Equal(s.Args, want) {
		t.Errorf("config.json holds args %q, want %q", s.Args, want)
	}
	if w := (ServerEdit{Server: s}).Warnings(); len(w) != 1 || w[0].Path != "args[2]" {
		t.Errorf("Edit warnings = %v, want args[2] flagged", w)
	}
}
