// Package builtin defines what a built-in server is: an MCP server that ships
// inside Switchboard (the content store, the workspace) and is a real mcp-go
// server like any other. The app runs each as a server of its manager,
// connected through mcp-go's in-process transport (mcpmanager.ServerConfig's
// Builtin), so its tools are listed and called exactly like an external
// server's (content-store__search, ...) and its status, log and restarts are
// kept the same way; 'switchboard builtin NAME' serves it over stdio for
// other hosts. Their names are reserved (Reserved): no configured server may
// take one.
//
// A built-in package exports one Server value:
//
//	var Builtin = builtin.Server{
//		Name:         builtin.ContentStore,
//		Description:  "full-text stores of your documents",
//		Version:      "1.0.0",
//		Instructions: "Search before you answer questions about the user's documents.",
//		New: func(cfg builtin.Config) (*server.MCPServer, func() error, error) {
//			st, err := Open(Options{Root: cfg.Root})
//			if err != nil {
//				return nil, nil, err
//			}
//			return NewServer(st), st.Close, nil
//		},
//	}
//
// and a host runs it:
//
//	root := dir.Stores()
//	m.Apply([]mcpmanager.ServerConfig{{Name: contentstore.Builtin.Name, Builtin: &mcpmanager.Builtin{
//		Key:   root, // a new root restarts it
//		Start: func() (*server.MCPServer, func() error, error) { return contentstore.Builtin.Start(builtin.Config{Root: root}) },
//	}}})
package builtin

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/server"
)

// Names of the built-in servers. They are reserved: a configured server may
// not take one (its tools would be exposed, and approved, as the built-in's),
// so import, "servers add" and the manager refuse it. Each built-in
// package's Server uses its constant as Name.
const (
	ContentStore = "content-store"
	Workspace    = "workspace"
)

// Reserved reports whether name belongs to a built-in server. Case and
// surrounding spaces do not matter: "Workspace" would read as the built-in
// to a model and to the user.
func Reserved(name string) bool {
	name = strings.TrimSpace(name)
	return strings.EqualFold(name, ContentStore) || strings.EqualFold(name, Workspace)
}

// Sentinel errors.
var (
	ErrNoRoot        = errors.New("built-in server needs a root directory")
	ErrNoConstructor = errors.New("built-in server has no constructor")
)

// Config is what a host gives a built-in server.
type Config struct {
	// Root is the directory the server keeps its data in (for the content
	// store: <data dir>/stores; for the workspace: the workspace root).
	Root string
}

// Server describes one built-in MCP server.
type Server struct {
	// Name is the server's name in the router: its tools are exposed as
	// Name__tool. It is also the MCP serverInfo name.
	Name string
	// Title is the human-readable name ("Content store").
	Title string
	// Description says in one sentence what the server is for.
	Description string
	// Version is the version of the server's tool interface.
	Version string
	// Instructions is sent to clients at initialize: how a model should use
	// the tools together.
	Instructions string
	// New builds the MCP server for cfg. close releases what the server holds
	// (open indexes, shells); the host calls it once, after the last call.
	New func(cfg Config) (srv *server.MCPServer, close func() error, err error)
}

// StartError is a built-in server that could not be started.
type StartError struct {
	Server string
	Err    error
}

func (e *StartError) Error() string { return fmt.Sprintf("built-in server %s: %v", e.Server, e.Err) }
func (e *StartError) Unwrap() error { return e.Err }

// Start validates cfg and builds the server.
func (s Server) Start(cfg Config) (*server.MCPServer, func() error, error) {
	if s.New == nil {
		return nil, nil, &StartError{Server: s.Name, Err: ErrNoConstructor}
	}
	if cfg.Root == "" {
		return nil, nil, &StartError{Server: s.Name, Err: ErrNoRoot}
	}
	srv, closeFn, err := s.New(cfg)
	if err != nil {
		return nil, nil, &StartError{Server: s.Name, Err: err}
	}
	if closeFn == nil {
		closeFn = func() error { return nil }
	}
	return srv, closeFn, nil
}

// MCPServer returns an empty mcp-go server carrying this definition's name,
// version, title, description and instructions, with tool capabilities and
// panic recovery; a built-in's constructor adds its tools to it.
func (s Server) MCPServer(opts ...server.ServerOption) *server.MCPServer {
	base := []server.ServerOption{
		server.WithToolCapabilities(false),
		server.WithRecovery(),
	}
	if s.Instructions != "" {
		base = append(base, server.WithInstructions(s.Instructions))
	}
	if s.Title != "" {
		base = append(base, server.WithTitle(s.Title))
	}
	if s.Description != "" {
		base = append(base, server.WithDescription(s.Description))
	}
	return server.NewMCPServer(s.Name, s.Version, append(base, opts...)...)
}
