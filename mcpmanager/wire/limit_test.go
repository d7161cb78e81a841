package wire

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

// chunked returns at most n bytes per Read, like a pipe that delivers a
// message in pieces.
type chunked struct {
	r io.Reader
	n int
}

func (c chunked) Read(p []byte) (int, error) { return c.r.Read(p[:min(len(p), c.n)]) }

// readLines splits what r lets through into lines the way mcp-go's stdio
// transport does (bufio.Reader.ReadString), returning every byte it got and
// the error that ended it.
func readLines(r io.Reader) (lines []string, got []byte, err error) {
	br := bufio.NewReaderSize(r, 16)
	for {
		line, err := br.ReadString('\n')
		got = append(got, line...)
		if err != nil {
			return lines, got, err
		}
		lines = append(lines, line)
	}
}

func TestReader(t *testing.T) {
	cases := []struct {
		name    string
		in      string
		limit   int
		chunk   int
		lines   []string
		tooBig  bool
		pending int
	}{
		{"lines within the limit pass unchanged", "{\"a\":1}\n{}\n", 7, 3, []string{"{\"a\":1}\n", "{}\n"}, false, 0},
		{"a line of exactly the limit passes", "12345\n", 5, 64, []string{"12345\n"}, false, 0},
		{"the \\r before the newline counts", "12345\r\n", 5, 64, nil, true, 0},
		{"one byte over fails", "123456\n", 5, 64, nil, true, 0},
		{"a line without newline fails once over", strings.Repeat("x", 1000), 10, 7, nil, true, 0},
		{"lines before the long one are delivered", "ab\ncd\n" + strings.Repeat("y", 100), 10, 100, []string{"ab\n", "cd\n"}, true, 0},
		{"a long line in the middle of one read", "ab\n" + strings.Repeat("y", 20) + "\ncd\n", 10, 100, []string{"ab\n"}, true, 0},
		{"an unfinished short line is pending at EOF", "{}\n{\"par", 10, 4, []string{"{}\n"}, false, 5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := NewReader(chunked{strings.NewReader(c.in), c.chunk}, c.limit)
			lines, got, err := readLines(r)
			if fmt.Sprint(lines) != fmt.Sprint(c.lines) {
				t.Errorf("lines %q, want %q", lines, c.lines)
			}
			if !strings.HasPrefix(c.in, string(got)) {
				t.Errorf("got %q, not a prefix of the input", got)
			}
			if c.tooBig {
				var le *LimitError
				if !errors.As(err, &le) || !errors.Is(err, ErrTooLarge) || le.Limit != c.limit {
					t.Fatalf("err %v, want a *LimitError of %d", err, c.limit)
				}
				if !errors.Is(r.Err(), ErrTooLarge) {
					t.Errorf("Err() = %v", r.Err())
				}
				select {
				case <-r.Failed():
				default:
					t.Error("Failed() is not closed")
				}
				if n, err := r.Read(make([]byte, 10)); n != 0 || !errors.Is(err, ErrTooLarge) {
					t.Errorf("Read after the failure: %d, %v", n, err)
				}
				return
			}
			if err != io.EOF || r.Err() != nil {
				t.Fatalf("err %v, Err() %v; want EOF and nil", err, r.Err())
			}
			if string(got) != c.in {
				t.Errorf("got %q, want the input unchanged", got)
			}
			if n, _ := r.Pending(); n != c.pending {
				t.Errorf("pending %d, want %d", n, c.pending)
			}
		})
	}
}

func TestLimitErrorNamesTheLimit(t *testing.T) {
	for _, c := range []struct {
		limit int
		want  string
	}{{64 << 20, "64 MB limit"}, {2048, "2 KB limit"}, {1000, "1000 bytes limit"}} {
		if got := (&LimitError{Limit: c.limit}).Error(); !strings.Contains(got, c.want) {
			t.Errorf("%d: %q, want it to name %q", c.limit, got, c.want)
		}
	}
	if NewReader(strings.NewReader(""), 0).Limit() != MaxMessageBytes || MaxMessageBytes != 64<<20 {
		t.Errorf("the default limit is %d, documented as 64 MB", MaxMessageBytes)
	}
}

