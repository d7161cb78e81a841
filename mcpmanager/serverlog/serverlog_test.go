package serverlog

import (
	"fmt"
	"os"
	"path/filepath"
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
