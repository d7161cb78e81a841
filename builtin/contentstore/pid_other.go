//go:build !unix

package contentstore

import "os"

// pidAlive reports whether a process with that id exists (on Windows,
// FindProcess opens the process and fails when there is none).
func pidAlive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	_ = p.Release()
	return true
}
