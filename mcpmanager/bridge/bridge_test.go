package bridge

import (
	"bufio"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func testAddress(t *testing.T) Address {
	t.Helper()
	dir, err := os.MkdirTemp("", "sb") // short: a socket path has ~100 bytes
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return Address{Socket: filepath.Join(dir, "run", "s"), Dir: filepath.Join(dir, "run")}
}

func listenT(t *testing.T, a Address) *Listener {
	t.Helper()
	l, err := Listen(a, Peer{PID: 4242, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// TestHandshake: an attaching serve and the listener prove the same token,
// the listener learns the app's name and pid, the serve the listener's,
// and bytes then flow both ways untouched. The directory is 0700 and the
// token 0600.
func TestHandshake(t *testing.T) {
	a := testAddress(t)
	l := listenT(t, a)
	accepted := make(chan *Conn, 1)
	go func() {
		c, err := l.Accept(nil)
		if err == nil {
			accepted <- c
		}
	}()
	c, peer, err := Dial(t.Context(), a, Hello{Client: "cursor", PID: 77})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if peer.PID != 4242 || peer.Version != "test" {
		t.Errorf("peer = %+v, want pid 4242 version test", peer)
	}
	sc := <-accepted
	defer sc.Close()
	if sc.Hello.Client != "cursor" || sc.Hello.PID != 77 {
		t.Errorf("hello = %+v, want cursor pid 77", sc.Hello)
	}
	if _, err := io.WriteString(c, `{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n"); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(sc).ReadString('\n')
	if err != nil || line != `{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n" {
		t.Fatalf("listener read %q, %v", line, err)
	}
	for path, want := range map[string]os.FileMode{a.Dir: 0o700, a.Token(): 0o600} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v", path, fi.Mode().Perm(), want)
		}
	}
}

// TestWrongTokenRefused: a serve holding another token (another data dir,
// a stale file) is refused with a message saying what to do, and the
// listener reports it; neither side ever sends the token itself.
func TestWrongTokenRefused(t *testing.T) {
	a := testAddress(t)
	l := listenT(t, a)
	refused := make(chan error, 1)
	go func() { _, _ = l.Accept(func(err error) { refused <- err }) }()
	other := Address{Socket: a.Socket, Dir: t.TempDir()}
	if err := os.WriteFile(other.Token(), []byte(strings.Repeat("x", 64)), 0o600); err != nil {
		t.Fatal(err)
	}
	_, _, err := Dial(t.Context(), other, Hello{})
	if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "token") {
		t.Fatalf("Dial with another token = %v, want ErrRefused naming the token", err)
	}
	if err := <-refused; !errors.Is(err, ErrRefused) {
		t.Errorf("the listener reported %v, want ErrRefused", err)
	}
}

// TestSquatterRefused: something else listening at the address that does
// not hold the token (another user's process that took a stale path) is
// refused by the serve: it cannot prove the token, and learns nothing of
// it (the serve sends only a nonce before the proof check).
func TestSquatterRefused(t *testing.T) {
	a := testAddress(t)
	if err := privateDir(a.Dir); err != nil {
		t.Fatal(err)
	}
	if err := writeToken(a.Token(), []byte(strings.Repeat("t", 64))); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("unix", a.Socket)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	got := make(chan string, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		line, _ := bufio.NewReader(c).ReadString('\n')
		got <- line
		_, _ = io.WriteString(c, `{"nonce":"n","proof":"guess","pid":1}`+"\n")
		_, _ = io.Copy(io.Discard, c)
	}()
	_, _, err = Dial(t.Context(), a, Hello{Client: "x"})
	if !errors.Is(err, ErrRefused) {
		t.Fatalf("Dial to a squatter = %v, want ErrRefused", err)
	}
	if line := <-got; strings.Contains(line, strings.Repeat("t", 64)) {
		t.Errorf("the serve sent the token to the squatter: %s", line)
	}
}

// TestNothingRunning: no socket, a stale socket nobody answers on, and a
// listener that accepts but never answers (a hung Switchboard): Dial
// says ErrNotRunning within the handshake's bound each time, so serve
// runs the servers itself.
func TestNothingRunning(t *testing.T) {
	old := HandshakeTimeout
	HandshakeTimeout = 300 * time.Millisecond
	t.Cleanup(func() { HandshakeTimeout = old })

	a := testAddress(t)
	if _, _, err := Dial(t.Context(), a, Hello{}); !errors.Is(err, ErrNotRunning) {
		t.Errorf("no socket: %v, want ErrNotRunning", err)
	}
	// Stale: a listener that went away without cleaning up.
	l := listenT(t, a)
	l.l.(*net.UnixListener).Close()
	if _, _, err := Dial(t.Context(), a, Hello{}); !errors.Is(err, ErrNotRunning) {
		t.Errorf("stale socket: %v, want ErrNotRunning", err)
	}
	// A new Switchboard replaces the stale socket.
	l2 := listenT(t, a)
	// Hung: accepts, never answers.
	l2.l.(*net.UnixListener).Close()
	os.Remove(a.Socket)
	ln, err := net.Listen("unix", a.Socket)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	start := time.Now()
	if _, _, err := Dial(t.Context(), a, Hello{}); !errors.Is(err, ErrNotRunning) {
		t.Errorf("hung listener: %v, want ErrNotRunning", err)
	}
	if d := time.Since(start); d > 5*HandshakeTimeout {
		t.Errorf("Dial to a hung listener took %s, over its bound %s", d, HandshakeTimeout)
	}
}

// TestOneListenerPerDataDir: a second Switchboard for the same data dir
// is told one already shares its servers.
func TestOneListenerPerDataDir(t *testing.T) {
	a := testAddress(t)
	listenT(t, a)
	if _, err := Listen(a, Peer{}); !errors.Is(err, ErrInUse) {
		t.Fatalf("second Listen = %v, want ErrInUse", err)
	}
}

// TestPrivateDirRefusesALink: a symbolic link in place of the socket's
// directory is refused, so nobody can point it elsewhere.
func TestPrivateDirRefusesALink(t *testing.T) {
	base := t.TempDir()
	link := filepath.Join(base, "run")
	if err := os.Symlink(t.TempDir(), link); err != nil {
		t.Fatal(err)
	}
	if _, err := Listen(Address{Socket: filepath.Join(link, "s"), Dir: link}, Peer{}); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Fatalf("Listen in a linked dir = %v, want a refusal", err)
	}
	// A directory others may enter is made private.
	open := filepath.Join(base, "open")
	if err := os.Mkdir(open, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := privateDir(open); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(open); fi.Mode().Perm() != 0o700 {
		t.Errorf("mode %v, want 0700", fi.Mode().Perm())
	}
}
