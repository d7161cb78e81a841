package wire

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// TestLineReader: lines come trimmed, each in a buffer of its own, and a
// line over the limit ends the stream with an error naming the limit — at
// the documented 64 MB by default, on serve's stdin as on a server's
// stdout.
func TestLineReader(t *testing.T) {
	if MaxMessageBytes != 64<<20 {
		t.Errorf("MaxMessageBytes = %d, want 64 MB", MaxMessageBytes)
	}
	cases := []struct {
		name  string
		in    string
		limit int
		lines []string
		end   error
	}{
		{"lines trimmed, CRLF too", "{\"a\":1}\r\n  {}\n\n{\"b\":2}", 0, []string{`{"a":1}`, `{}`, ``, `{"b":2}`}, io.EOF},
		{"a line longer than the buffer is assembled", strings.Repeat("x", 3*readBuffer) + "\n", 0, []string{strings.Repeat("x", 3*readBuffer)}, io.EOF},
		{"a line over the limit ends it", "ok\n" + strings.Repeat("x", 3<<20), 1 << 20, []string{"ok"}, ErrTooLarge},
		{"the limit counts lines the buffer never holds whole", strings.Repeat("y", 200<<10) + "\n", 100 << 10, nil, ErrTooLarge},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := NewLineReader(strings.NewReader(tc.in), tc.limit)
			var got [][]byte
			var err error
			for {
				var line []byte
				line, err = r.Next()
				if err != nil {
					if len(line) > 0 {
						got = append(got, line)
					}
					break
				}
				got = append(got, line)
			}
			if !errors.Is(err, tc.end) {
				t.Fatalf("ended with %v, want %v", err, tc.end)
			}
			if errors.Is(err, ErrTooLarge) && !strings.Contains(err.Error(), Size(cmpOr(tc.limit, MaxMessageBytes))+" limit") {
				t.Errorf("error %q does not name the limit", err)
			}
			if len(got) != len(tc.lines) {
				t.Fatalf("got %d lines, want %d", len(got), len(tc.lines))
			}
			for i := range got {
				if string(got[i]) != tc.lines[i] {
					t.Errorf("line %d = %.40q, want %.40q", i, got[i], tc.lines[i])
				}
			}
			if len(got) > 1 && len(got[0]) > 0 && &got[0][:1][0] == &got[1][:1][0] {
				t.Error("two lines share a buffer")
			}
		})
	}
}

func cmpOr(a, b int) int {
	if a > 0 {
		return a
	}
	return b
}

// TestWriter: one message per line, whole, whatever writes concurrently;
// a raw result or params with line breaks are compacted, not split.
func TestWriter(t *testing.T) {
	var out bytes.Buffer
	w := NewWriter(&out)
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() { _ = w.WriteJSON(map[string]string{"text": strings.Repeat("z", 1000)}) })
	}
	wg.Wait()
	for i, l := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
		if _, err := Parse([]byte(l)); err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
	}
	cases := []struct {
		name  string
		write func(*Writer) error
		want  string
	}{
		{"result as it came", func(w *Writer) error { return w.WriteResult([]byte(`7`), []byte(`{"a": 1}`)) }, `{"jsonrpc":"2.0","id":7,"result":{"a": 1}}` + "\n"},
		{"pretty result compacted", func(w *Writer) error { return w.WriteResult([]byte(`"x"`), []byte("{\n  \"a\": \"b\\nc\"\r\n}")) }, `{"jsonrpc":"2.0","id":"x","result":{"a":"b\nc"}}` + "\n"},
		{"request with params", func(w *Writer) error {
			return w.WriteRequest([]byte(`"s-1"`), "tools/call", []byte("{\"name\":\n\"t\"}"))
		}, `{"jsonrpc":"2.0","id":"s-1","method":"tools/call","params":{"name":"t"}}` + "\n"},
		{"request without params", func(w *Writer) error { return w.WriteRequest([]byte(`1`), "ping", nil) }, `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := tc.write(NewWriter(&b)); err != nil {
				t.Fatal(err)
			}
			if b.String() != tc.want {
				t.Errorf("wrote %q, want %q", b.String(), tc.want)
			}
		})
	}
}

// endless is an endless line of x, allocating nothing.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	return len(p), nil
}

// TestLongLineCostsAboutItsLimit: a line far over the limit costs about
// the limit (at most twice it) in allocations before it is refused.
func TestLongLineCostsAboutItsLimit(t *testing.T) {
	const limit = 8 << 20
	r := NewLineReader(io.LimitReader(endless{}, 50<<20), limit)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := r.Next()
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("Next = %v, want ErrTooLarge", err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 2*limit {
		t.Fatalf("reading a line over the %d MB limit allocated %d MB; want at most twice the limit", limit>>20, got>>20)
	}
}
