package workspace

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/builtin"
)

func TestToolsAndAnnotations(t *testing.T) {
	w := open(t, Options{Root: t.TempDir()})
	cl := connect(t, w)
	res, err := cl.ListTools(t.Context(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	readOnly := []string{"list_directory", "read_file", "search_files", "tree"}
	destructive := []string{"delete_file", "edit_file", "execute_python", "execute_shell", "move_file", "write_file"}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
		if len(tl.Description) < 100 {
			t.Errorf("%s: description too thin for a model: %q", tl.Name, tl.Description)
		}
		a := tl.Annotations
		ro := a.ReadOnlyHint != nil && *a.ReadOnlyHint
		de := a.DestructiveHint != nil && *a.DestructiveHint
		if ro != slices.Contains(readOnly, tl.Name) || de != slices.Contains(destructive, tl.Name) {
			t.Errorf("%s: readOnlyHint=%v destructiveHint=%v", tl.Name, ro, de)
		}
		// Risky agrees with the annotations in a workspace that is not fresh... or is.
		if w.Risky(tl.Name) == ro && !(w.Fresh() && (tl.Name == "write_file" || tl.Name == "edit_file")) {
			t.Errorf("Risky(%s) = %v", tl.Name, w.Risky(tl.Name))
		}
		// One type per schema: ["null","array"] is refused by clients that map
		// schemas onto one-type dialects (Gemini), and strict inspectors warn.
		if out, _ := json.Marshal(tl.OutputSchema); strings.Contains(string(out), `"type":[`) {
			t.Errorf("%s: outputSchema has a type array: %s", tl.Name, out)
		}
	}
	slices.Sort(names)
	if want := slices.Sorted(slices.Values(append(readOnly, destructive...))); !slices.Equal(names, want) {
		t.Fatalf("tools = %v, want %v", names, want)
	}
}

func TestFreshWorkspace(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "workspace") // does not exist yet
	w := open(t, Options{Root: dir})
	if !w.Fresh() || w.Root() != dir {
		t.Fatalf("new workspace: fresh=%v root=%s", w.Fresh(), w.Root())
	}
	if _, err := os.Stat(filepath.Join(dir, MarkerName)); err != nil {
		t.Fatalf("no marker: %v", err)
	}
	cases := []struct {
		tool  string
		risky bool
	}{
		{"write_file", false}, {"edit_file", false}, {"workspace__write_file", false},
		{"read_file", false}, {"tree", false},
		{"execute_shell", true}, {"workspace__execute_python", true}, {"delete_file", true}, {"move_file", true},
		{"someone_elses_tool", true},
	}
	for _, c := range cases {
		if got := w.Risky(c.tool); got != c.risky {
			t.Errorf("fresh: Risky(%s) = %v", c.tool, got)
		}
	}
	// The model cannot remove or fake the marker with the file tools.
	cl := connect(t, w)
	fails(t, cl, "write_file", map[string]any{"path": MarkerName, "content": ""}, "reserved by Switchboard")
	fails(t, cl, "delete_file", map[string]any{"path": MarkerName}, "reserved by Switchboard")
	fails(t, cl, "move_file", map[string]any{"path": MarkerName, "destination": "x"}, "reserved by Switchboard")
	ok(t, cl, "write_file", map[string]any{"path": "x.txt", "content": "x"})
	fails(t, cl, "move_file", map[string]any{"path": "x.txt", "destination": MarkerName}, "reserved by Switchboard")

	// Deleting the marker brings the approvals back at once, without a
	// restart; putting it back lifts them again.
	if err := os.Remove(filepath.Join(dir, MarkerName)); err != nil {
		t.Fatal(err)
	}
	if w.Fresh() || !w.Risky("write_file") || !w.Risky("workspace__edit_file") || w.Risky("read_file") {
		t.Fatalf("marker deleted: fresh=%v, Risky(write_file)=%v", w.Fresh(), w.Risky("write_file"))
	}
	if err := os.Mkdir(filepath.Join(dir, MarkerName), 0o755); err != nil { // not a file: no marker
		t.Fatal(err)
	}
	if w.Fresh() {
		t.Fatal("a directory named like the marker made the workspace fresh")
	}
	if err := os.Remove(filepath.Join(dir, MarkerName)); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, map[string]string{MarkerName: markerText})
	if !w.Fresh() || w.Risky("write_file") {
		t.Fatal("marker back: the workspace is not fresh again")
	}

	// Reopened with files in it, it is still fresh: the marker says so.
	if w2 := open(t, Options{Root: dir}); !w2.Fresh() {
		t.Fatal("reopened workspace is not fresh")
	}
	// A user's folder is not.
	user := t.TempDir()
	writeFiles(t, user, map[string]string{"notes.txt": "mine"})
	w3 := open(t, Options{Root: user})
	if w3.Fresh() || !w3.Risky("write_file") || !w3.Risky("edit_file") || w3.Risky("read_file") {
		t.Fatalf("user folder: fresh=%v", w3.Fresh())
	}
	if _, err := os.Stat(filepath.Join(user, MarkerName)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("marker written into a user's folder: %v", err)
	}
}

