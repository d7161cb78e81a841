package mcpmanager

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestServersLogToFilesOfTheirOwn: servers whose names sanitize alike, or
// differ only in case, each write their stderr into a file of their own
// (and their Logs view shows their own lines). A server's file from before
// its name carried a hash is moved to the new name, with its rotated
// copy; a file two servers shared stays where it was.
func TestServersLogToFilesOfTheirOwn(t *testing.T) {
	logs := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(logs, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("my_server.log", "an old line of my server\n")
	write("my_server.log.1", "an older line of my server\n")
	write("_.log", "an old line of both\n")

	names := []string{"データ", "サービス", "odd server", "odd_server", "odd", "Odd", "my server"}
	var cfgs []ServerConfig
	for _, n := range names {
		cfgs = append(cfgs, ServerConfig{Name: n, Command: "sh", Args: []string{"-c", `echo "I am $0" >&2; exec "$1" -mode ok`, n, faultServer}})
	}
	m := New(Options{LogDir: logs})
	m.Apply(cfgs)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	m.WaitSettled(ctx)
	for _, n := range names {
		sup, err := m.Server(n)
		if err != nil {
			t.Fatal(err)
		}
		if tail := strings.Join(sup.Log().Tail(20), "\n"); !strings.Contains(tail, "I am "+n) {
			t.Errorf("%s's Logs view: %q", n, tail)
		}
	}
	if err := m.Close(t.Context()); err != nil {
		t.Fatal(err)
	}

	files := map[string]string{}
	for _, n := range names {
		f := logNameAmong(n, names)
		if prev, taken := files[f]; taken {
			t.Fatalf("%s and %s log into one file, %s", prev, n, f)
		}
		files[f] = n
		data, err := os.ReadFile(filepath.Join(logs, f))
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range names {
			if has := strings.Contains(string(data), "I am "+o+"\n"); has != (o == n) {
				t.Errorf("%s's log %s has %q: %v", n, f, "I am "+o, has)
			}
		}
	}
	mine := logNameAmong("my server", names)
	for file, want := range map[string]string{mine: "an old line of my server", mine + ".1": "an older line of my server", "_.log": "an old line of both"} {
		if data, _ := os.ReadFile(filepath.Join(logs, file)); !strings.Contains(string(data), want) {
			t.Errorf("%s = %q, want %q in it", file, data, want)
		}
	}
	if _, err := os.Stat(filepath.Join(logs, "my_server.log")); err == nil {
		t.Error("my server's old log is still there")
	}
}
