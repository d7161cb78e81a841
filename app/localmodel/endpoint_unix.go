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
		// MkdirTemp makes a new directory of a random name, 0700,
		// failing rather than reusing one that exists.
		dir, err := os.MkdirTemp(parent, "switchboard-llama-")
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
		return &endpoint{dir: dir, sock: sock}, nil
	}
	return nil, fmt.Errorf("no private directory for llama-server's socket (set TMPDIR to a short, writable directory): %w", errors.Join(errs...))
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
