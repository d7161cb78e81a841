package bridge

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
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
// two data dirs (two users' setups, a test's) never meet. On Windows it is
// the named pipe \\.\pipe\switchboard-HASH, whose access list admits only
// the user (PipeSDDL), with the token file in DATADIR\run.
func For(dataDir string, env Env) Address {
	sum := sha256.Sum256([]byte(filepath.Clean(dataDir)))
	hash := hex.EncodeToString(sum[:6])
	if env.GOOS == "windows" {
		return Address{Socket: `\\.\pipe\switchboard-` + hash, Dir: join(env.GOOS, dataDir, "run")}
	}
	var dir string
	if env.RuntimeDir != "" {
		dir = join(env.GOOS, env.RuntimeDir, "switchboard-"+hash)
	} else {
		dir = join(env.GOOS, dataDir, "run")
	}
	if len(join(env.GOOS, dir, "s")) > maxSocketPath {
		dir = join(env.GOOS, env.TempDir, fmt.Sprintf("switchboard-%d-%s", env.UID, hash))
	}
	return Address{Socket: join(env.GOOS, dir, "s"), Dir: dir}
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
