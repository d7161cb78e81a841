package plain_test

import (
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/switchboard-app/switchboard/mcpmanager/plain"
)

// TestShow: what the person approving a call reads. Every character that
// does not show as itself is written out, long blank runs are counted, and
// a text too long to show whole keeps its tail in sight with what was left
// out counted; nothing is dropped silently.
func TestShow(t *testing.T) {
	pad := strings.Repeat(" ", 600)
	cases := []struct {
		name, in string
		max      int
		want     string
		hidden   int
	}{
		{"plain text as it is", `{"command":"ls -la"}`, 100, `{"command":"ls -la"}`, 0},
		{"a newline, a tab and a few spaces stay", "a\n\tb    c", 100, "a\n\tb    c", 0},
		{"a padded command's tail in sight", `{"command":"echo harmless` + pad + `; touch PWNED"}`, 2000,
			`{"command":"echo harmless[600 spaces]; touch PWNED"}`, 0},
		{"tabs and mixed blanks counted", "a" + strings.Repeat("\t", 40) + "b" + strings.Repeat(" \t", 20) + "c", 100,
			"a[40 tabs]b[40 spaces and tabs]c", 0},
		{"32 spaces stay, 33 are counted", "a" + strings.Repeat(" ", 32) + "b" + strings.Repeat(" ", 33) + "c", 100,
			"a" + strings.Repeat(" ", 32) + "b[33 spaces]c", 0},
		{"many line breaks counted", "ls" + strings.Repeat("\n", 200) + "rm -rf ~", 100, "ls[200 line breaks]rm -rf ~", 0},
		{"isolates (Trojan Source)", "ls \u2067;touch PWNED_T3\u2069 # list files", 100, `ls \u2067;touch PWNED_T3\u2069 # list files`, 0},
		{"an override", "echo safe # \u202e; touch PWNED_BIDI \u202c done", 100, `echo safe # \u202E; touch PWNED_BIDI \u202C done`, 0},
		{"embeddings, marks and the Arabic letter mark", "\u202a\u202b\u202d\u200e\u200f\u061c", 100, `\u202A\u202B\u202D\u200E\u200F\u061C`, 0},
		{"zero-width characters", "ec\u200bho \u200c\u200d\u2060\ufeff\u00ad", 100, `ec\u200Bho \u200C\u200D\u2060\uFEFF\u00AD`, 0},
		{"Hangul fillers", "a\u115fb\u1160c\u3164d\uffa0e", 100, `a\u115Fb\u1160c\u3164d\uFFA0e`, 0},
		{"variation selectors and the grapheme joiner", "a\ufe0fb\U000e0100c\u034fd", 100, `a\uFE0Fb\U000E0100c\u034Fd`, 0},
		{"tag characters", "hi\U000e0041\U000e007f", 100, `hi\U000E0041\U000E007F`, 0},
		{"controls: CR, ESC, DEL, C1, NUL", "a\rb\x1b[2Jc\x7fd\u009be\x00", 100, `a\rb\u001B[2Jc\u007Fd\u009Be\u0000`, 0},
		{"spaces that are not U+0020, separators, the braille blank", "a\u00a0b\u3000c\u2028d\u2029e\u2800f", 100, `a\u00A0b\u3000c\u2028d\u2029e\u2800f`, 0},
		{"private use and unassigned", "\ue000\U0010fffd\u0378", 100, `\uE000\U0010FFFD\u0378`, 0},
		{"a byte that is not UTF-8", "a\xffb\x9b", 100, `a\xFFb\x9B`, 0},
		{"a run of one invisible character counted", "a" + strings.Repeat("\u200b", 600) + "b", 100, `a[600 × \u200B]b`, 0},
		{"eight of one are written each", "a" + strings.Repeat("\u200b", 8), 100, "a" + strings.Repeat(`\u200B`, 8), 0},
		{"visible characters of other scripts stay", "héllo, 世界 — ok ✓ 🙂", 100, "héllo, 世界 — ok ✓ 🙂", 0},
		{"too long: head and tail, the middle counted", strings.Repeat("a", 50) + strings.Repeat("b", 1000) + "; rm -rf ~", 40,
			strings.Repeat("a", 20) + "[… 1,020 characters not shown …]" + strings.Repeat("b", 10) + "; rm -rf ~", 1020},
		{"no bound", "a\u200bb", math.MaxInt, `a\u200Bb`, 0},
		{"too long after writing out", strings.Repeat("\u200b\u200c", 20), 30,
			`\u200B\u200C[… 36 characters not shown …]\u200B\u200C`, 36},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := plain.Show(c.in, c.max)
			if got.Text != c.want || got.Hidden != c.hidden {
				t.Errorf("Show(%q, %d) = %q (hidden %d)\nwant            %q (hidden %d)", c.in, c.max, got.Text, got.Hidden, c.want, c.hidden)
			}
			if got.Bytes != len(c.in) {
				t.Errorf("Bytes = %d, want %d", got.Bytes, len(c.in))
			}
			if (got.Note() == "") != (c.hidden == 0) {
				t.Errorf("Note() = %q with %d hidden", got.Note(), got.Hidden)
			}
			for _, r := range got.Text {
				if plain.Invisible(r) {
					t.Errorf("the shown text still holds %U: %q", r, got.Text)
				}
			}
		})
	}
}

// TestShowBig: a 20 MB argument is shown in about max characters, its
// tail included, and the question says how much is not shown.
func TestShowBig(t *testing.T) {
	big := `{"text":"` + strings.Repeat("x", 20<<20) + `; touch PWNED"}`
	got := plain.Show(big, 2000)
	if n := utf8.RuneCountInString(got.Text); n > 2000+60 {
		t.Errorf("shown %d characters, want about 2000", n)
	}
	if !strings.HasSuffix(got.Text, `; touch PWNED"}`) || !strings.HasPrefix(got.Text, `{"text":"xxx`) {
		t.Errorf("head or tail missing: %.80q … %q", got.Text, got.Text[len(got.Text)-80:])
	}
	if want := "20,969,544 characters in the middle (of 20.0 MB in all) are not shown here; allowing it allows them too."; got.Note() != want {
		t.Errorf("Note() = %q\nwant     %q", got.Note(), want)
	}
}
