// Package host is the use-case layer under Switchboard's two front doors,
// and their only door into the engine: the window (package app,
// Wails-bound) and the terminal (app/cli) both call it, so a feature
// behaves the same from either. Open makes its parts once; each owns one
// group of use cases and is the one way to them. The parts: Servers (config.json's servers, running them, editing,
// testing, logging in), Tools (what running servers offer, calls, the
// gateway 'serve' holds), Chats (a chat turn's set-up), Settings, Secrets,
// Library, Workspace, Bundles, MCPRegistry, Pins, Tasks, Downloads, Icons,
// Apps, Local. The front doors name engine types but call nothing of the engine
// (layout_test.go checks it). It has no Wails, no flags and prints nothing.
//
// The CLI opens a Host the same way and calls Servers.Run with the servers
// of a --config file instead of Follow; an Edit from the CLI starts
// nothing. Example opens a data directory and starts its servers;
// Example_tools goes on to rules, the tool-call decision and a call.
//
// A Host is safe for concurrent use.
package host
