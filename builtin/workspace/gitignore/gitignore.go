// Package gitignore matches slash-separated paths against .gitignore
// patterns, so the workspace's tree and search skip what git would: build
// output, dependencies, caches.
//
//	m := gitignore.Matcher{}.With(gitignore.Parse("", rootGitignore))
//	m = m.With(gitignore.Parse("web", webGitignore))   // web/.gitignore
//	if m.Ignored("web/dist", true) { ... }            // skip the directory
//
// Supported: comments, blank lines, trailing-space trimming, `\` escapes,
// `!` negation (the last matching pattern wins), a trailing `/` for
// directories only, patterns with a `/` anchored to the .gitignore's
// directory, `*`, `?`, `[a-z]`, `[!a-z]` and `**` (leading, trailing and
// between slashes). A pattern file applies only below its own directory.
//
// Like git, a walker must not descend into an ignored directory: a pattern
// cannot re-include a file whose parent directory is excluded, and Matcher
// does not check parents itself.
//
// Match applies one pattern with the same rules, for name globs such as
// search_files' pattern.
//
// Matcher values are immutable and safe for concurrent use.
package gitignore

import (
	"path"
	"strings"
)

// Pattern is one line of a .gitignore file.
type Pattern struct {
	base     string   // directory of the .gitignore, relative to the walk root ("" = root)
	segments []string // pattern split on "/", after anchoring
	anchored bool     // matched against the whole path below base, not just the name
	dirOnly  bool
	negate   bool
}

// Parse reads the patterns of a .gitignore file found in directory base
// (slash-separated, relative to the walk root; "" or "." for the root).
func Parse(base string, data []byte) []Pattern {
	base = cleanBase(base)
	var out []Pattern
	for line := range strings.SplitSeq(string(data), "\n") {
		line = strings.TrimSuffix(line, "\r")
		if p, ok := parseLine(base, line); ok {
			out = append(out, p)
		}
	}
	return out
}

func cleanBase(base string) string {
	base = strings.Trim(path.Clean("/"+base), "/")
	return base
}

func parseLine(base, line string) (Pattern, bool) {
	line = trimTrailingSpaces(line)
	if line == "" || strings.HasPrefix(line, "#") {
		return Pattern{}, false
	}
	p := Pattern{base: base}
	if strings.HasPrefix(line, "!") {
		p.negate = true
		line = line[1:]
	} else if strings.HasPrefix(line, `\!`) || strings.HasPrefix(line, `\#`) {
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") {
		p.dirOnly = true
		line = strings.TrimRight(line, "/")
	}
	if line == "" {
		return Pattern{}, false
	}
	// A slash at the start or in the middle anchors the pattern to base.
	if strings.Contains(line, "/") {
		p.anchored = true
		line = strings.TrimPrefix(line, "/")
	}
	p.segments = strings.Split(line, "/")
	for i, s := range p.segments {
		p.segments[i] = gitToPathMatch(s)
	}
	return p, true
}

// trimTrailingSpaces removes unescaped trailing spaces, as git does.
func trimTrailingSpaces(s string) string {
	for strings.HasSuffix(s, " ") && !strings.HasSuffix(s, `\ `) {
		s = s[:len(s)-1]
	}
	if strings.HasSuffix(s, `\ `) {
		s = s[:len(s)-2] + " "
	}
	return s
}

// gitToPathMatch turns git's "[!...]" into path.Match's "[^...]".
func gitToPathMatch(seg string) string {
	return strings.ReplaceAll(seg, "[!", "[^")
}

// match reports whether rel (slash-separated, relative to the walk root)
// matches p, ignoring negation.
func (p Pattern) match(rel string, isDir bool) bool {
	if p.dirOnly && !isDir {
		return false
	}
	if p.base != "" {
		if !strings.HasPrefix(rel, p.base+"/") {
			return false
		}
		rel = rel[len(p.base)+1:]
	}
	if !p.anchored {
		return segmentMatch(p.segments[0], path.Base(rel))
	}
	return matchSegments(p.segments, strings.Split(rel, "/"))
}

func segmentMatch(pattern, name string) bool {
	ok, err := path.Match(pattern, name)
	return err == nil && ok
}

// matchSegments matches path segments with "**" standing for any number
// (including zero) of whole segments.
func matchSegments(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			rest := pat[1:]
			if len(rest) == 0 {
				// Trailing "/**" matches everything inside, not the directory itself.
				return len(name) > 0
			}
			for i := 0; i <= len(name); i++ {
				if matchSegments(rest, name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 || !segmentMatch(pat[0], name[0]) {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}

// Matcher holds the patterns in effect for a directory: its ancestors'
// .gitignore files first, its own last. The zero value ignores nothing.
type Matcher struct {
	patterns []Pattern
}

// With returns a matcher with ps added after m's patterns (so they take
// precedence). m itself is unchanged.
func (m Matcher) With(ps []Pattern) Matcher {
	if len(ps) == 0 {
		return m
	}
	all := make([]Pattern, 0, len(m.patterns)+len(ps))
	all = append(all, m.patterns...)
	return Matcher{patterns: append(all, ps...)}
}

// Ignored reports whether rel (slash-separated, relative to the walk root)
// is ignored: the last pattern that matches it decides.
func (m Matcher) Ignored(rel string, isDir bool) bool {
	rel = cleanBase(rel)
	for i := len(m.patterns) - 1; i >= 0; i-- {
		if m.patterns[i].match(rel, isDir) {
			return !m.patterns[i].negate
		}
	}
	return false
}

// Match reports whether rel matches the single glob pattern with
// .gitignore rules: a pattern without a slash matches the last element of
// rel at any depth ("*.go"), one with a slash matches the whole of rel
// ("cmd/*/main.go", "**/testdata/**"), a trailing slash matches
// directories only. Negation is not supported here.
func Match(pattern, rel string, isDir bool) bool {
	p, ok := parseLine("", pattern)
	if !ok || p.negate {
		return false
	}
	return p.match(cleanBase(rel), isDir)
}
