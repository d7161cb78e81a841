//go:build !unix

package workspace

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
)

const openFlags = 0

// linkCount: other systems do not report it through FileInfo; hard links
// are then not detected.
func linkCount(fi fs.FileInfo) uint64 { return 1 }

func inGroup(cmd *exec.Cmd) {}

// killGroup: without process groups nothing is known to be left.
func killGroup(pgid int) bool { return false }

// openIn: search_files opens files through the root instead.
func openIn(dir *os.File, name string) (io.ReadCloser, int64, error) {
	return nil, 0, errors.ErrUnsupported
}
