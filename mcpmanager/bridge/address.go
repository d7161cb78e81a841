package bridge

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Env is what For reads of the environment: passed in, so the paths of
// another platform can be tested as data.
type Env struct {
	// GOOS is the target platform ("linux", "darwin", "windows").
	GOOS string
	// RuntimeDir is $XDG_RUNTIME_DIR (Linux; usually empty elsewhere).
	RuntimeDir string
	// TempDir is os.TempDir(), the last resort when the other paths are
	// too long for a Unix socket.
	TempDir string
	// UID is the user's id (Unix), naming the temp dir fallback.
	UID int
}

// maxSocketPath is the longest Unix socket path every platform takes
// (sun_path is 104 bytes on macOS, 108 on Linux, with its NUL).
const maxSocketPath = 103

// For returns where the running Switchboard for dataDir listens.
//
// On Linux and macOS it is a Unix socket named "s" in a directory only the
// user can enter (0700): $XDG_RUNTIME_DIR/switchboard-HASH when the
// runtime dir is set, else DATADIR/run, else, when that path is too long
// for a socket, TMPDIR/switchboard-UID-HASH. HASH names the data dir, so
// two data dirs (two users' setups, a test's) never meet. The running
// Switchboard also names its socket in DATADIR/run/address (Pointer),
// which depends on the data dir alone: a 'serve' started where
// $XDG_RUNTIME_DIR is another, or unset (ssh, cron, sudo -u, a container),
// finds it there. On Windows it is the named pipe
// \\.\pipe\switchboard-HASH, whose access list admits only the user
// (PipeSDDL), with the token file in DATADIR\run.
func For(dataDir string, env Env) Address {
	sum := sha256.Sum256([]byte(filepath.Clean(dataDir)))
	hash := hex.EncodeToString(sum[:6])
	if env.GOOS == "windows" {
		return Address{Socket: `\\.\pipe\switchboard-` + hash, Dir: join(env.GOOS, dataDir, "run")}
	}
	pointer := join(env.GOOS, dataDir, "run", "address")
	var dir string
	if env.RuntimeDir != "" {
		dir = join(env.GOOS, env.RuntimeDir, "switchboard-"+hash)
	} else {
		dir = join(env.GOOS, dataDir, "run")
	}
	if len(join(env.GOOS, dir, "s")) > maxSocketPath {
		dir = join(env.GOOS, env.TempDir, fmt.Sprintf("switchboard-%d-%s", env.UID, hash))
	}
	return Address{Socket: join(env.GOOS, dir, "s"), Dir: dir, Pointer: pointer}
}

// writePointer names a's socket in a.Pointer (0600, in a directory only
// the user can enter), for a 'serve' whose environment puts the address
// elsewhere (see For).
func writePointer(a Address) error {
	if a.Pointer == "" {
		return nil
	}
	if err := privateDir(filepath.Dir(a.Pointer)); err != nil {
		return err
	}
	return writeToken(a.Pointer, []byte(a.Socket+"\n"))
}

// removePointer removes a.Pointer when it still names a's socket (another
// Switchboard may have written its own since).
func removePointer(a Address) {
	if b, err := readPointer(a); err == nil && b.Socket == a.Socket {
		_ = os.Remove(a.Pointer)
	}
}

// readPointer returns the address a.Pointer names. It refuses a pointer,
// or a directory it names, that another user owns, that is a symbolic
// link, or that others may write to (the pointer) or enter (the
// directory): whoever could write them could point 'serve' at a token of
// their own and pose as Switchboard.
func readPointer(a Address) (Address, error) {
	if a.Pointer == "" {
		return Address{}, os.ErrNotExist
	}
	if err := private(a.Pointer, false); err != nil {
		return Address{}, err
	}
	b, err := os.ReadFile(a.Pointer)
	if err != nil {
		return Address{}, &Error{Op: "read the address file", Path: a.Pointer, Err: err}
	}
	socket := strings.TrimSpace(string(b))
	if !filepath.IsAbs(socket) || strings.ContainsAny(socket, "\n\x00") {
		return Address{}, &Error{Op: "read the address file", Path: a.Pointer, Err: fmt.Errorf("%q is not a socket's path; delete the file", socket)}
	}
	dir := filepath.Dir(socket)
	if err := private(dir, true); err != nil {
		return Address{}, err
	}
	return Address{Socket: socket, Dir: dir}, nil
}

// join joins with the separator of goos, not of the platform running.
func join(goos string, parts ...string) string {
	sep := "/"
	if goos == "windows" {
		sep = `\`
	}
	out := parts[0]
	for _, p := range parts[1:] {
		if len(out) > 0 && out[len(out)-1] != sep[0] {
			out += sep
		}
		out += p
	}
	return out
}

// PipeSDDL is the security descriptor of the Windows named pipe, in SDDL:
// owned by the user (sid), a protected access list (no inherited entries)
// that grants the user full access and nobody else anything — not
// Everyone, not other users, not the network logon. The pipe is also
// created with PIPE_REJECT_REMOTE_CLIENTS and, for its first instance,
// FILE_FLAG_FIRST_PIPE_INSTANCE, so another process cannot have created it
// first.
func PipeSDDL(sid string) string {
	return "O:" + sid + "D:P(A;;GA;;;" + sid + ")"
}
