//go:build !windows

package localmodel

import (
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// llama-server is told a socket in a directory of this user's alone, and
// the app's client reaches what listens there; closing removes both.
func TestEndpointIsAPrivateSocket(t *testing.T) {
	e, err := openEndpoint("k3y")
	if err != nil {
		t.Fatal(err)
	}
	defer e.close()
	st, err := os.Stat(e.dir)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o700 || st.Sys().(*syscall.Stat_t).Uid != uint32(os.Getuid()) {
		t.Fatalf("the socket's directory is %v, owner %d: others could reach the socket", st.Mode(), st.Sys().(*syscall.Stat_t).Uid)
	}
	// A socket a crashed run left is removed before the next one binds.
	if err := os.WriteFile(e.sock, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	args, err := e.listen()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(args, []string{"--host", e.sock}) || !strings.HasSuffix(e.sock, ".sock") || filepath.Dir(e.sock) != e.dir || len(e.sock) > sockMax {
		t.Fatalf("args %q for socket %s", args, e.sock)
	}
	if _, err := os.Stat(e.sock); !os.IsNotExist(err) {
		t.Fatalf("the stale socket is still there: %v", err)
	}
	// What llama-server does with such a --host.
	ln, err := net.Listen("unix", e.sock)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok "+r.URL.Path) })}
	go srv.Serve(ln)
	defer srv.Close()
	tr := &http.Transport{DialContext: e.dial}
	defer tr.CloseIdleConnections()
	res, err := (&http.Client{Transport: tr}).Get(e.base() + "/health")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if string(body) != "ok /health" {
		t.Fatalf("through the socket: %q", body)
	}
	srv.Close()
	if err := e.close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(e.dir); !os.IsNotExist(err) {
		t.Fatalf("the directory outlived close: %v", err)
	}
	if _, err := e.dial(context.Background(), "tcp", "localhost:80"); err == nil {
		t.Fatal("dialled a socket that is gone")
	}
}

// A $TMPDIR too long for a socket's path falls back to /tmp.
func TestEndpointWithALongTMPDIR(t *testing.T) {
	long := filepath.Join(t.TempDir(), strings.Repeat("d", 100))
	if err := os.Mkdir(long, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", long)
	e, err := openEndpoint("k3y")
	if err != nil {
		t.Fatal(err)
	}
	defer e.close()
	if filepath.Dir(e.dir) != "/tmp" || len(e.sock) > sockMax {
		t.Fatalf("socket %s", e.sock)
	}
}

// The directory of an app that was killed (SIGKILL: its watchdog stops
// llama-server, nothing removes the directory) is removed at the next
// start; one whose app still runs, or that is being made, is kept.
func TestEndpointRemovesTheDirectoriesOfAppsThatAreGone(t *testing.T) {
	parent := t.TempDir()
	t.Setenv("TMPDIR", parent)
	// A process that has exited: its PID is free.
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	mk := func(name, owner string, age time.Duration) string {
		t.Helper()
		dir := filepath.Join(parent, dirPattern+name)
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "llama.sock"), nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if owner != "" {
			if err := os.WriteFile(filepath.Join(dir, ownerFile), []byte(owner), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		at := time.Now().Add(-age)
		if err := os.Chtimes(dir, at, at); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	stale := mk("stale", strconv.Itoa(gone.Process.Pid), 0)
	running := mk("running", strconv.Itoa(os.Getppid()), 0)
	making := mk("making", "", 0)
	older := mk("older", "", 2*time.Hour) // an older app's, nothing listening
	e, err := openEndpoint("k3y")
	if err != nil {
		t.Fatal(err)
	}
	defer e.close()
	for dir, want := range map[string]bool{stale: false, running: true, making: true, older: false, e.dir: true} {
		if _, err := os.Stat(dir); (err == nil) != want {
			t.Errorf("%s: exists %v, want %v", filepath.Base(dir), err == nil, want)
		}
	}
	if b, err := os.ReadFile(filepath.Join(e.dir, ownerFile)); err != nil || string(b) != strconv.Itoa(os.Getpid()) {
		t.Fatalf("the new directory names its owner: %q, %v", b, err)
	}
}
