package config

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestStripJSONC(t *testing.T) {
	tests := []struct {
		name, in, want string
		open           int
	}{
		{"line comment", "{\"a\": 1 // one\n}", "{\"a\": 1       \n}", -1},
		{"block comment keeps newlines", "{/* a\nb */\"a\": 1}", "{    \n    \"a\": 1}", -1},
		{"slashes in strings stay", `{"u": "http://x/*y*/"}`, `{"u": "http://x/*y*/"}`, -1},
		{"escaped quote in string", `{"u": "a\"//b"}`, `{"u": "a\"//b"}`, -1},
		{"trailing commas", "{\"a\": [1, 2,\n],\n}", "{\"a\": [1, 2 \n] \n}", -1},
		{"trailing comma before comment", "[1, /* x */ ]", "[1          ]", -1},
		{"empty slots are not trailing", "[,] [1,,]", "[,] [1,,]", -1},
		{"unterminated block", "{ /* x", "{ /* x", 2},
		{"comment at end without newline", "{} // end", "{}       ", -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, open := stripJSONC([]byte(tt.in))
			if open != tt.open {
				t.Fatalf("open comment at %d, want %d", open, tt.open)
			}
			if open >= 0 {
				return
			}
			if string(got) != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
			if len(got) != len(tt.in) {
				t.Errorf("length %d, want %d: offsets must not move", len(got), len(tt.in))
			}
		})
	}
}

// The brief's example and its multibyte cousins: columns count characters
// of the file as written, comments included.
func TestSyntaxErrorPosition(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"brace where a value belongs", "{\n  \"mcpServers\": {\n   \"github\": }\n  }\n}", `config.json:3:14: a value is missing after "github":`},
		{"multibyte key", `{"é": x}`, `config.json:1:7: x is not a JSON value: put text in double quotes ("x"); true, false and null are written in lower case`},
		{"multibyte comment", "{/* ééé */ x}", `config.json:1:12: the name x needs double quotes: "x"`},
		{"BOM is not a column", "\xef\xbb\xbf{x}", `config.json:1:2: the name x needs double quotes: "x"`},
		{"CRLF lines", "{\r\n\"a\": 1\r\n\"b\": 2}", `config.json:3:1: a comma (,) is missing before "b": put one after the value before it`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseContext(context.Background(), "config.json", []byte(tt.in))
			if !errors.Is(err, ErrSyntax) {
				t.Fatalf("err = %v, want ErrSyntax", err)
			}
			if err.Error() != tt.want {
				t.Errorf("got  %s\nwant %s", err, tt.want)
			}
		})
	}
}

func TestPathKey(t *testing.T) {
	tests := []struct{ base, key, want string }{
		{"", "mcpServers", "mcpServers"},
		{"mcpServers", "github", "mcpServers.github"},
		{"mcpServers", "my.server", `mcpServers["my.server"]`},
		{"mcpServers", "", `mcpServers[""]`},
		{"mcpServers.x.env", "A B", `mcpServers.x.env["A B"]`},
		{"", "@scope/pkg", `["@scope/pkg"]`},
	}
	for _, tt := range tests {
		if got := pathKey(tt.base, tt.key); got != tt.want {
			t.Errorf("pathKey(%q, %q) = %s, want %s", tt.base, tt.key, got, tt.want)
		}
	}
}

func TestDocPositionMatchesScan(t *testing.T) {
	text := []byte("{\r\n  \"é\": 1, // ü\n\n\t\"x\": [\n  ]}")
	d := &doc{text: text}
	for off := 0; off <= len(text)+1; off++ {
		l1, c1 := d.position(off)
		l2, c2 := position(text, off)
		if l1 != l2 || c1 != c2 {
			t.Errorf("offset %d: doc %d:%d, scan %d:%d", off, l1, c1, l2, c2)
		}
	}
}

