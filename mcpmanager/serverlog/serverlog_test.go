package serverlog

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestTailKeepsLastLines(t *testing.T) {
	l, err := Open("", Options{Lines: 3})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		l.Add(fmt.Sprint("line ", i))
	}
	if got := strings.Join(l.Tail(0), ","); got != "line 2,line 3,line 4" {
		t.Fatalf("Tail = %q", got)
	}
	if got := l.TailString(2); got != "line 3\nline 4" {
		t.Fatalf("TailString = %q", got)
	}
}

func TestConsumeFloodIsBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.log")
	l, err := Open(path, Options{Lines: 10, MaxBytes: 10 << 10, MaxLine: 100})
	if err != nil {
		t.Fatal(err)
	}
	// 5 MB of stderr, one line far longer than the reader's buffer.
	var b strings.Builder
	b.WriteString(strings.Repeat("x", 200<<10) + "\n")
	for i := range 50000 {
		fmt.Fprintf(&b, "flood %d %s\n", i, strings.Repeat("y", 90))
	}
	b.WriteString("no trailing newline")
	l.Consume(strings.NewReader(b.String()))
	l.Close()
	tail := l.Tail(0)
	if len(tail) != 10 || tail[9] != "no trailing newline" || !strings.HasPrefix(tail[8], "flood 49999 ") {
		t.Fatalf("tail = %q", tail[8:])
	}
	for _, p := range []string{path, path + ".1"} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Size() > 10<<10 {
			t.Errorf("%s is %d bytes, over the cap", p, fi.Size())
		}
	}
	if long := l.Tail(0); strings.Contains(strings.Join(long, ""), strings.Repeat("x", 101)) {
		t.Error("over-long line was kept whole")
	}
}

func TestRedact(t *testing.T) {
	l, _ := Open("", Options{Redact: func(s string) string { return strings.ReplaceAll(s, "sk-secret", "••••cret") }})
	l.Add("token sk-secret used")
	if got := l.TailString(1); got != "token ••••cret used" {
		t.Fatalf("kept %q", got)
	}
	if strings.Contains(l.TailString(1), "sk-secret") {
		t.Fatal("secret kept")
	}
}

func TestMessagesKeepLevelAndLogger(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.log")
	l, err := Open(path, Options{Redact: func(s string) string { return strings.ReplaceAll(s, "hunter2", "••••") }})
	if err != nil {
		t.Fatal(err)
	}
	l.Add("plain stderr")
	l.AddMessage("debug", "db", "connected")
	l.AddMessage("warning", "db", "slow query with hunter2")
	l.AddMessage("error", "", "disk full")
	l.AddMessage("loud", "x", "unknown level")
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		min  string
		want []string
	}{
		{"", []string{"plain stderr", "[debug] db: connected", "[warning] db: slow query with ••••", "[error] disk full", "[info] x: unknown level"}},
		{"debug", []string{"[debug] db: connected", "[warning] db: slow query with ••••", "[error] disk full", "[info] x: unknown level"}},
		{"warning", []string{"[warning] db: slow query with ••••", "[error] disk full"}},
		{"emergency", nil},
	}
	for _, tt := range tests {
		var got []string
		for _, e := range l.Entries(0, tt.min) {
			got = append(got, e.String())
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("Entries(0, %q) = %q, want %q", tt.min, got, tt.want)
		}
	}
	file, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(file), " [warning] db: slow query with ••••\n") || strings.Contains(string(file), "hunter2") {
		t.Errorf("file = %q", file)
	}
}
