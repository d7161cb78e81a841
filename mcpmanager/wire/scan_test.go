package wire

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestValidAgreesWithEncodingJSON(t *testing.T) {
	for _, in := range validityCorpus {
		if got, want := Valid([]byte(in)), json.Valid([]byte(in)); got != want {
			t.Errorf("Valid(%q) = %v, json.Valid says %v", in, got, want)
		}
	}
}

// validityCorpus: valid and invalid JSON, each edge of the grammar.
var validityCorpus = []string{
	`{}`, `[]`, `""`, `0`, `-0`, `1.5e10`, `-1.5E-10`, `1e+2`, `true`, `false`, `null`, ` {"a" : [1, 2, {"b": null}] } `,
	`"\u00e9\n\t\"\\\/\b\f\r"`, `"é 中文 🎉"`, `{"a":{"b":{"c":[[[]]]}}}`, "\"\xff\"",
	``, ` `, `{`, `}`, `[`, `{"a"}`, `{"a":}`, `{"a":1,}`, `[1,]`, `[1 2]`, `{"a" 1}`, `{1:2}`, `01`, `1.`, `.5`, `-`, `1e`, `1e+`,
	`+1`, `tru`, `nul`, `truex`, `"abc`, `"\x"`, `"\u12"`, `"\u12G4"`, "\"a\x01b\"", "\"a\nb\"", `{} {}`, `[] x`, `"\"`, `"\\"`,
	`{"a":1}}`, `NaN`, `Infinity`, `[-]`, `{"a":-01}`,
}

func TestParseFindsTheMembers(t *testing.T) {
	for _, tc := range []struct {
		line                               string
		id, method, params, result, errStr string
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"m":"x"}}}`, `1`, `"tools/call"`, `{"name":"echo","arguments":{"m":"x"}}`, ``, ``},
		{`{"result":{"content":[{"type":"text","text":"a \"quoted\" }"}]},"jsonrpc":"2.0","id":"s-1"}`, `"s-1"`, ``, ``, `{"content":[{"type":"text","text":"a \"quoted\" }"}]}`, ``},
		{` { "jsonrpc" : "2.0" , "id" : 7 , "error" : {"code":-32601,"message":"no"} } `, `7`, ``, ``, ``, `{"code":-32601,"message":"no"}`},
		{`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}`, ``, `"notifications/progress"`, `{"progress":1}`, ``, ``},
		{`{"\u0069d":3,"method":"ping"}`, `3`, `"ping"`, ``, ``, ``},
	} {
		m, err := Parse([]byte(tc.line))
		if err != nil {
			t.Fatalf("Parse(%s): %v", tc.line, err)
		}
		for _, f := range []struct{ name, got, want string }{
			{"id", string(m.ID), tc.id}, {"method", string(m.Method), tc.method}, {"params", string(m.Params), tc.params},
			{"result", string(m.Result), tc.result}, {"error", string(m.Error), tc.errStr},
		} {
			if f.got != f.want {
				t.Errorf("Parse(%s).%s = %s, want %s", tc.line, f.name, f.got, f.want)
			}
		}
	}
	if m, _ := Parse([]byte(`{"method":"a\/b","id":null}`)); String(m.Method) != "a/b" || !m.IsNotification() {
		t.Errorf("escaped method: %q, notification %v", String(m.Method), m.IsNotification())
	}
}

func TestParseRefuses(t *testing.T) {
	for _, tc := range []struct {
		line string
		want error
	}{
		{`[{"id":1}]`, ErrNotObject},
		{`"id"`, ErrNotObject},
		{`{"id":1,"result":{"a":tru}}`, ErrSyntax},
		{`{"id":1,"result":"a` + "\x00" + `"}`, ErrSyntax},
		{`{"id":1} trailing`, ErrSyntax},
		{strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1), ErrSyntax},
	} {
		if _, err := Parse([]byte(tc.line)); !errors.Is(err, tc.want) {
			t.Errorf("Parse(%.60s) = %v, want %v", tc.line, err, tc.want)
		}
	}
}

// Walk without validation (on bytes known valid) finds the same members
// as with it, escaped quotes and backslashes included.
func TestWalkTrustedAgrees(t *testing.T) {
	in := `{"name":"e\\\"cho\\","arguments":{"s":"a\\\\\"}{","n":[1,{"x":"]"}]},"_meta":{"progressToken":"t"},"task":null}`
	var with, without []string
	if err := Walk([]byte(in), true, func(k, v []byte) { with = append(with, string(k)+"="+string(v)) }); err != nil {
		t.Fatal(err)
	}
	if err := Walk([]byte(in), false, func(k, v []byte) { without = append(without, string(k)+"="+string(v)) }); err != nil {
		t.Fatal(err)
	}
	if strings.Join(with, "\n") != strings.Join(without, "\n") || len(with) != 4 {
		t.Fatalf("validated:\n%s\ntrusted:\n%s", strings.Join(with, "\n"), strings.Join(without, "\n"))
	}
}

func FuzzValid(f *testing.F) {
	for _, in := range validityCorpus {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := Valid(b), json.Valid(b); got != want {
			t.Fatalf("Valid(%q) = %v, json.Valid says %v", b, got, want)
		}
		m, err := Parse(b)
		var ref struct {
			ID     json.RawMessage `json:"id"`
			Result json.RawMessage `json:"result"`
		}
		if err == nil {
			if json.Unmarshal(b, &ref) != nil {
				t.Fatalf("Parse accepted %q, encoding/json did not", b)
			}
			if string(ref.ID) != string(m.ID) && !(ref.ID == nil && string(m.ID) == "null") {
				t.Fatalf("id %q vs encoding/json %q in %q", m.ID, ref.ID, b)
			}
		}
	})
}

func BenchmarkParse5MB(b *testing.B) {
	line := []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"` + strings.Repeat("x", 5<<20) + `"}]}}`)
	b.SetBytes(int64(len(line)))
	for b.Loop() {
		if _, err := Parse(line); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkJSONValid5MB(b *testing.B) {
	line := []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"` + strings.Repeat("x", 5<<20) + `"}]}}`)
	b.SetBytes(int64(len(line)))
	for b.Loop() {
		if !json.Valid(line) {
			b.Fatal("invalid")
		}
	}
}

// Valid (a test helper: the scanner on any value) reports whether b is one valid JSON value, like json.Valid.
func Valid(b []byte) bool {
	s := scanner{b: b, validate: true}
	i := s.ws(0)
	end, err := s.value(i, 0)
	return err == nil && s.ws(end) == len(b)
}
