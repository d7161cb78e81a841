package gui

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// cpuTime is the CPU time the process has used so far.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// mapping is one mapping of /proc/self/smaps.
type mapping struct {
	start, end uintptr
	perms      string
	path       string
	rssKB      int64
	anonKB     int64 // pages copied on write (relocations): not the file's any more
}

// releaseStartupPages unmaps the resident pages of the process's own binary
// (its read-only, file-backed mappings), and returns how many kB were
// resident. Nothing is lost: a read-only mapping of a file that has no page
// of its own (no copy on write) reads the same bytes back on the next
// touch. Writable mappings and those with copied pages (the relocated
// read-only data) are left alone.
//
// MADV_PAGEOUT also drops the pages from the page cache (those no other
// process maps: a running 'switchboard serve' keeps its own), where
// MADV_DONTNEED (kernels before 5.4) leaves them there. That matters for
// what comes back: a page cache that holds the binary in large folios (as
// after it was just written, by 'make build' or an install) maps a whole
// folio, up to 2 MB, at each fault of code that runs again, while pages
// read back from the file come in read-around windows. Measured on the
// idle window: 240 MB PSS settled either way once the binary was read from
// disk, 263 MB with DONTNEED from a freshly written binary (BENCHMARKS.md).
func releaseStartupPages() (int64, error) {
	exe, err := os.Executable()
	if err != nil {
		return 0, err
	}
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return 0, err
	}
	maps, err := parseSmaps(f)
	f.Close()
	if err != nil {
		return 0, err
	}
	var kb int64
	for _, m := range releasable(maps, exe) {
		if err := release(m.start, m.end-m.start); err != nil {
			return kb, fmt.Errorf("madvise %x-%x: %w", m.start, m.end, err)
		}
		kb += m.rssKB
	}
	return kb, nil
}

// release pages out a range of a file mapping, then unmaps what is left
// (pages the kernel would not page out: shared with another process, say;
// all of them before Linux 5.4, which knows no MADV_PAGEOUT).
func release(start, length uintptr) error {
	if _, _, errno := unix.Syscall(unix.SYS_MADVISE, start, length, unix.MADV_PAGEOUT); errno != 0 && errno != unix.EINVAL {
		return errno
	}
	if _, _, errno := unix.Syscall(unix.SYS_MADVISE, start, length, unix.MADV_DONTNEED); errno != 0 {
		return errno
	}
	return nil
}

// releasable are the mappings of path that releaseStartupPages may unmap:
// read-only, file-backed, without a page of their own.
func releasable(maps []mapping, path string) []mapping {
	var out []mapping
	for _, m := range maps {
		if m.path == path && !strings.Contains(m.perms, "w") && m.anonKB == 0 && m.rssKB > 0 {
			out = append(out, m)
		}
	}
	return out
}

// parseSmaps reads the mappings of a /proc/PID/smaps file with their
// resident and anonymous sizes.
func parseSmaps(r io.Reader) ([]mapping, error) {
	var out []mapping
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		if lo, hi, ok := strings.Cut(f[0], "-"); ok && len(f) >= 5 && !strings.HasSuffix(f[0], ":") {
			start, err1 := strconv.ParseUint(lo, 16, 64)
			end, err2 := strconv.ParseUint(hi, 16, 64)
			if err1 == nil && err2 == nil {
				m := mapping{start: uintptr(start), end: uintptr(end), perms: f[1]}
				if len(f) >= 6 {
					m.path = strings.Join(f[5:], " ")
				}
				out = append(out, m)
				continue
			}
		}
		if len(out) == 0 || len(f) < 2 {
			continue
		}
		n, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			continue
		}
		switch f[0] {
		case "Rss:":
			out[len(out)-1].rssKB = n
		case "Anonymous:":
			out[len(out)-1].anonKB = n
		}
	}
	return out, sc.Err()
}
