package codemode

import (
	"bufio"
	"strings"
	"testing"
)

// TestALineTooLongNamesItsLimit: a line past its limit is the limit of
// what it carries: a call's the arguments limit, any other the output
// limit.
func TestALineTooLongNamesItsLimit(t *testing.T) {
	lim := Limits{MaxOutputKB: 256, MaxArgsKB: 128}.withDefaults()
	big := strings.Repeat("x", 512<<10)
	cases := []struct{ line, want string }{
		{`{"type":"call","call":{"server":"s","tool":"t","args":{"s":"` + big + `"}}}`, LimitArgs},
		{`{"type":"log","text":"` + big + `"}`, LimitOutput},
	}
	for _, c := range cases {
		ch := &child{out: bufio.NewReaderSize(strings.NewReader(c.line+"\n"), 64<<10), lim: lim}
		_, err := ch.read()
		le, ok := err.(*LimitError)
		if !ok || le.Limit != c.want {
			t.Errorf("%.30s…: %v, want the %s limit", c.line, err, c.want)
		}
	}
}
