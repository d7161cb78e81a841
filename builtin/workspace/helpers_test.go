package workspace

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/builtin/mcptest"
)

// open opens a workspace on root, closed at the end of the test.
func open(t *testing.T, opts Options) *Workspace {
	t.Helper()
	w, err := Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// t.Context is already cancelled when cleanups run.
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		if err := w.Close(ctx); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	return w
}

// connect serves w over mcp-go's in-process transport.
func connect(t *testing.T, w *Workspace) *client.Client {
	t.Helper()
	cl, res := mcptest.ConnectResult(t, NewServer(w))
	if res.ServerInfo.Name != "workspace" || !strings.Contains(res.Instructions, "edit_file") {
		t.Fatalf("initialize = %+v", res)
	}
	return cl
}

// call calls a tool; a protocol error fails the test (tools must answer
// with isError instead).
func call(t *testing.T, cl *client.Client, tool string, args map[string]any) (*mcp.CallToolResult, string) {
	t.Helper()
	return mcptest.Call(t, cl, tool, args)
}

// ok calls a tool that must succeed, and checks its structuredContent
// against the tool's outputSchema, as the app's router does.
func ok(t *testing.T, cl *client.Client, tool string, args map[string]any) string {
	t.Helper()
	res, text := call(t, cl, tool, args)
	if res.IsError {
		t.Fatalf("%s %v: %s", tool, args, text)
	}
	if res.StructuredContent == nil {
		t.Fatalf("%s: no structuredContent", tool)
	}
	checkOutput(t, cl, tool, res)
	return text
}

// checkOutput validates res's structuredContent, as JSON, against the
// outputSchema tool declares (if it declares one).
func checkOutput(t *testing.T, cl *client.Client, tool string, res *mcp.CallToolResult) {
	t.Helper()
	list, err := cl.ListTools(t.Context(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(list.Tools, func(tl mcp.Tool) bool { return tl.Name == tool })
	if i < 0 || list.Tools[i].OutputSchema.Type == "" {
		return
	}
	var schema jsonschema.Schema
	var v any
	raw, err := json.Marshal(list.Tools[i].OutputSchema)
	if err == nil {
		err = json.Unmarshal(raw, &schema)
	}
	if err == nil {
		raw, err = json.Marshal(res.StructuredContent)
	}
	if err == nil {
		err = json.Unmarshal(raw, &v)
	}
	if err != nil {
		t.Fatal(err)
	}
	rs, err := schema.Resolve(nil)
	if err != nil {
		t.Fatalf("%s: outputSchema: %v", tool, err)
	}
	if err := rs.Validate(v); err != nil {
		t.Fatalf("%s: structuredContent %s does not match its outputSchema: %v", tool, raw, err)
	}
}

// structured decodes a result's structuredContent, as a client gets it.
func structured[T any](t *testing.T, res *mcp.CallToolResult) T {
	t.Helper()
	var v T
	raw, err := json.Marshal(res.StructuredContent)
	if err == nil {
		err = json.Unmarshal(raw, &v)
	}
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// fails calls a tool that must fail with a message containing want.
func fails(t *testing.T, cl *client.Client, tool string, args map[string]any, want string) string {
	t.Helper()
	res, text := call(t, cl, tool, args)
	if !res.IsError || !strings.Contains(text, want) {
		t.Fatalf("%s %v: isError=%v %q; want an error with %q", tool, args, res.IsError, text, want)
	}
	return text
}

// writeFiles creates files (name → content) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// unpack writes the files of a testdata archive ("-- name --" lines start
// files; text before the first is a comment) into dir.
func unpack(t *testing.T, archive, dir string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", archive))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	name := ""
	for line := range strings.SplitAfterSeq(string(b), "\n") {
		if n, ok := strings.CutPrefix(strings.TrimSpace(line), "-- "); ok && strings.HasSuffix(n, " --") {
			name = strings.TrimSuffix(n, " --")
			files[name] = ""
			continue
		}
		if name != "" {
			files[name] += line
		}
	}
	writeFiles(t, dir, files)
}
