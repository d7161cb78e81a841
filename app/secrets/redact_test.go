package secrets

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"
)

func TestRedact(t *testing.T) {
	values := []string{"sk-SEKRIT05tok", "postgres://user:SEKRIT02pw@db/x?sslmode=require", "abcdef123456", "abcdef123456789", "p&ss<w>rd='x'", "pässwörd-geheim", "short"}
	cases := []struct{ name, in, want string }{
		{"none", "nothing to see here", "nothing to see here"},
		{"empty", "", ""},
		{"middle", "a sk-SEKRIT05tok b", "a ••••5tok b"},
		{"start and end", "sk-SEKRIT05tok", "••••5tok"},
		{"twice in a row", "sk-SEKRIT05toksk-SEKRIT05tok.", "••••5tok••••5tok."},
		{"a value holding another is masked whole", "x abcdef123456789 y abcdef123456", "x ••••6789 y ••••3456"},
		{"under six characters is left", "short of it", "short of it"},
		{"a URL", "could not connect to postgres://user:SEKRIT02pw@db/x?sslmode=require: refused", "could not connect to ••••uire: refused"},
		// Spelled as a JSON string: in an error that quotes a response body.
		{"Go's HTML escapes", `body {"pw":"p\u0026ss\u003cw\u003erd='x'"}`, `body {"pw":"••••='x'"}`},
		{"Gson's escapes", `{"pw":"p\u0026ss\u003cw\u003erd\u003d\u0027x\u0027"}`, `{"pw":"••••='x'"}`},
		{"Python's ASCII escapes", `{"pw":"p\u00e4ssw\u00f6rd-geheim"}`, `{"pw":"••••heim"}`},
		{"PHP's slash", `{"u":"postgres:\/\/user:SEKRIT02pw@db\/x?sslmode=require"}`, `{"u":"••••uire"}`},
	}
	r := NewRedactor()
	r.Add(values...)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := r.Redact(c.in)
			if got != c.want {
				t.Fatalf("Redact(%q) = %q, want %q", c.in, got, c.want)
			}
			if got == c.in && len(c.in) > 0 && unsafe.StringData(got) != unsafe.StringData(c.in) {
				t.Fatal("text without a secret was copied")
			}
		})
	}
}

// The same values mask the same text the same way whatever order they
// were added in (a pin of a masked description is stable across
// restarts), and an empty redactor changes nothing.
func TestRedactIsDeterministic(t *testing.T) {
	a, b := NewRedactor(), NewRedactor()
	if !a.Empty() || a.Redact("abcdefgh1234") != "abcdefgh1234" || a.InJSON([]byte(`"abcdefgh1234"`)) {
		t.Fatal("an empty redactor masked something")
	}
	a.Add("short") // too short to be masked: still empty
	if !a.Empty() {
		t.Fatal("a value under six characters was registered")
	}
	vs := []string{"abcdefgh1234", "efgh1234wxyz", "zz-SEKRIT-01", "zz-SEKRIT-012"}
	for _, v := range vs {
		a.Add(v)
	}
	for i := len(vs) - 1; i >= 0; i-- {
		b.Add(vs[i], vs[i]) // twice: once is kept
	}
	text := "abcdefgh1234wxyz zz-SEKRIT-0123 efgh1234wxyz"
	if ga, gb := a.Redact(text), b.Redact(text); ga != gb || strings.Contains(ga, "SEKRIT") {
		t.Fatalf("masked differently by order: %q vs %q", ga, gb)
	}
}

func TestInJSON(t *testing.T) {
	r := NewRedactor()
	r.Add("p&ss<w>rd='x'", "pässwörd-geheim", "sk-SEKRIT05tok", "postgres://u:SEKRIT02pw@db/x", "&<>=&<>='")
	goJSON, _ := json.Marshal(map[string]string{"v": "p&ss<w>rd='x'"})
	cases := []struct {
		name string
		raw  string
		want bool
	}{
		{"nothing", `{"content":[{"type":"text","text":"hello"}]}`, false},
		{"plain", `{"text":"token sk-SEKRIT05tok"}`, true},
		{"Go's escapes", string(goJSON), true},
		{"Gson's escapes", `{"v":"p\u0026ss\u003cw\u003erd\u003d\u0027x\u0027"}`, true},
		{"Python's ASCII escapes", `{"v":"p\u00e4ssw\u00f6rd-geheim"}`, true},
		{"as UTF-8", `{"v":"pässwörd-geheim"}`, true},
		{"PHP's slash", `{"v":"postgres:\/\/u:SEKRIT02pw@db\/x"}`, true},
		{"all escapable", `{"v":"\u0026\u003c\u003e\u003d\u0026\u003c\u003e\u003d\u0027"}`, true},
		{"a key", `{"sk-SEKRIT05tok":1}`, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := r.InJSON([]byte(c.raw)); got != c.want {
				t.Fatalf("InJSON(%s) = %v, want %v", c.raw, got, c.want)
			}
		})
	}
}

// The one-pass matcher finds what a search for each pattern in turn
// finds: the leftmost, the longest there.
func TestMatcherAgreesWithStringsIndex(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	word := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = "abc-_ 01"[rng.IntN(8)]
		}
		return string(b)
	}
	for range 300 {
		var ps []pattern
		for range 1 + rng.IntN(6) {
			ps = append(ps, pattern{text: word(matchWindow + rng.IntN(4))})
		}
		m := newMatcher(ps)
		s := word(rng.IntN(200))
		got, p := m.index(s, 0)
		want, wantLen := -1, 0
		for _, q := range ps {
			if i := strings.Index(s, q.text); i >= 0 && (want < 0 || i < want || i == want && len(q.text) > wantLen) {
				want, wantLen = i, len(q.text)
			}
		}
		if got != want || got >= 0 && len(p.text) != wantLen {
			t.Fatalf("patterns %v in %q: index %d (%q), want %d (length %d)", ps, s, got, p.text, want, wantLen)
		}
	}
}

// BenchmarkRedact: a 5 MB result is scanned once whatever the number of
// values known, and costs nothing while none is.
func BenchmarkRedact(b *testing.B) {
	var sb strings.Builder
	for i := 0; sb.Len() < 5<<20; i++ {
		fmt.Fprintf(&sb, `{"line":%d,"text":"the server returned sk- and postgres:// and a token"}`+"\n", i)
	}
	text := sb.String()
	for _, n := range []int{0, 1, 50} {
		r := NewRedactor()
		for i := range n {
			r.Add(fmt.Sprintf("sk-SEKRIT%02d-%x", i, i*7919))
		}
		b.Run(fmt.Sprint(n, " values"), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if r.Redact(text) != text {
					b.Fatal("masked what holds no secret")
				}
			}
		})
	}
}
