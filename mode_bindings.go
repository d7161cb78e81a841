//go:build bindings

package main

// Wails builds this binary with the "bindings" tag only to write the
// TypeScript bindings of the bound methods; no window opens.
const (
	bindingsBuild = true
	guiBuild      = false
)
