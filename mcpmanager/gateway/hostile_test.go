package gateway

import (
	"bufio"
	"errors"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/jsonl"
)

// TestBearerScheme: the scheme of "Authorization: Bearer <token>" is
// case-insensitive; the token is not.
func TestBearerScheme(t *testing.T) {
	const token = "0123abcd"
	cases := []struct {
		header string
		want   bool
	}{
		{"Bearer 0123abcd", true},
		{"bearer 0123abcd", true},
		{"BEARER 0123abcd", true},
		{"Bearer  0123abcd", true},
		{"Bearer 0123ABCD", false},
		{"Basic 0123abcd", false},
		{"Bearer0123abcd", false},
		{"0123abcd", false},
		{"Bearer ", false},
		{"", false},
	}
	for _, c := range cases {
		if got := bearer(c.header, token); got != c.want {
			t.Errorf("%q: %v, want %v", c.header, got, c.want)
		}
	}
	if bearer("Bearer ", "") {
		t.Error("an empty token matched")
	}
}

// TestStdinLimit: serve's own stdin is bounded like a server's stdout, at
// the documented 64 MB, and the error names the limit.
func TestStdinLimit(t *testing.T) {
	if MaxLineBytes != jsonl.MaxMessageBytes || MaxLineBytes != 64<<20 {
		t.Errorf("MaxLineBytes = %d, want jsonl.MaxMessageBytes (64 MB)", MaxLineBytes)
	}
	old := MaxLineBytes
	MaxLineBytes = 1 << 20
	t.Cleanup(func() { MaxLineBytes = old })
	r := &lineReader{br: bufio.NewReaderSize(strings.NewReader(strings.Repeat("x", 3<<20)), 64<<10)}
	if _, err := r.next(); !errors.Is(err, ErrLineTooLong) || !strings.Contains(err.Error(), "1 MB limit") {
		t.Errorf("err %v, want ErrLineTooLong naming the 1 MB limit", err)
	}
}
