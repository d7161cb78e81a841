//go:build !linux

package gui

import "time"

// cpuTime is not read outside Linux: the app settles after its first quiet check.
func cpuTime() time.Duration { return 0 }

// releaseStartupPages unmaps nothing outside Linux.
func releaseStartupPages() (int64, error) { return 0, nil }
