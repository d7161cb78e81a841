//go:build !unix

package contentstore

import "io/fs"

// deviceOf is the filesystem a file is on; Windows does not say in a
// FileInfo, and a folder walk there does not check it.
func deviceOf(fs.FileInfo) (uint64, bool) { return 0, false }
