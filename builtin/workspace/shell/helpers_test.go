//go:build linux

package shell

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// shells are the shells every behaviour is checked with: bash (with
// readline) and the POSIX sh (dash on Debian, canonical-mode input).
var shells = []string{"bash", "sh"}

func shellPath(t *testing.T, name string) string {
	t.Helper()
	p, err := LookPath(name, os.Getenv("PATH"))
	if err != nil {
		t.Fatalf("%s not found: %v", name, err)
	}
	return p
}

// fastStops shortens the stop timeouts for the test.
func fastStops(t *testing.T) {
	t.Helper()
	kg, sw, st := KillGrace, StopWait, SettleTimeout
	KillGrace, StopWait, SettleTimeout = time.Second, 300*time.Millisecond, 900*time.Millisecond
	t.Cleanup(func() { KillGrace, StopWait, SettleTimeout = kg, sw, st })
}

// start starts a session in a new directory with a sub/ directory.
func start(t *testing.T, shell string) (*Session, string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	s, err := Start("test", Options{Dir: dir, Shell: shellPath(t, shell)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeSession(t, s) })
	return s, dir
}

func closeSession(t *testing.T, s *Session) {
	t.Helper()
	// t.Context is already cancelled when cleanups run.
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := s.Close(ctx); err != nil {
		t.Errorf("close: %v", err)
	}
}

func run(t *testing.T, s *Session, command string, timeout time.Duration) Result {
	t.Helper()
	res, err := s.Exec(t.Context(), command, timeout)
	if err != nil {
		t.Fatalf("exec %q: %v", command, err)
	}
	return res
}

var pidLine = regexp.MustCompile(`pid:(\d+)`)

// pids reads the "pid:N" lines a test command printed.
func pids(t *testing.T, out string, want int) []int {
	t.Helper()
	var ps []int
	for _, m := range pidLine.FindAllStringSubmatch(out, -1) {
		n, _ := strconv.Atoi(m[1])
		ps = append(ps, n)
	}
	if len(ps) != want {
		t.Fatalf("want %d pids in output, got %v:\n%s", want, ps, out)
	}
	return ps
}

// gone reports whether pid has exited (a zombie has: it only waits to be reaped).
func gone(pid int) bool {
	st, ok := readStat(pid)
	return !ok || st.dead()
}

// waitFor reads ch until the accumulated output contains want.
func waitFor(t *testing.T, ch <-chan []byte, want string) string {
	t.Helper()
	var buf bytes.Buffer
	deadline := time.After(15 * time.Second)
	for !strings.Contains(buf.String(), want) {
		select {
		case b, ok := <-ch:
			if !ok {
				t.Fatalf("channel closed before %q; got %q", want, buf.String())
			}
			buf.Write(b)
		case <-deadline:
			t.Fatalf("no %q in subscriber output: %q", want, buf.String())
		}
	}
	return buf.String()
}