func TestBuiltinStartsAndCloses(t *testing.T) {
	dir := t.TempDir()
	srv, closeFn, err := Builtin.Start(builtin.Config{Root: dir})
	if err != nil || srv == nil {
		t.Fatal(err)
	}
	if err := closeFn(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Builtin.Start(builtin.Config{}); !errors.Is(err, builtin.ErrNoRoot) {
		t.Fatalf("no root: %v", err)
	}
	// A root that cannot be a directory.
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var se *builtin.StartError
	if _, _, err := Builtin.Start(builtin.Config{Root: file}); !errors.As(err, &se) {
		t.Fatalf("file as root: %v", err)
	}
}

func TestClosedWorkspace(t *testing.T) {
	w, err := Open(Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	cl := connect(t, w)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}
	fails(t, cl, "read_file", map[string]any{"path": "x"}, "the workspace is closed")
	fails(t, cl, "execute_shell", map[string]any{"command": "true"}, "the workspace is closed")
	if _, err := w.Session("default"); !errors.Is(err, ErrClosed) {
		t.Fatalf("session after close: %v", err)
	}
	if err := w.Close(ctx); err != nil {
		t.Fatalf("second close: %v", err)
	}
}

func TestBadArguments(t *testing.T) {
	w := open(t, Options{Root: t.TempDir()})
	cl := connect(t, w)
	cases := []struct {
		tool string
		args map[string]any
		msg  string
	}{
		{"read_file", map[string]any{"path": ""}, "read_file: invalid input: path must not be empty"},
		{"write_file", map[string]any{"path": "", "content": "x"}, "write_file: invalid input: path must not be empty"},
		{"edit_file", map[string]any{"path": "x", "old_string": "a"}, "new_string is required"},
		{"tree", map[string]any{"depth": -1}, "depth must be a positive whole number"},
		{"tree", map[string]any{"depth": "deep"}, "depth must be a number"},
		{"move_file", map[string]any{"path": "a"}, "destination is required"},
		{"execute_shell", map[string]any{}, "execute_shell: invalid input: command is required"},
		{"execute_shell", map[string]any{"command": "  "}, "command must not be empty"},
		{"execute_shell", map[string]any{"command": "true", "session": "../x"}, "invalid session name"},
		{"execute_shell", map[string]any{"command": "true", "timeoutMs": 0.5}, "timeoutMs must be a positive whole number"},
		{"execute_python", map[string]any{"code": ""}, "code must not be empty"},
		{"search_files", map[string]any{"pattern": []any{"*"}}, "pattern must be a string"},
	}
	for _, c := range cases {
		t.Run(c.tool+" "+c.msg, func(t *testing.T) {
			// Every error names its tool first, as the file tools' own do.
			if text := fails(t, cl, c.tool, c.args, c.msg); !strings.HasPrefix(text, c.tool+": ") {
				t.Fatalf("%q does not start with the tool's name", text)
			}
		})
	}
}
