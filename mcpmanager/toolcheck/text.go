package toolcheck

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// CheckText returns what looks like hidden instructions in s, a text the
// model reads that is not a tool definition (what an MCP App asks the
// model to know: ui/update-model-context); where names s in the findings.
// The same rules as Check's apply, not its length rule: the caller bounds
// such text itself.
func CheckText(where, s string) []Finding {
	return checkText(text{where, s})
}

// CheckSkill returns what looks like hidden instructions in a skill's text
// file (SKILL.md, a reference, a script). A skill is written to instruct
// the model, so what is ordinary there is not flagged, and only there (a
// tool's description is checked as before):
//   - a UTF-8 BOM that starts the file (editors write one; the parser
//     drops it);
//   - a zero-width joiner between emoji (🧑‍💻, 👨‍👩‍👧) and the tag
//     characters of a subdivision flag (🏴 and a short tag sequence
//     ended by a cancel tag);
//   - a tag such as <instructions> or List<Prompt> inside a fenced code
//     block or `inline code`: an example the skill shows, not a message
//     to the model (the other rules still read the code, so "ignore
//     previous instructions" in a code block is found);
//   - "do not show the user X until …" and "never tell users to add …"
//     (when to tell, and what to tell users to do, are not secrecy), and
//     "before asking the user" (an order of steps).
func CheckSkill(where, s string) []Finding {
	return checkIn(text{where, strings.TrimPrefix(s, "\ufeff")}, true)
}

// span is a byte range [start, end) of a text.
type span [2]int

// fence opens or closes a fenced code block: up to three spaces, then
// three or more backticks or tildes.
var fence = regexp.MustCompile("^ {0,3}(`{3,}|~{3,})")

// codeSpans are the fenced code blocks (an unclosed one runs to the end,
// as CommonMark reads it) and the `inline code` of a Markdown text.
func codeSpans(s string) []span {
	var out []span
	open, marker, start := false, "", 0
	pos := 0
	prose := 0 // where the text outside the last block starts
	for _, line := range strings.SplitAfter(s, "\n") {
		m := fence.FindStringSubmatch(line)
		switch {
		case !open && m != nil:
			out = append(out, inlineCode(s[prose:pos], prose)...)
			open, marker, start = true, m[1], pos
		case open && m != nil && m[1][0] == marker[0] && len(m[1]) >= len(marker) && strings.TrimSpace(line[len(m[0]):]) == "":
			open = false
			out = append(out, span{start, pos + len(line)})
			prose = pos + len(line)
		}
		pos += len(line)
	}
	if open {
		return append(out, span{start, len(s)})
	}
	return append(out, inlineCode(s[prose:], prose)...)
}

// inlineCode are the code spans of prose (a run of backticks to the next
// run of as many, within a paragraph), offset by base.
func inlineCode(prose string, base int) []span {
	var out []span
	for i := 0; i < len(prose); {
		if prose[i] != '`' {
			i++
			continue
		}
		n := len(prose[i:]) - len(strings.TrimLeft(prose[i:], "`"))
		end := closingTicks(prose[i+n:], n)
		if end < 0 {
			i += n
			continue
		}
		out = append(out, span{base + i, base + i + n + end + n})
		i += n + end + n
	}
	return out
}

// closingTicks is where a run of exactly n backticks starts in s, before a
// blank line ends the paragraph (-1: none).
func closingTicks(s string, n int) int {
	if p := strings.Index(s, "\n\n"); p >= 0 {
		s = s[:p]
	}
	for i := 0; i < len(s); {
		if s[i] != '`' {
			i++
			continue
		}
		run := len(s[i:]) - len(strings.TrimLeft(s[i:], "`"))
		if run == n {
			return i
		}
		i += run
	}
	return -1
}

// outsideCode: a tag counts in a skill's text unless it is code.
func outsideCode(_ string, loc []int, code []span) bool {
	for _, c := range code {
		if loc[0] >= c[0] && loc[0] < c[1] {
			return false
		}
	}
	return true
}

// sequencing is what follows "do not show the user" when it says when to
// show it or what to tell users to do.
var (
	until   = regexp.MustCompile(`(?i)\b(until|unless)\b`)
	toDo    = regexp.MustCompile(`(?i)^\s+to\s+[a-z]`)
	sentEnd = regexp.MustCompile(`[.!?\n]`)
)

// notSequencing: "do not tell the user" counts in a skill's text unless
// its sentence goes on to say until when, or it is "tell users to do X".
func notSequencing(s string, loc []int, _ []span) bool {
	rest := s[loc[1]:]
	if e := sentEnd.FindStringIndex(rest); e != nil {
		rest = rest[:e[0]]
	}
	return !until.MatchString(rest) && !toDo.MatchString(rest)
}

// notBefore: "before asking the user" is an order of steps; "without
// telling the user" and "keep it from the user" still count.
func notBefore(s string, loc []int, _ []span) bool {
	return !strings.HasPrefix(strings.ToLower(s[loc[0]:loc[1]]), "before")
}

// firstInvisible is where the first invisible character of s is, which
// one, and how many s holds. In a skill's text an emoji's zero-width
// joiner and a subdivision flag's tags are not counted.
func firstInvisible(s string, skill bool) (at int, first rune, n int) {
	at = -1
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if skill {
			if r == 0x1F3F4 {
				if t := flagTags(s[i+size:]); t > 0 {
					i += size + t
					continue
				}
			}
			if r == 0x200D && emojiBefore(s[:i]) && emojiAfter(s[i+size:]) {
				i += size
				continue
			}
		}
		if invisible(r) {
			if n == 0 {
				at, first = i, r
			}
			n++
		}
		i += size
	}
	return at, first, n
}

// emoji reports a pictograph or symbol an emoji sequence is made of (the
// blocks of pictographs, dingbats, arrows and technical symbols, the skin
// tone modifiers among them).
func emoji(r rune) bool {
	return r >= 0x1F000 && r <= 0x1FAFF || r >= 0x2600 && r <= 0x27BF || r >= 0x2300 && r <= 0x23FF ||
		r >= 0x2B00 && r <= 0x2BFF || r >= 0x2190 && r <= 0x21FF || r == 0x00A9 || r == 0x00AE || r == 0x203C || r == 0x2049
}

// emojiBefore reports whether s ends in an emoji (or an emoji and its
// presentation selector, U+FE0F).
func emojiBefore(s string) bool {
	r, size := utf8.DecodeLastRuneInString(s)
	if r == 0xFE0F {
		r, _ = utf8.DecodeLastRuneInString(s[:len(s)-size])
	}
	return emoji(r)
}

// emojiAfter reports whether s starts with an emoji.
func emojiAfter(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return emoji(r)
}

// flagTags is the length in bytes of the tag sequence of a subdivision
// flag at the start of s (🏴 then two to seven tag letters or digits and
// a cancel tag, as 🏴󠁧󠁢󠁳󠁣󠁴󠁿), or 0: a longer run of tags could spell a
// hidden message.
func flagTags(s string) int {
	n := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == 0xE007F && n >= 2:
			return i + size
		case n < 7 && (r >= 0xE0030 && r <= 0xE0039 || r >= 0xE0061 && r <= 0xE007A):
			n++
			i += size
		default:
			return 0
		}
	}
	return 0
}
