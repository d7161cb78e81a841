// Package chunk splits a document into overlapping, line-aligned chunks for
// full-text search. Each chunk is a run of whole lines, so a hit maps back
// to a line range of the stored text. Markdown headings start a new chunk
// and are carried as the chunk's Section ("Install > Linux"), so a heading
// stays with its text; long sections are cut at blank lines (or, in code,
// before top-level declarations) and consecutive pieces overlap by a few
// lines so a sentence on a cut is whole in one of them.
//
//	for _, c := range chunk.Split(text, chunk.Markdown, chunk.Options{}) {
//		fmt.Println(c.FromLine, c.ToLine, c.Section)
//	}
package chunk

import (
	"regexp"
	"strings"
)

// Style says how a text is structured.
type Style int

// Styles.
const (
	Plain    Style = iota // paragraphs separated by blank lines
	Markdown              // "#" headings (and setext) start sections; fenced code is not a heading
	Table                 // CSV: the first line (the header) is every chunk's section
	Code                  // top-level declarations are preferred cut points and name the section
)

// Defaults.
const (
	DefaultSize    = 1500 // bytes of text per chunk, roughly
	DefaultOverlap = 200  // bytes of the previous chunk repeated at the start of the next
)

// Options tune the split.
type Options struct {
	Size    int // 0: DefaultSize
	Overlap int // 0: DefaultOverlap; negative: none
}

// Chunk is a run of whole lines of the document.
type Chunk struct {
	Index    int    // 0-based position in the document
	FromLine int    // 1-based, inclusive
	ToLine   int    // 1-based, inclusive
	Section  string // heading trail, CSV header or declaration in effect at FromLine
	Text     string // lines FromLine..ToLine joined by "\n"
}

// Lines splits text into lines the way Split numbers them: a final newline
// does not start an extra line.
func Lines(text string) []string {
	text = strings.TrimSuffix(text, "\n")
	if text == "" {
		return nil
	}
	return strings.Split(text, "\n")
}

// mark is what Split knows of one line.
type mark struct {
	hard    bool   // a new section starts here: cut before it, no overlap across
	heading bool   // the line is (part of) a heading
	soft    bool   // a good place to cut before
	section string // section in effect at this line
}

// Split cuts text into chunks. Chunks made only of blank lines are dropped.
func Split(text string, style Style, o Options) []Chunk {
	if o.Size <= 0 {
		o.Size = DefaultSize
	}
	if o.Overlap == 0 {
		o.Overlap = DefaultOverlap
	}
	lines := Lines(text)
	marks := analyze(lines, style)
	var out []Chunk
	emit := func(from, to int) {
		body := strings.Join(lines[from:to+1], "\n")
		if strings.TrimSpace(body) == "" {
			return
		}
		// The section is that of the first line of text, so a chunk that
		// opens with "## Install" then "### Linux" is under Install > Linux.
		section := marks[from].section
		for k := from; k <= to; k++ {
			if !marks[k].heading && strings.TrimSpace(lines[k]) != "" {
				section = marks[k].section
				break
			}
		}
		out = append(out, Chunk{Index: len(out), FromLine: from + 1, ToLine: to + 1, Section: section, Text: body})
	}
	// headingsOnly reports whether lines from..to hold nothing but headings:
	// such a run is kept with the section that follows.
	headingsOnly := func(from, to int) bool {
		for k := from; k <= to; k++ {
			if !marks[k].heading && strings.TrimSpace(lines[k]) != "" {
				return false
			}
		}
		return true
	}
	start, size := 0, 0
	for i := 0; i < len(lines); i++ {
		if i > start && marks[i].hard && !headingsOnly(start, i-1) {
			emit(start, i-1)
			start, size = i, 0
		}
		size += len(lines[i]) + 1
		if size < o.Size {
			continue
		}
		end := cut(lines, marks, start, i, o.Size)
		emit(start, end)
		next := end + 1
		for back := 0; next-1 > start && o.Overlap > 0; {
			back += len(lines[next-1]) + 1
			if back > o.Overlap || marks[next].hard {
				break
			}
			next--
		}
		start, size = next, 0
		for j := next; j <= i; j++ {
			size += len(lines[j]) + 1
		}
	}
	if start < len(lines) {
		emit(start, len(lines)-1)
	}
	return out
}

