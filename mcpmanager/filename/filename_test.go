package filename_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/filename"
)

// TestCheck: every name another system would misread is refused, with
// why; ordinary names, dotfiles and non-Latin ones pass.
func TestCheck(t *testing.T) {
	for _, c := range []struct{ name, why string }{
		{"report.csv", ""},
		{"Q4 report (final).csv", ""},
		{".env", ""},
		{"résumé – 東京.pdf", ""},
		{"console.log", ""},
		{"COM10", ""},
		{"LPT", ""},
		{"CONIN", ""},
		{strings.Repeat("a", filename.MaxBytes), ""},
		{"", "empty"},
		{".", "names a folder"},
		{"..", "names a folder"},
		{strings.Repeat("a", filename.MaxBytes+1), "bytes long"},
		{"a\xffb", "UTF-8"},
		{"a/b", "path separator"},
		{`a\b`, "path separator"},
		{"a\x00b", "control or invisible"},
		{"a\x1b[2Kb", "control or invisible"},
		{"a\u0085b", "control or invisible"},
		{"a\u009bb", "control or invisible"},
		{"invoice\u202etxt.exe", "control or invisible"},
		{"a\u200eb", "control or invisible"},
		{"a\u200fb", "control or invisible"},
		{"a\u2066b\u2069", "control or invisible"},
		{"a\u200bb", "control or invisible"},
		{"a\ufeffb", "control or invisible"},
		{"a\U000E0041b", "control or invisible"},
		{"a\u2028b", "control or invisible"},
		{"a:b", "Windows refuses"},
		{"a*b", "Windows refuses"},
		{"a?b", "Windows refuses"},
		{`a"b`, "Windows refuses"},
		{"a<b>", "Windows refuses"},
		{"a|b", "Windows refuses"},
		{"name.", "dot or a space"},
		{"name ", "dot or a space"},
		{"CON", "device name"},
		{"con", "device name"},
		{"Con.txt", "device name"},
		{"con .txt", "device name"},
		{"PRN", "device name"},
		{"aux.tar.gz", "device name"},
		{"NUL", "device name"},
		{"COM0", "device name"},
		{"COM1", "device name"},
		{"com9.log", "device name"},
		{"LPT1", "device name"},
		{"lpt9", "device name"},
		{"COM¹", "device name"},
		{"COM²", "device name"},
		{"com³.txt", "device name"},
		{"LPT¹", "device name"},
		{"LPT²", "device name"},
		{"LPT³", "device name"},
		{"CONIN$", "device name"},
		{"conout$", "device name"},
		{"CONOUT$.txt", "device name"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := filename.Check(c.name)
			switch {
			case c.why == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case c.why != "" && (!errors.Is(err, filename.ErrUnsafe) || !strings.Contains(err.Error(), c.why)):
				t.Fatalf("Check = %v, want ErrUnsafe saying %q", err, c.why)
			}
		})
	}
}

// TestSanitize: what Check refuses is dropped or changed, and what is
// left passes Check.
func TestSanitize(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"report.csv", "report.csv"},
		{"a/b\\c", "abc"},
		{"invoice\u202etxt.exe", "invoicetxt.exe"},
		{"a\x1b[2K\u200bb", "a[2Kb"},
		{"  two   words \t here  ", "two words here"},
		{"Q4: final?.csv", "Q4 final.csv"},
		{"name. . .", "name"},
		{"CON", "_CON"},
		{"con .txt", "_con .txt"},
		{"COM¹", "_COM¹"},
		{"lpt³.log", "_lpt³.log"},
		{"CONIN$", "_CONIN$"},
		{"CONOUT$", "_CONOUT$"},
		{"con.", "_con"},
		{"..", ""},
		{".", ""},
		{"\u202e\x00", ""},
		{strings.Repeat("é", filename.MaxBytes), strings.Repeat("é", filename.MaxBytes/2)},
	} {
		got := filename.Sanitize(c.in)
		if got != c.want {
			t.Errorf("Sanitize(%q) = %q, want %q", c.in, got, c.want)
		}
		if got != "" {
			if err := filename.Check(got); err != nil {
				t.Errorf("Sanitize(%q) = %q, which Check refuses: %v", c.in, got, err)
			}
		}
	}
}
