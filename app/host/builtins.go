package host

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/app/datadir"
	"github.com/switchboard-app/switchboard/builtin"
	"github.com/switchboard-app/switchboard/builtin/contentstore"
	"github.com/switchboard-app/switchboard/builtin/workspace"
	"github.com/switchboard-app/switchboard/mcpmanager"
	"github.com/switchboard-app/switchboard/mcpmanager/wire"
)

// Builtin is one server that ships inside Switchboard, with where its data
// lives by default. Builtins is the one table the window, the CLI and
// 'switchboard builtin NAME' read.
type Builtin struct {
	Def builtin.Server
	// Root is the default data root inside a data directory.
	Root func(datadir.Dir) string
	// RootHelp says where that is, for --help.
	RootHelp string
	// RootUsage says what the root is to the server, for --help's --root
	// DIR ("DIR" names the flag's value).
	RootUsage string
}

// Builtins are the built-in servers.
var Builtins = []Builtin{
	{Def: contentstore.Builtin, Root: datadir.Dir.Stores, RootHelp: "<data dir>/stores",
		RootUsage: "keep the server's data in DIR"},
	{Def: workspace.Builtin, Root: datadir.Dir.Workspace, RootHelp: "the folder chosen in Settings, else <data dir>/workspace",
		RootUsage: "serve the folder DIR as the workspace: the file tools reach nothing outside it, and shells start there"},
}

// BuiltinNames are the built-in servers' names, which every app sees.
func BuiltinNames() []string {
	names := make([]string, len(Builtins))
	for i, b := range Builtins {
		names[i] = b.Name()
	}
	return names
}

// BuiltinStartTimeout bounds how long StartBuiltins waits for the built-ins.
var BuiltinStartTimeout = 30 * time.Second

// withBuiltins puts the built-ins (when on) before the servers to run.
func (h *Host) withBuiltins(workspaceRoot string, servers []mcpmanager.ServerConfig) []mcpmanager.ServerConfig {
	if !h.builtinsOn {
		return servers
	}
	out := make([]mcpmanager.ServerConfig, 0, len(Builtins)+len(servers))
	for _, b := range Builtins {
		root := b.Root(h.dir)
		if b.Def.Name == workspace.Builtin.Name {
			root = workspaceRoot
		}
		out = append(out, mcpmanager.ServerConfig{Name: b.Def.Name, Builtin: &mcpmanager.Builtin{Key: root, Start: h.starter(b.Def, root)}})
	}
	return append(out, servers...)
}

// starter starts one built-in on root.
func (h *Host) starter(def builtin.Server, root string) func() (*server.MCPServer, func() error, error) {
	if def.Name == workspace.Builtin.Name {
		return h.Workspace.start(root)
	}
	return func() (*server.MCPServer, func() error, error) { return def.Start(builtin.Config{Root: root}) }
}

// Name is the built-in's server name (its tools are NAME__tool).
func (b Builtin) Name() string { return b.Def.Name }

// Title is the built-in's name for people.
func (b Builtin) Title() string { return b.Def.Title }

// ServeStdio runs the built-in alone as an MCP server on in/out
// ('switchboard builtin NAME', for another MCP host) until in ends or ctx
// does, with its data in root: when root is "", its default in dir (the
// workspace: the folder chosen in Settings, as in the window). Errors of
// the stream go to errLog.
func (b Builtin) ServeStdio(ctx context.Context, r Stdio) error {
	dir, root, in, out, errLog := r.Dir, r.Root, r.In, r.Out, r.Log
	if root == "" {
		root = b.Root(dir)
		if b.Def.Name == workspace.Builtin.Name {
			root = WorkspaceRoot(dir)
		}
	}
	root, err := filepath.Abs(root)
	if err != nil {
		return fmt.Errorf("%s: data folder %q: %w", b.Def.Name, root, err)
	}
	if err := os.MkdirAll(root, 0o700); err != nil {
		return fmt.Errorf("%s: create %s: %w", b.Def.Name, root, err)
	}
	srv, closeFn, err := b.Def.Start(builtin.Config{Root: root})
	if err != nil {
		return err
	}
	stdio := server.NewStdioServer(srv)
	stdio.SetErrorLogger(errLog)
	// One message is capped like every other stdio stream (wire.MaxMessageBytes).
	err = stdio.Listen(ctx, wire.NewReader(in, 0), out)
	// Listen returns after the last call has finished.
	if cerr := closeFn(); cerr != nil && err == nil {
		err = fmt.Errorf("%s: %w", b.Def.Name, cerr)
	}
	if ctx.Err() != nil {
		return nil
	}
	return err
}
