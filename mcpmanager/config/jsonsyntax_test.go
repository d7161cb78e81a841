package config

import (
	"errors"
	"strings"
	"testing"
)

// A JSON mistake is told in a sentence that says what is missing or wrong
// and where, as a person pasting an entry would fix it; never encoding/json's
// "invalid character … looking for beginning of value".
func TestSyntaxSentences(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"value missing after a name", `{"command": "npx", "args": ["-y", "x"], "env": {"A": 1, "B": }}`,
			`1:62: a value is missing after "B":`},
		{"value missing before a comma", `{"a": , "b": 1}`, `1:7: a value is missing after "a":`},
		{"value missing in a list", `[1, , 2]`, `1:5: a value is missing before ','`},
		{"a bare word as a value", `{"command": npx}`, `1:13: npx is not a JSON value: put text in double quotes ("npx"); true, false and null are written in lower case`},
		{"True in capitals", `{"disabled": True}`, `1:14: True is not a JSON value: put text in double quotes ("True"); true, false and null are written in lower case`},
		{"single quotes on a value", `{"command": 'npx'}`, `1:13: text takes double quotes ("…"), not single quotes`},
		{"a character that starts nothing", `{"a": #}`, `1:7: '#' cannot start a value: expected text in double quotes, a number, {…}, […], true, false or null`},
		{"a name without quotes", `{command: "npx"}`, `1:2: the name command needs double quotes: "command"`},
		{"a name in single quotes", `{'command': "npx"}`, `1:2: a name takes double quotes ("name"), not single quotes`},
		{"something else where a name belongs", `{: 1}`, `1:2: expected a name in double quotes ("name": value), found ':'`},
		{"colon missing", `{"command" "npx"}`, `1:12: a colon (:) is missing after the name "command"; write "name": value`},
		{"comma missing between members", "{\n  \"command\": \"npx\"\n  \"args\": []\n}", `3:3: a comma (,) is missing before "args": put one after the value before it`},
		{"wrong closing bracket of an object", `{"a": 1]`, `1:8: expected a comma (,) or the } that closes the object, found ']'`},
		{"comma missing in a list", `["-y" "x"]`, `1:7: a comma (,) is missing between two items of the list, before "x"`},
		{"wrong closing bracket of a list", `["-y"}`, `1:6: expected a comma (,) or the ] that closes the list, found '}'`},
		{"text after the end", "{\"a\": 1}\n}", `2:1: there is more text after the end of the JSON, starting with '}': remove it, or look for a } or ] that closes too early`},
		{"a line break inside a string", "{\"a\": \"x\ny\"}", `1:9: a string holds a line break or a tab as typed: write it as \n or \t, or add the " that ends the string`},
		{"a Windows path", `{"cwd": "C:\Users"}`, `1:12: \U is not an escape JSON knows: write \\ for a backslash (a Windows path is "C:\\Users\\…")`},
		{"a short unicode escape", `{"a": "\u00g0"}`, `1:12: \u must be followed by four hexadecimal digits (\u00e9)`},
		{"a malformed number", `{"a": 1.x}`, `1:9: the number before x is not written as JSON: digits with an optional . and exponent, no leading + or 0`},
		{"a misspelt literal", `{"a": tru}`, `1:7: tru is not a JSON value: put text in double quotes ("tru"); true, false and null are written in lower case`},
		{"a long name is cut", `{"a_very_long_variable_name_indeed_yes": }`, `1:42: a value is missing after "a_very_long_variable_nam…":`},
		{"an escaped quote inside the name", `{"a\"b": }`, `1:10: a value is missing after "a\"b":`},
		{"comments keep positions", "{\n  // the server\n  \"a\": }", `3:8: a value is missing after "a":`},
		{"end of input is unchanged", `{"a": `, `1:7: unexpected end of file; a closing } or ] or a value is missing`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s Server
			err := s.UnmarshalJSON([]byte(tt.in))
			if !errors.Is(err, ErrSyntax) {
				t.Fatalf("err = %v, want ErrSyntax", err)
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
			if strings.Contains(err.Error(), "invalid character") {
				t.Errorf("encoding/json's wording came through: %s", err)
			}
		})
	}
}

// A message syntaxSentence does not know, or an offset outside the text,
// comes back as it was.
func TestSyntaxSentenceUnknown(t *testing.T) {
	for _, tt := range []struct {
		src, raw string
		off      int
	}{
		{`{}`, "some other failure", 0},
		{`{}`, "invalid character '}' looking for beginning of value", 5},
		{`{}`, "invalid character 'x'", 0},
		{`{}`, "invalid character '}' somewhere new", 1},
	} {
		if _, got := syntaxSentence([]byte(tt.src), tt.off, tt.raw); got != tt.raw {
			t.Errorf("syntaxSentence(%q, %d, %q) = %q, want it unchanged", tt.src, tt.off, tt.raw, got)
		}
	}
}
