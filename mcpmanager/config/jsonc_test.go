package config

import (
	"errors"
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
		{"brace where a value belongs", "{\n  \"mcpServers\": {\n   \"github\": }\n  }\n}", "config.json:3:14: invalid character '}' looking for beginning of value"},
		{"multibyte key", `{"é": x}`, "config.json:1:7: invalid character 'x' looking for beginning of value"},
		{"multibyte comment", "{/* ééé */ x}", "config.json:1:12: invalid character 'x' looking for beginning of object key string"},
		{"BOM is not a column", "\xef\xbb\xbf{x}", "config.json:1:2: invalid character 'x' looking for beginning of object key string"},
		{"CRLF lines", "{\r\n\"a\": 1\r\n\"b\": 2}", "config.json:3:1: invalid character '\"' after object key:value pair"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("config.json", []byte(tt.in))
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
