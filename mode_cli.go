//go:build !dev && !production && !bindings

package main

// A plain 'go build': the CLI works, the window does not.
const (
	bindingsBuild = false
	guiBuild      = false
)
