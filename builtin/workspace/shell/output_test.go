package shell

import (
	"strings"
	"testing"
)

func TestStrip(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"plain", "hello\n", "hello\n"},
		{"crlf", "a\r\nb\r\n", "a\nb\n"},
		{"colours", "\x1b[1;31mred\x1b[0m", "red"},
		{"cursor", "\x1b[2K\x1b[1Gline\x1b[?25l", "line"},
		{"osc title bel", "\x1b]0;title\x07text", "text"},
		{"osc st", "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "link"},
		{"dcs", "\x1bPq#0;2;0;0;0\x1b\\after", "after"},
		{"charset", "\x1b(Bok", "ok"},
		{"two-byte", "\x1b=\x1b>keypad", "keypad"},
		{"progress", "10%\r50%\r100%\n", "100%\n"},
		{"cr before crlf", "x\r\r\ny", "x\ny"},
		{"trailing cr", "done\r", "done"},
		{"backspace", "abc\b\bd\n", "ad\n"},
		{"backspace utf8", "né\bx", "nx"},
		{"backspace stops at line start", "a\n\bb", "a\nb"},
		{"bell and nul", "a\x07b\x00c", "abc"},
		{"tab kept", "a\tb", "a\tb"},
		{"unterminated csi", "x\x1b[31", "x"},
		{"lone esc", "x\x1b", "x"},
		{"invalid utf8", "a\xffb", "a\uFFFDb"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Strip([]byte(c.in)); got != c.want {
				t.Fatalf("Strip(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestOutputBuffer(t *testing.T) {
	cases := []struct {
		name    string
		limit   int
		writes  []string
		text    string
		omitted int64
	}{
		{"fits", 10, []string{"abc", "de"}, "abcde", 0},
		{"exactly full", 10, []string{"0123456789"}, "0123456789", 0},
		{"head and tail", 10, []string{"01234", "56789", "abcde"}, "01234" + omitNotice(5) + "abcde", 5},
		{"small writes wrap the tail", 6, []string{"a", "b", "c", "d", "e", "f", "g", "h"}, "abc" + omitNotice(2) + "fgh", 2},
		{"one huge write", 4, []string{strings.Repeat("x", 100) + "yz"}, "xx" + omitNotice(98) + "yz", 98},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := NewOutputBuffer(c.limit)
			for _, w := range c.writes {
				if n, err := o.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write = %d, %v", n, err)
				}
			}
			text, omitted := o.Text()
			if text != c.text || omitted != c.omitted {
				t.Fatalf("Text() = %q, %d; want %q, %d", text, omitted, c.text, c.omitted)
			}
		})
	}
}

func omitNotice(n int) string {
	o := &OutputBuffer{total: int64(n)}
	text, _ := o.Text()
	return text
}

// The markers may arrive split anywhere across reads.
func TestCaptureAcrossReads(t *testing.T) {
	id := "0123456789abcdef"
	stream := " __sb " + id + " # echo hi\r\n\x1b[?2004l\r" +
		markerPrefix + "S;" + id + "\x07" +
		"hi\r\n\x1b[32mthere\x1b[0m\r\n" +
		markerPrefix + "E;" + id + ";3\x07" +
		promptMarker + "prompt $ "
	for _, size := range []int{1, 2, 3, 7, 16, 1000} {
		c := newCapture(nil, id, 1024)
		for i := 0; i < len(stream); i += size {
			c.feed([]byte(stream[i:min(i+size, len(stream))]))
		}
		text, _ := c.out.Text()
		if !c.finished() || c.abandoned || text != "hi\nthere\n" || c.exit != 3 {
			t.Fatalf("chunks of %d: finished=%v abandoned=%v text=%q exit=%d", size, c.finished(), c.abandoned, text, c.exit)
		}
	}
}

// Once the shell was interrupted, its prompt ends the command: the shell
// gave it up. Before, a prompt marker is only output (echo "$PS1").
func TestCaptureEndsAtThePromptOnceInterrupted(t *testing.T) {
	id := "0123456789abcdef"
	for _, size := range []int{1, 2, 5, 1000} {
		c := newCapture(nil, id, 1024)
		feed := func(s string) {
			for i := 0; i < len(s); i += size {
				c.feed([]byte(s[i:min(i+size, len(s))]))
			}
		}
		feed(markerPrefix + "S;" + id + "\x07" + "ps1:" + promptMarker + "\r\n")
		if c.finished() {
			t.Fatalf("chunks of %d: a prompt before the interrupt ended the command", size)
		}
		c.interrupt()
		feed("^C\r\n\x1b[?2004h" + promptMarker + "/tmp # ")
		text, _ := c.out.Text()
		if !c.finished() || !c.abandoned || c.exit != -1 || text != "ps1:\n^C\n" {
			t.Fatalf("chunks of %d: finished=%v abandoned=%v exit=%d text=%q", size, c.finished(), c.abandoned, c.exit, text)
		}
	}
}

func TestCaptureIgnoresOtherIDs(t *testing.T) {
	c := newCapture(nil, "aaaa", 1024)
	c.feed([]byte(markerPrefix + "S;bbbb\x07stale\r\n" + markerPrefix + "E;bbbb;0\x07"))
	c.feed([]byte(markerPrefix + "S;aaaa\x07mine\r\npartial"))
	if c.finished() {
		t.Fatal("finished on another command's marker")
	}
	c.flush() // stopped before its end marker: what was held back counts
	if text, _ := c.out.Text(); text != "mine\npartial" {
		t.Fatalf("text = %q", text)
	}
}

func TestPreview(t *testing.T) {
	cases := []struct{ in, want string }{
		{"ls -la", " # ls -la"},
		{"  \n", ""},
		{"echo hi!\nmore", " # echo hi …"},
		{"printf 'a\\tb'", " # printf 'a tb'"},
		{strings.Repeat("x", 70), " # " + strings.Repeat("x", 60) + " …"},
		{"a\x1bb", " # a b"},
	}
	for _, c := range cases {
		if got := preview(c.in); got != c.want {
			t.Errorf("preview(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
