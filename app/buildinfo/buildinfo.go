// Package buildinfo owns the version string of this build.
//
// Release builds stamp Version with -ldflags; other builds fall back to the
// module version or VCS revision the Go toolchain records.
//
//	fmt.Println("switchboard", buildinfo.String())
package buildinfo

import (
	"runtime/debug"
	"sync"
)

// Version is set at link time: -ldflags "-X github.com/switchboard-app/switchboard/app/buildinfo.Version=1.2.3".
var Version = ""

// Licence is the licence Switchboard is distributed under, as Help → About
// and the packages' copyright file state it.
const Licence = "MIT License"

var resolved = sync.OnceValue(func() string {
	if Version != "" {
		return Version
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "-dirty"
			}
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev == "" {
		return "devel"
	}
	return "devel+" + rev + dirty
})

// String returns the version of the running binary; never empty.
func String() string { return resolved() }
