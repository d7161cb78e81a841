//go:build !windows

package bridge

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// TestDialFindsTheAddressInTheDataDir: a Switchboard listening where its
// own environment says ($XDG_RUNTIME_DIR) is found by a Dial whose
// environment says another place (another runtime dir, or none: ssh,
// cron, sudo -u, a container), through the address file in the data dir;
// a file or directory others could have written is refused, saying so;
// Close removes the file.
func TestDialFindsTheAddressInTheDataDir(t *testing.T) {
	short := func() string {
		d, err := os.MkdirTemp("", "sb") // short: a socket path has ~100 bytes
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(d) })
		return d
	}
	for _, c := range []struct {
		name    string
		tamper  func(t *testing.T, listening, pointer string)
		refused string // "": found; else the error says this
	}{
		{name: "as written"},
		{name: "address file others may write", tamper: func(t *testing.T, _, pointer string) { chmod(t, pointer, 0o666) }, refused: "others may write to it"},
		{name: "socket directory others may enter", tamper: func(t *testing.T, listening, _ string) { chmod(t, listening, 0o755) }, refused: "others may enter it"},
		{name: "address file is a link", tamper: func(t *testing.T, _, pointer string) {
			real := pointer + ".real"
			if err := os.Rename(pointer, real); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(real, pointer); err != nil {
				t.Fatal(err)
			}
		}, refused: "not a plain file"},
		{name: "a relative path", tamper: func(t *testing.T, _, pointer string) { write(t, pointer, "run/s\n") }, refused: "is not a socket's path"},
	} {
		t.Run(c.name, func(t *testing.T) {
			data := short()
			daemon := For(data, Env{GOOS: "linux", RuntimeDir: short(), TempDir: os.TempDir(), UID: os.Getuid()})
			l := listenT(t, daemon)
			if c.tamper != nil {
				c.tamper(t, daemon.Dir, daemon.Pointer)
			}
			for _, runtime := range []string{"", short()} {
				serve := For(data, Env{GOOS: "linux", RuntimeDir: runtime, TempDir: os.TempDir(), UID: os.Getuid()})
				if serve.Socket == daemon.Socket {
					t.Fatal("the test needs two addresses")
				}
				go func() {
					if sc, err := l.Accept(nil); err == nil {
						sc.Close()
					}
				}()
				conn, peer, err := Dial(t.Context(), serve, Hello{PID: 1})
				if c.refused == "" {
					if err != nil || peer.PID != 4242 {
						t.Fatalf("runtime dir %q: Dial = %+v, %v; want the listener", runtime, peer, err)
					}
					conn.Close()
					continue
				}
				if !errors.Is(err, ErrNotRunning) || !strings.Contains(err.Error(), c.refused) {
					t.Fatalf("runtime dir %q: Dial = %v, want ErrNotRunning saying %q", runtime, err, c.refused)
				}
			}
			if c.refused == "" {
				l.Close()
				if _, err := os.Lstat(daemon.Pointer); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("address file after Close: %v", err)
				}
			}
		})
	}
}

func chmod(t *testing.T, path string, mode os.FileMode) {
	t.Helper()
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
}