// TestDocPositionLongLines checks columns on lines much longer than colStep,
// with multi-byte, invalid and truncated UTF-8 across the marks.
func TestDocPositionLongLines(t *testing.T) {
	var b strings.Builder
	for i := range 3 * colStep {
		switch i % 7 {
		case 0:
			b.WriteString("é")
		case 3:
			b.WriteString("\xff")
		case 5:
			b.WriteString("\xe2\x82") // a truncated 3-byte rune
		default:
			b.WriteByte('a')
		}
		if i == 2*colStep+11 {
			b.WriteString("\r\n")
		}
	}
	text := []byte(b.String())
	d := &doc{text: text}
	for off := 0; off <= len(text); off++ {
		l1, c1 := d.position(off)
		l2, c2 := position(text, off)
		if l1 != l2 || c1 != c2 {
			t.Fatalf("offset %d: doc %d:%d, scan %d:%d", off, l1, c1, l2, c2)
		}
	}
}

// minified is a one-line config of n servers, the worst case for columns.
func minified(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"mcpServers":{`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"s%d":{"command":"npx","args":["-y","pkg"],"env":{"A":"1"},"x":1}`, i)
	}
	b.WriteString(`}}`)
	return []byte(b.String())
}

// TestPositionCostIsLinear counts the bytes scanned to compute positions
// (every entry has one) in a minified file: per byte of input it must not
// grow with the file. Counting from the start of the line for every entry
// made a 20,000-server config take seconds.
func TestPositionCostIsLinear(t *testing.T) {
	var n int
	scanHook = func(k int) { n += k }
	t.Cleanup(func() { scanHook = nil })
	perByte := map[int]float64{}
	for _, servers := range []int{2_000, 20_000} {
		data := minified(servers)
		n = 0
		for _, parse := range []func() error{
			func() error { _, err := ParseContext(context.Background(), "big.json", data); return err },
			func() error { _, err := parseApp(t.Context(), "config.json", data); return err },
		} {
			if err := parse(); err != nil {
				t.Fatal(err)
			}
		}
		perByte[servers] = float64(n) / float64(2*len(data))
	}
	t.Logf("bytes scanned per input byte: %v", perByte)
	for servers, r := range perByte {
		// index() reads each byte once; every lookup adds at most 2*colStep.
		if r > 12 {
			t.Errorf("%d servers: %.1f bytes scanned per input byte", servers, r)
		}
	}
	if perByte[20_000] > 1.5*perByte[2_000] {
		t.Errorf("cost per byte grows with the file: %v", perByte)
	}
}

// TestParseCancelled: a cancelled parse returns the context's error and no
// result, whether the context ended before or during the parse.
func TestParseCancelled(t *testing.T) {
	data := minified(5 * checkEvery)
	path := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	parsers := map[string]func(ctx context.Context) (any, error){
		"Parse":       func(ctx context.Context) (any, error) { return ParseContext(ctx, "big.json", data) },
		"LoadContext": func(ctx context.Context) (any, error) { return LoadContext(ctx, path) },
	}
	for name, parse := range parsers {
		t.Run(name+"/before", func(t *testing.T) {
			ctx, cancel := context.WithCancel(t.Context())
			cancel()
			if got, err := parse(ctx); !errors.Is(err, context.Canceled) || !reflect.ValueOf(got).IsNil() {
				t.Fatalf("got %v, %v; want nothing and context.Canceled", got, err)
			}
		})
		t.Run(name+"/during", func(t *testing.T) {
			// Cancel at the first position lookup, i.e. while entries are read.
			ctx, cancel := context.WithCancel(t.Context())
			lookups := 0
			scanHook = func(int) {
				if lookups++; lookups == 2 {
					cancel()
				}
			}
			t.Cleanup(func() { scanHook = nil })
			got, err := parse(ctx)
			if !errors.Is(err, context.Canceled) || !reflect.ValueOf(got).IsNil() {
				t.Fatalf("got %v, %v; want nothing and context.Canceled", got, err)
			}
			// index() reports once, each position twice (line start and offset).
			if entries := (lookups - 1) / 2; entries > checkEvery+1 {
				t.Errorf("%d entries read after the cancel; it should stop within %d", entries, checkEvery)
			}
		})
	}
}
