package chunk

import (
	"fmt"
	"strings"
	"testing"
)

// span is what a test expects of a chunk.
type span struct {
	from, to int
	section  string
}

func spans(cs []Chunk) []span {
	out := make([]span, len(cs))
	for i, c := range cs {
		out[i] = span{c.FromLine, c.ToLine, c.Section}
	}
	return out
}

func TestSplit(t *testing.T) {
	para := func(word string, n int) string { // n lines of ~40 bytes
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "%s line %02d of the paragraph text here.\n", word, i)
		}
		return b.String()
	}
	cases := []struct {
		name  string
		text  string
		style Style
		opts  Options
		want  []span
	}{
		{
			name:  "markdown headings start chunks and carry their trail",
			style: Markdown,
			text:  "# Guide\nintro\n## Install\n### Linux\nunpack it\n## Use\nrun it\n",
			want:  []span{{1, 2, "Guide"}, {3, 5, "Guide > Install > Linux"}, {6, 7, "Guide > Use"}},
		},
		{
			name:  "fenced code is not a heading; setext is",
			style: Markdown,
			text:  "Title\n=====\n\n```sh\n# not a heading\n```\n\nSub\n---\ntext\n",
			want:  []span{{1, 7, "Title"}, {8, 10, "Title > Sub"}},
		},
		{
			name:  "a deeper heading after a shallower one resets the trail",
			style: Markdown,
			text:  "## A\na\n#### Deep\nd\n# Top\nt\n",
			want:  []span{{1, 2, "A"}, {3, 4, "A > Deep"}, {5, 6, "Top"}},
		},
		{
			name:  "long plain text is cut at a blank line with overlap",
			style: Plain,
			opts:  Options{Size: 400, Overlap: 100},
			text:  para("alpha", 6) + "\n" + para("beta", 6) + "\n" + para("gamma", 6),
			// 6 lines of 42 bytes = 252; the cut is the blank line 7 or 14,
			// and the next chunk repeats it and the two lines before (<= 100 bytes).
			want: []span{{1, 7, ""}, {5, 14, ""}, {12, 20, ""}},
		},
		{
			name:  "no overlap when disabled",
			style: Plain,
			opts:  Options{Size: 400, Overlap: -1},
			text:  para("alpha", 6) + "\n" + para("beta", 6) + "\n" + para("gamma", 6),
			want:  []span{{1, 7, ""}, {8, 14, ""}, {15, 20, ""}},
		},
		{
			name:  "csv chunks carry the header row",
			style: Table,
			opts:  Options{Size: 100, Overlap: -1},
			text:  "name,city\n" + strings.Repeat("someone with a long name,somewhere\n", 5),
			want:  []span{{1, 4, "name,city"}, {5, 6, "name,city"}},
		},
		{
			name:  "code is cut before a declaration and its doc comment",
			style: Code,
			opts:  Options{Size: 60, Overlap: -1},
			text:  "package p\n\n// A does a.\nfunc A() {\n\tx := 1\n\t_ = x\n}\n\n// B does b.\nfunc B() {\n\ty := 2\n\t_ = y\n}\n",
			want:  []span{{1, 8, "package p"}, {9, 13, "func B()"}},
		},
		{
			name:  "one huge line is one chunk",
			style: Plain,
			opts:  Options{Size: 50},
			text:  "short\n" + strings.Repeat("x", 500) + "\nend\n",
			want:  []span{{1, 2, ""}, {3, 3, ""}},
		},
		{
			name:  "blank-only text has no chunks",
			style: Plain,
			text:  "\n\n  \n",
			want:  []span{},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Split(c.text, c.style, c.opts)
			if fmt.Sprint(spans(got)) != fmt.Sprint(c.want) {
				t.Fatalf("spans = %v\nwant    %v", spans(got), c.want)
			}
			checkInvariants(t, c.text, got)
		})
	}
}

// checkInvariants: chunks are whole lines in order, their text is exactly
// those lines, and every non-blank line is in some chunk.
func checkInvariants(t *testing.T, text string, cs []Chunk) {
	t.Helper()
	lines := Lines(text)
	covered := make([]bool, len(lines))
	prev := 0
	for i, c := range cs {
		if c.Index != i || c.FromLine <= prev || c.ToLine < c.FromLine || c.ToLine > len(lines) {
			t.Fatalf("chunk %d = %+v after from %d", i, c, prev)
		}
		if want := strings.Join(lines[c.FromLine-1:c.ToLine], "\n"); c.Text != want {
			t.Fatalf("chunk %d text %q, want %q", i, c.Text, want)
		}
		for l := c.FromLine; l <= c.ToLine; l++ {
			covered[l-1] = true
		}
		prev = c.FromLine
	}
	for i, ok := range covered {
		if !ok && strings.TrimSpace(lines[i]) != "" {
			t.Fatalf("line %d %q is in no chunk", i+1, lines[i])
		}
	}
}

func TestSplitInvariantsOnMixedText(t *testing.T) {
	var b strings.Builder
	for i := range 300 {
		switch {
		case i%37 == 0:
			fmt.Fprintf(&b, "## Section %d\n", i)
		case i%11 == 0:
			b.WriteString("\n")
		default:
			b.WriteString(strings.Repeat("word ", i%23) + "\n")
		}
	}
	for _, style := range []Style{Plain, Markdown, Table, Code} {
		for _, o := range []Options{{}, {Size: 64, Overlap: 32}, {Size: 300, Overlap: -1}} {
			checkInvariants(t, b.String(), Split(b.String(), style, o))
		}
	}
}

func TestLines(t *testing.T) {
	for in, want := range map[string]int{"": 0, "a": 1, "a\n": 1, "a\n\n": 2, "a\nb": 2} {
		if got := len(Lines(in)); got != want {
			t.Errorf("Lines(%q) has %d lines, want %d", in, got, want)
		}
	}
}

func ExampleSplit() {
	text := "# Guide\nWelcome.\n## Install\nRun the installer.\n"
	for _, c := range Split(text, Markdown, Options{}) {
		fmt.Printf("%d-%d %s\n", c.FromLine, c.ToLine, c.Section)
	}
	// Output:
	// 1-2 Guide
	// 3-4 Guide > Install
}
