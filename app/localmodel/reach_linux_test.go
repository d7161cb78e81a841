package localmodel_test

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/app/localmodel"
)

// checkAppAlone checks that only the app can reach the runtime s runs:
// its key is not in its argv (which every local user reads in ps and
// /proc/PID/cmdline) but in its environment (only this user's), and it
// listens on no TCP port — which a web page in the browser could reach,
// whatever the server makes of Origin and Host — but on a Unix socket in a
// directory of this user's alone, removed by Close.
func checkAppAlone(t *testing.T, s *localmodel.Server, name string) {
	t.Helper()
	pid := s.Status().PID
	proc := fmt.Sprintf("/proc/%d/", pid)

	cmdline, err := os.ReadFile(proc + "cmdline")
	if err != nil {
		t.Fatal(err)
	}
	args := strings.Split(strings.TrimSuffix(string(cmdline), "\x00"), "\x00")
	if filepath.Base(args[0]) != name {
		t.Fatalf("process %d is %q, not %s", pid, args[0], name)
	}
	if strings.Contains(string(cmdline), s.APIKey()) || slices.Contains(args, "--api-key") || slices.Contains(args, "--api-key-file") {
		t.Fatalf("the key is in the runtime's argv: %q", args)
	}
	environ, err := os.ReadFile(proc + "environ")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(strings.Split(string(environ), "\x00"), "LLAMA_API_KEY="+s.APIKey()) {
		t.Fatal("the runtime's environment has no LLAMA_API_KEY: how did it get its key?")
	}
	if st, err := os.Stat(proc + "environ"); err != nil || st.Mode().Perm()&0o077 != 0 {
		t.Fatalf("/proc/PID/environ: %v (%v), readable by others", st.Mode(), err)
	}

	i := slices.Index(args, "--host")
	if i < 0 || i+1 >= len(args) || slices.Contains(args, "--port") {
		t.Fatalf("argv %q: no --host, or a --port", args)
	}
	sock := args[i+1]
	dir, err := os.Stat(filepath.Dir(sock))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(sock, ".sock") || dir.Mode().Perm() != 0o700 || dir.Sys().(*syscall.Stat_t).Uid != uint32(os.Getuid()) {
		t.Fatalf("socket %s in a directory %v owned by %d", sock, dir.Mode(), dir.Sys().(*syscall.Stat_t).Uid)
	}

	// The sockets the process holds, by inode, against the system's
	// listening TCP sockets and its Unix sockets' paths.
	fds, err := os.ReadDir(proc + "fd")
	if err != nil {
		t.Fatal(err)
	}
	held := map[string]bool{}
	for _, fd := range fds {
		if l, err := os.Readlink(proc + "fd/" + fd.Name()); err == nil && strings.HasPrefix(l, "socket:[") {
			held[strings.TrimSuffix(strings.TrimPrefix(l, "socket:["), "]")] = true
		}
	}
	for _, table := range []string{"tcp", "tcp6"} {
		for _, f := range procNet(t, proc+"net/"+table) {
			// sl local_address rem_address st … inode: st 0A is LISTEN.
			if len(f) > 9 && f[3] == "0A" && held[f[9]] {
				t.Errorf("the runtime listens on TCP %s (%s)", f[1], table)
			}
		}
	}
	var listening bool
	for _, f := range procNet(t, proc+"net/unix") {
		// Num RefCount Protocol Flags Type St Inode Path: flags 00010000
		// is a listening socket.
		if len(f) > 7 && f[7] == sock && f[3] == "00010000" && held[f[6]] {
			listening = true
		}
	}
	if !listening {
		t.Errorf("the runtime does not listen on %s", sock)
	}
	if err := s.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Dir(sock)); !os.IsNotExist(err) {
		t.Errorf("the socket's directory outlived Close: %v", err)
	}
}

// procNet is a /proc/net table's rows, split in fields, without the header.
func procNet(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows [][]string
	sc := bufio.NewScanner(f)
	for first := true; sc.Scan(); first = false {
		if !first {
			rows = append(rows, strings.Fields(sc.Text()))
		}
	}
	return rows
}

// What Start gives the runtime, checked on a stand-in for llama-server
// (this test binary, fakeruntime_test.go), so without the real one: the
// app's client reaches it with the key, nothing else does.
func TestStartGivesTheRuntimeAPrivateSocketAndItsKeyOutsideArgv(t *testing.T) {
	t.Setenv(fakeRuntimeEnv, "1")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	model := filepath.Join(t.TempDir(), "model.gguf")
	if err := os.WriteFile(model, []byte("GGUF"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	s, err := localmodel.Start(ctx, localmodel.Options{Binary: exe, Model: model})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(context.Background())
	for key, want := range map[string]int{s.APIKey(): http.StatusOK, "wrong": http.StatusUnauthorized} {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.BaseURL()+"/models", nil)
		req.Header.Set("Authorization", "Bearer "+key)
		res, err := s.HTTPClient().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != want {
			t.Fatalf("with key %q: %s, want %d", key, res.Status, want)
		}
	}
	checkAppAlone(t, s, filepath.Base(exe))
}
