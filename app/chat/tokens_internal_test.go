package chat

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTextTokens(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want int
	}{
		{"", 0},
		{"abcd", 1},
		{"abcde", 2},
		{strings.Repeat("x", 400), 100},
		{"日本語のテキスト", 8},   // a token a character
		{"naïve café", 4}, // 8 ASCII bytes → 2, plus 2 accented letters
	} {
		if got := textTokens(tc.s); got != tc.want {
			t.Errorf("textTokens(%q) = %d, want %d", tc.s, got, tc.want)
		}
	}
}

func TestCalibration(t *testing.T) {
	var c calibration
	if c.apply(1000) != 1400 {
		t.Fatalf("an uncalibrated estimate is %d, want the conservative 1400", c.apply(1000))
	}
	c.learn(1000, 0) // a provider that reports nothing
	if c.scale != 0 {
		t.Fatal("a report of 0 calibrated")
	}
	c.learn(1000, 1300)
	if got := c.apply(1000); got != 1300 {
		t.Fatalf("after one report: %d, want 1300", got)
	}
	c.learn(1000, 1100) // a lower report: halfway to it
	if got := c.apply(1000); got != 1200 {
		t.Fatalf("after two reports: %d, want 1200", got)
	}
	c.learn(1000, 1500) // a higher one: at once (an estimate that runs short overfills the window)
	if got := c.apply(1000); got != 1500 {
		t.Fatalf("after a higher report: %d, want 1500", got)
	}
	c.learn(10, 100_000) // absurd: bounded
	if c.scale > maxScale {
		t.Fatalf("scale %v over its bound", c.scale)
	}
}

func TestTruncateHeadCountsTokens(t *testing.T) {
	cjk := strings.Repeat("漢", 4000)
	head := truncateHead(cjk, 4000) // 4,000 characters but 1,000 tokens' worth
	if n := utf8.RuneCountInString(head); n > 1001 {
		t.Fatalf("kept %d CJK characters of a 4,000-character budget; a token each, it should be ~1,000", n)
	}
	ascii := strings.Repeat("a", 5000)
	if n := len(truncateHead(ascii, 4000)); n != 4000 {
		t.Fatalf("kept %d ASCII characters, want 4000", n)
	}
}

// TestResultBudgetCountsTokens: a result budget of characters holds CJK
// text to the tokens that many English characters take: 4,000 CJK
// characters (about 4,000 tokens) are over a 4,000-character budget
// (about 1,000 tokens), 4,000 ASCII characters are not.
func TestResultBudgetCountsTokens(t *testing.T) {
	if fitsBudget(strings.Repeat("漢", 4000), 4000) {
		t.Fatal("4,000 CJK characters fit a 4,000-character budget")
	}
	if !fitsBudget(strings.Repeat("a", 4000), 4000) || fitsBudget(strings.Repeat("a", 4001), 4000) {
		t.Fatal("ASCII is not counted by its characters")
	}
	got := truncate(strings.Repeat("漢字かな\n", 1000), 4000)
	if n := textTokens(got); n > 1100 {
		t.Fatalf("truncated CJK text takes %d tokens of a ~1,000-token budget", n)
	}
}
