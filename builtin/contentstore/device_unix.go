//go:build unix

package contentstore

import (
	"io/fs"
	"syscall"
)

// deviceOf is the filesystem (device) a file is on; ok is false when the
// system does not say.
func deviceOf(fi fs.FileInfo) (dev uint64, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return uint64(st.Dev), true // Dev is int32 on some systems
}