func TestStall(t *testing.T) {
	pr, pw := io.Pipe()
	t.Cleanup(func() { pw.Close() })
	r := NewReader(pr, 0)
	go func() { _, _ = pw.Write([]byte("{}\n{\"jsonrpc\":")) }()
	buf := make([]byte, 64)
	got := 0
	for got < 14 {
		n, err := r.Read(buf[got:])
		if err != nil {
			t.Fatal(err)
		}
		got += n
	}
	if n, _ := r.Pending(); n != 11 {
		t.Errorf("pending %d, want 11", n)
	}
	if s := r.Stall(); !strings.HasPrefix(s, "no complete message after ") || !strings.HasSuffix(s, ", 11 bytes pending") {
		t.Errorf("Stall() = %q", s)
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Nanosecond)
	defer cancel()
	<-ctx.Done()
	err := r.Annotate(fmt.Errorf("transport error: %w", ctx.Err()))
	var se *StallError
	if !errors.As(err, &se) || !errors.Is(err, context.DeadlineExceeded) || se.Pending != 11 || !strings.Contains(err.Error(), "11 bytes pending") {
		t.Errorf("Annotate: %v", err)
	}
	other := errors.New("transport closed")
	if r.Annotate(other) != other || r.Annotate(nil) != nil {
		t.Error("Annotate changed an error that is no timeout")
	}
}

// FuzzReader checks the line reader as the stdio transport uses it: lines
// within the limit come through byte for byte, and a longer one ends the
// stream with a *LimitError after the lines before it, having let through
// no more than the limit of it (so memory stays bounded).
func FuzzReader(f *testing.F) {
	f.Add([]byte("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n"), uint16(64), uint8(7))
	f.Add([]byte("{}\n{}\r\n\n\n{\"method\":\"notifications/message\"}\n"), uint16(40), uint8(1))
	f.Add([]byte(strings.Repeat("A", 300)), uint16(100), uint8(33))
	f.Add([]byte("ok\n"+strings.Repeat("B", 50)+"\nok\n"), uint16(49), uint8(255))
	f.Add([]byte("\n\n\n"), uint16(0), uint8(0))
	f.Add([]byte{}, uint16(1), uint8(2))
	f.Fuzz(func(t *testing.T, in []byte, limit16 uint16, chunk8 uint8) {
		limit, chunk := int(limit16)%512+1, int(chunk8)%64+1
		r := NewReader(chunked{bytes.NewReader(in), chunk}, limit)
		lines, got, err := readLines(r)

		// Where the first line over the limit starts, if any.
		long, start := -1, 0
		for i, l := range bytes.SplitAfter(in, []byte("\n")) {
			if len(bytes.TrimSuffix(l, []byte("\n"))) > limit {
				long = i
				break
			}
			start += len(l)
		}
		if !bytes.HasPrefix(in, got) {
			t.Fatalf("delivered bytes are not a prefix of the input")
		}
		if long < 0 {
			if err != io.EOF || !bytes.Equal(got, in) {
				t.Fatalf("all lines fit, got err %v and %d of %d bytes", err, len(got), len(in))
			}
			tail := in[bytes.LastIndexByte(in, '\n')+1:]
			if n, _ := r.Pending(); n != len(tail) {
				t.Fatalf("pending %d, want %d", n, len(tail))
			}
			return
		}
		if !errors.Is(err, ErrTooLarge) {
			t.Fatalf("line %d is over %d bytes; err %v", long, limit, err)
		}
		if len(lines) != long {
			t.Fatalf("%d lines delivered, want the %d before the long one", len(lines), long)
		}
		if len(got) < start || len(got) > start+limit {
			t.Fatalf("delivered %d bytes; want between %d and %d", len(got), start, start+limit)
		}
	})
}
