package pins

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"unsafe"

	"golang.org/x/sys/unix"
)

// watchMask is what changes the file can see: made, removed, renamed in
// or out (an atomic save), and written by a program that closed it. Not
// IN_MODIFY: the folder holds the chat history's SQLite database, whose
// every write would wake the watch.
const watchMask = unix.IN_CREATE | unix.IN_DELETE | unix.IN_MOVED_TO | unix.IN_MOVED_FROM |
	unix.IN_CLOSE_WRITE | unix.IN_DELETE_SELF | unix.IN_MOVE_SELF | unix.IN_ONLYDIR

// startWatch watches the folder of path with inotify. The first Version
// after it looks at the file (stale is set): a change before the watch
// began is not missed.
func startWatch(path string) (*watch, error) {
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		return nil, err
	}
	if _, err := unix.InotifyAddWatch(fd, filepath.Dir(path), watchMask); err != nil {
		_ = unix.Close(fd)
		return nil, err
	}
	f := os.NewFile(uintptr(fd), "inotify") // non-blocking: its reads wait in the poller, and Close ends them
	w := &watch{stop: func() { _ = f.Close() }, done: make(chan struct{})}
	w.stale.Store(true)
	go w.read(f, filepath.Base(path))
	return w, nil
}

func (w *watch) read(f *os.File, name string) {
	defer close(w.done)
	defer f.Close()
	defer w.dead.Store(true)
	buf := make([]byte, 16<<10)
	for {
		n, err := f.Read(buf)
		if err != nil {
			if !errors.Is(err, os.ErrClosed) {
				w.stale.Store(true)
			}
			return
		}
		for b := buf[:n]; len(b) >= unix.SizeofInotifyEvent; {
			ev := (*unix.InotifyEvent)(unsafe.Pointer(&b[0]))
			end := unix.SizeofInotifyEvent + int(ev.Len)
			if end > len(b) {
				break
			}
			switch {
			case ev.Mask&(unix.IN_DELETE_SELF|unix.IN_MOVE_SELF|unix.IN_IGNORED) != 0:
				return // the folder went: no event follows
			case ev.Mask&unix.IN_Q_OVERFLOW != 0:
				w.stale.Store(true) // events were lost: look again
			case string(bytes.TrimRight(b[unix.SizeofInotifyEvent:end], "\x00")) == name:
				w.stale.Store(true)
			}
			b = b[end:]
		}
	}
}
