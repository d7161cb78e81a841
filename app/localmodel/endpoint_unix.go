//go:build !windows

package localmodel

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// endpoint is where llama-server listens on Unix: a Unix socket in a
// directory of its own that only this user may enter (0700), and no TCP
// port. Another local user cannot connect to it, and neither can a web
// page in the user's browser, which reaches TCP ports only (llama-server
// itself answers any Origin and any Host). The release takes a --host that
// ends in .sock as a socket path (tools/server/server-http.cpp).
type endpoint struct {
	dir  string // the private directory
	sock string // the socket in it
}

// sockMax is the longest socket path every Unix takes: sun_path holds 104
// bytes on macOS and the BSDs (108 on Linux), its final NUL included.
const sockMax = 103

// openEndpoint makes the private directory, in the temporary directory
// (the data directory's path may be too long for a socket), or in /tmp
// when $TMPDIR's is. The key does not go in it: llama-server gets it in
// its environment.
func openEndpoint(string) (*endpoint, error) {
	var errs []error
	for _, parent := range []string{os.TempDir(), "/tmp"} {
		cleanStale(parent)
		// MkdirTemp makes a new directory of a random name, 0700,
		// failing rather than reusing one that exists.
		dir, err := os.MkdirTemp(parent, dirPattern)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		sock := filepath.Join(dir, "llama.sock")
		if len(sock) > sockMax {
			os.Remove(dir)
			errs = append(errs, fmt.Errorf("the socket path %s is longer than %d bytes", sock, sockMax))
			continue
		}
		// Who made it: the next start removes it once that process is
		// gone (an app killed with SIGKILL cannot remove it itself).
		if err := os.WriteFile(filepath.Join(dir, ownerFile), []byte(strconv.Itoa(os.Getpid())), 0o600); err != nil {
			os.Remove(dir)
			errs = append(errs, err)
			continue
		}
		return &endpoint{dir: dir, sock: sock}, nil
	}
	return nil, fmt.Errorf("no private directory for llama-server's socket (set TMPDIR to a short, writable directory): %w", errors.Join(errs...))
}

// dirPattern names the private directories (MkdirTemp's pattern), and
// ownerFile, in each, holds the process ID of the app that made it.
const (
	dirPattern = "switchboard-llama-"
	ownerFile  = "owner"
)

// cleanStale removes the socket directories in parent that an app killed
// before it could remove them left behind (its watchdog stops
// llama-server, but nothing removes the directory): this user's, whose
// owner process is gone. A directory of another user, or of an app still
// running, is left alone.
func cleanStale(parent string) {
	dirs, _ := filepath.Glob(filepath.Join(parent, dirPattern+"*"))
	for _, dir := range dirs {
		st, err := os.Lstat(dir)
		if err != nil || !st.IsDir() || !ownedByMe(st) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, ownerFile))
		if errors.Is(err, fs.ErrNotExist) && time.Since(st.ModTime()) > time.Hour && !listening(filepath.Join(dir, "llama.sock")) {
			_ = os.RemoveAll(dir) // an older app's, whose llama-server is gone
			continue
		}
		if err != nil {
			continue // being made now: not known to be stale
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil || pid <= 0 || pid == os.Getpid() || alive(pid) {
			continue
		}
		_ = os.RemoveAll(dir)
	}
}

// alive says whether process pid exists (signal 0 checks without
// sending; EPERM is a process of another user, which exists).
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// listening says whether something accepts connections on the socket.
func listening(sock string) bool {
	c, err := net.DialTimeout("unix", sock, time.Second)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// ownedByMe says whether the file is this user's.
func ownedByMe(st os.FileInfo) bool {
	sys, ok := st.Sys().(*syscall.Stat_t)
	return ok && int(sys.Uid) == os.Getuid()
}

// listen is llama-server's arguments for where to listen, for one run.
func (e *endpoint) listen() ([]string, error) {
	// The socket of a run that crashed would make the bind fail.
	if err := os.Remove(e.sock); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return []string{"--host", e.sock}, nil
}

// base is the URL root the app's client asks; its host only names the
// server, since dial connects to the socket whatever the address.
func (e *endpoint) base() string { return "http://localhost" }

func (e *endpoint) dial(ctx context.Context, _, _ string) (net.Conn, error) {
	var d net.Dialer
	return d.DialContext(ctx, "unix", e.sock)
}

// close removes the directory and the socket, once llama-server is gone.
func (e *endpoint) close() error { return os.RemoveAll(e.dir) }
