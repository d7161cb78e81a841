//go:build unix

package workspace_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/builtin/workspace"
)

func Example() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	ctx := context.Background()

	w, err := workspace.Open(workspace.Options{Root: filepath.Join(dir, "workspace")})
	if err != nil {
		log.Fatal(err)
	}
	defer func() {
		ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		w.Close(ctx)
	}()
	fmt.Println("fresh:", w.Fresh(), "| ask before write_file:", w.Risky("write_file"), "| before execute_shell:", w.Risky("execute_shell"))

	cl, _ := client.NewInProcessClient(workspace.NewServer(w))
	defer cl.Close()
	_ = cl.Start(ctx)
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	if _, err := cl.Initialize(ctx, init); err != nil {
		log.Fatal(err)
	}
	call := func(tool string, args map[string]any) {
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = tool, args
		res, err := cl.CallTool(ctx, req)
		if err != nil {
			log.Fatal(err)
		}
		text := res.Content[0].(mcp.TextContent).Text
		fmt.Printf("%s (isError=%v):\n%s\n", tool, res.IsError, strings.ReplaceAll(text, w.Root(), "$ROOT"))
	}
	call("write_file", map[string]any{"path": "notes/todo.md", "content": "- buy milk\n- call Bob\n"})
	call("edit_file", map[string]any{"path": "notes/todo.md", "old_string": "call Bob", "new_string": "call Alice"})
	call("read_file", map[string]any{"path": "notes/todo.md", "fromLine": 2})
	call("read_file", map[string]any{"path": "../secrets.txt"})
	call("execute_shell", map[string]any{"command": "cd notes && wc -l < todo.md"})
	// Output:
	// fresh: true | ask before write_file: false | before execute_shell: true
	// write_file (isError=false):
	// created notes/todo.md (22 bytes)
	// edit_file (isError=false):
	// edited notes/todo.md: replaced 1 occurrence starting at line 2
	// read_file (isError=false):
	// - call Alice
	// [lines 2-2 of 2]
	// read_file (isError=true):
	// read_file "../secrets.txt": path escapes the workspace root: ".." leads out of the root; use a path inside the workspace, relative to its root
	// execute_shell (isError=false):
	// 2
	// [exit code 0; working directory $ROOT/notes]
}

// The model's shell and the person's terminal are one session: a terminal
// attached with Attach (the Workspace page's xterm.js) sees the command the
// model runs through execute_shell (here Exec, which that tool calls).
func ExampleWorkspace_Session() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	w, err := workspace.Open(workspace.Options{Root: filepath.Join(dir, "workspace")})
	if err != nil {
		log.Fatal(err)
	}
	defer w.Close(ctx)
	s, err := w.Session("default")
	if err != nil {
		log.Fatal(err)
	}
	_, output, detach := s.Attach()
	defer detach()

	res, err := s.Exec(ctx, "echo from-the-model", 10*time.Second)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("the model got %q\n", res.Output)
	var seen strings.Builder
	for !strings.Contains(seen.String(), "from-the-model") {
		select {
		case b := <-output:
			seen.Write(b)
		case <-ctx.Done():
			log.Fatal("the terminal never showed the command")
		}
	}
	fmt.Println("the terminal showed it too")
	// Output:
	// the model got "from-the-model\n"
	// the terminal showed it too
}
