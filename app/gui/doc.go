// Package gui is the window's front door: one Wails-bound struct per page,
// each in a file named for it (ServersPage in serverspage.go, ChatPage in
// chatpage.go, MCPApps in mcpapps.go, …), with thin methods that call the
// host (app/host) and return views for the frontend, plus the events the
// window emits (events.go). The logic lives in app/host, which the CLI
// (app/cli) calls too.
//
//	w := gui.New(signalCtx, dir)
//	wails.Run(&options.App{OnStartup: w.Startup, OnShutdown: w.Shutdown, Bind: gui.Bindings(w)})
//
// Window holds what every page shares (Info, Ready, ConfigError, About) and
// the pages; Startup and Shutdown are Wails lifecycle hooks (Wails does not
// expose them to the frontend when they are passed as OnStartup/OnShutdown).
// The pages share one unexported core (core.go): the host, the questions
// put to the user (approvals.go), the goroutines of running turns (the
// host opens the chat history, wires the engine and tracks the turns:
// host.Chats) and terminals.
//
// The package is not named "window": Wails exports a Go package as a
// TypeScript namespace, and one named window would shadow the browser's.
//
// Bound methods are safe for concurrent use: Wails calls them from many goroutines.
package gui
