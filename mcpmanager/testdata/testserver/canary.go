package main

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Result is what probe reports: "" for success, else the error.
type Result struct {
	Read    string `json:"read"`
	Content string `json:"content"`
	Write   string `json:"write"`
	Connect string `json:"connect"`
}

func probe(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var r Result
	home := os.Getenv("HOME")
	b, err := os.ReadFile(filepath.Join(home, ".ssh", "id_canary"))
	r.Read, r.Content = errText(err), string(b)
	r.Write = errText(os.WriteFile(filepath.Join(home, ".ssh", "written"), []byte("from the server"), 0o600))
	c, err := net.DialTimeout("tcp", "127.0.0.1:"+os.Getenv("CANARY_PORT"), 2*time.Second)
	if err == nil {
		_, err = c.Write([]byte("hello\n"))
		c.Close()
	}
	r.Connect = errText(err)
	out, _ := json.Marshal(r)
	return mcp.NewToolResultText(string(out)), nil
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// serveCanary serves mode canary (once the program canary): an MCP server for the sandbox tests: its one tool,
// "probe", tries what a sandbox must stop — read $HOME/.ssh/id_canary,
// write $HOME/.ssh/written, connect to 127.0.0.1:$CANARY_PORT — and says
// how each went, as JSON. The tool itself always answers.
func serveCanary() {
	s := server.NewMCPServer("canary", "1.0.0")
	s.AddTool(mcp.NewTool("probe", mcp.WithDescription("Tries to read a key, write beside it and connect to a local port.")), probe)
	if err := server.ServeStdio(s); err != nil {
		os.Exit(1)
	}
}
