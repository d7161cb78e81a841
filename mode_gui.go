//go:build (dev || production) && !bindings

package main

// Built by 'wails dev' (tag dev) or 'wails build' (tag production): the window works.
const (
	bindingsBuild = false
	guiBuild      = true
)