// cut picks the last line of a chunk that runs from start to at most i:
// the latest blank line or line before a soft mark past half the size, else i.
func cut(lines []string, marks []mark, start, i, size int) int {
	pos := make([]int, i-start+2) // pos[k]: bytes in lines[start:start+k]
	for k := start; k <= i; k++ {
		pos[k-start+1] = pos[k-start] + len(lines[k]) + 1
	}
	for j := i; j > start; j-- {
		if pos[j-start+1] < size/2 {
			break
		}
		if strings.TrimSpace(lines[j]) == "" || (j+1 < len(marks) && marks[j+1].soft && j < i) {
			return j
		}
	}
	return i
}

var (
	atxHeading = regexp.MustCompile(`^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$`)
	setextH1   = regexp.MustCompile(`^ {0,3}=+[ \t]*$`)
	setextH2   = regexp.MustCompile(`^ {0,3}-+[ \t]*$`)
	fence      = regexp.MustCompile("^ {0,3}(```|~~~)")
	decl       = regexp.MustCompile(`^(?:export\s+|pub(?:\([a-z]+\))?\s+|public\s+|private\s+|protected\s+|static\s+|async\s+|abstract\s+|final\s+)*` +
		`(?:func|type|class|def|fn|impl|interface|struct|enum|trait|module|namespace|function|const|var|let|object|record|package|CREATE)\b`)
)

func analyze(lines []string, style Style) []mark {
	marks := make([]mark, len(lines)+1) // one past the end, so marks[i+1] is always valid
	switch style {
	case Markdown:
		var trail []string // trail[level-1] = heading text
		inFence := false
		for i := 0; i < len(lines); i++ {
			l := lines[i]
			if fence.MatchString(l) {
				inFence = !inFence
			}
			level, title := 0, ""
			if !inFence {
				if m := atxHeading.FindStringSubmatch(l); m != nil {
					level, title = len(m[1]), m[2]
				} else if i+1 < len(lines) && paragraphStart(lines, i) {
					if setextH1.MatchString(lines[i+1]) {
						level, title = 1, strings.TrimSpace(l)
					} else if setextH2.MatchString(lines[i+1]) {
						level, title = 2, strings.TrimSpace(l)
					}
				}
			}
			if level > 0 {
				marks[i].heading = true
				if !atxHeading.MatchString(l) {
					marks[i+1].heading = true // the setext underline
				}
				trail = append(trail[:min(len(trail), level-1)], make([]string, max(0, level-1-len(trail)))...)
				trail = append(trail[:level-1], title)
				marks[i].hard = true
			}
			marks[i].section = joinTrail(trail)
		}
	case Table:
		if len(lines) > 0 {
			for i := range lines {
				marks[i].section = lines[0]
			}
		}
	case Code:
		section := ""
		for i, l := range lines {
			if decl.MatchString(l) {
				section = strings.TrimSpace(strings.TrimRight(l, "{( \t"))
				if len(section) > 120 {
					section = section[:120]
				}
				marks[i].soft = true
				// A declaration's doc comment goes with it.
				for j := i - 1; j >= 0 && isComment(lines[j]); j-- {
					marks[j+1].soft = false
					marks[j].soft = true
					marks[j].section = section
				}
			}
			marks[i].section = section
		}
	}
	return marks
}

// paragraphStart reports whether line i could be a setext heading's text:
// not blank, after a blank line (or first), and not a list item or table row.
func paragraphStart(lines []string, i int) bool {
	t := strings.TrimSpace(lines[i])
	if t == "" || (i > 0 && strings.TrimSpace(lines[i-1]) != "") {
		return false
	}
	return !strings.HasPrefix(t, "- ") && !strings.HasPrefix(t, "* ") && !strings.HasPrefix(t, "+ ") && !strings.HasPrefix(t, "|")
}

func isComment(l string) bool {
	t := strings.TrimSpace(l)
	return t != "" && (strings.HasPrefix(t, "//") || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "/*") ||
		strings.HasPrefix(t, "*") || strings.HasPrefix(t, "--") || strings.HasPrefix(t, `"""`)) && l == strings.TrimLeft(l, " \t")
}

func joinTrail(trail []string) string {
	parts := make([]string, 0, len(trail))
	for _, t := range trail {
		if t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, " > ")
}
