package bundle

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Version ranges of compatibility.runtimes, as npm reads them
// (node-semver's grammar, not loose, prereleases not included): comparator
// sets joined by "||", any of which may hold; in a set, comparators
// separated by spaces, all of which must; a comparator is an operator
// (<, <=, >, >=, =, ~, ~>, ^, or none) and a version that may be partial
// ("18", "1.2") or have x, X or * wildcards ("18.x"), or a hyphen range
// "1.2 - 3". "18" and "18.x" are any 18.y.z, "^18" is >=18.0.0 <19, "~1.2"
// is >=1.2.0 <1.3, "" and "*" are any version. A prerelease version
// (20.0.0-rc.1) satisfies a set only if one of its comparators names a
// prerelease of the same major.minor.patch, as in npm.
//
// Python's specifiers (PEP 440), which bundles write for "python", are
// read too: "," joins comparators as a space does, "==" and "!=" take an
// exact version or a ".*" prefix ("==3.11.*"), and "~=" is a compatible
// release ("~=3.10" is >=3.10 <4, "~=3.10.2" is >=3.10.2 <3.11).

// semver is a version: major.minor.patch and prerelease identifiers
// (build metadata dropped: it does not order versions).
type semver struct {
	num [3]int
	pre []string
}

// rangeComparator is one comparison a version must pass; any is true of
// every version (npm's "*", which still keeps out prereleases).
type rangeComparator struct {
	op  string // <, <=, >, >=, =, != (with hi: outside [v, hi))
	v   semver
	hi  *semver
	any bool
}

// versionRange is a range's comparator sets, any of which may hold.
type versionRange [][]rangeComparator

const (
	numID = `0|[1-9]\d*`
	xrID  = `x|X|\*|` + numID
	preID = `(?:` + numID + `|\d*[A-Za-z-][0-9A-Za-z-]*)`
	pre   = `(?:-(` + preID + `(?:\.` + preID + `)*))?`
	build = `(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?`
)

var (
	// fullVersionRE is a version as npm reads one strictly ("v" allowed).
	fullVersionRE = regexp.MustCompile(`^v?(` + numID + `)\.(` + numID + `)\.(` + numID + `)` + pre + build + `$`)
	// partialRE is a comparator's version: partial, wildcards, after any
	// "v" and "=" (node-semver's XRANGEPLAIN).
	partialRE = regexp.MustCompile(`^[v=]*(` + xrID + `)(?:\.(` + xrID + `)(?:\.(` + xrID + `)` + pre + build + `)?)?$`)
	// opRE is a comparator's operator; the longest comes first.
	opRE = regexp.MustCompile(`^(<=|>=|==|!=|~=|~>|<|>|=|~|\^)?`)
	// spacedOpRE is an operator followed by spaces ("> 1.2", "~ 1"),
	// which npm reads as one comparator.
	spacedOpRE = regexp.MustCompile(`(<=|>=|==|!=|~=|~>|<|>|=|~|\^)\s+`)
	// hyphenRE is a hyphen range "A - B".
	hyphenRE = regexp.MustCompile(`^\s*(\S+)\s+-\s+(\S+)\s*$`)
)

// parseSemver reads a version strictly: major.minor.patch, optionally
// "v" first, a prerelease and build metadata.
func parseSemver(s string) (semver, bool) {
	m := fullVersionRE.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return semver{}, false
	}
	var v semver
	for i := range 3 {
		n, err := strconv.Atoi(m[i+1])
		if err != nil {
			return semver{}, false
		}
		v.num[i] = n
	}
	if m[4] != "" {
		v.pre = strings.Split(m[4], ".")
	}
	return v, true
}

// compareSemver orders versions as semver does: numbers first; a
// prerelease before its release; prerelease identifiers numerically when
// both are numbers, numbers before words, then by length.
func compareSemver(a, b semver) int {
	for i := range a.num {
		if a.num[i] != b.num[i] {
			if a.num[i] < b.num[i] {
				return -1
			}
			return 1
		}
	}
	switch {
	case len(a.pre) == 0 && len(b.pre) == 0:
		return 0
	case len(a.pre) == 0:
		return 1
	case len(b.pre) == 0:
		return -1
	}
	for i := 0; i < len(a.pre) && i < len(b.pre); i++ {
		if c := comparePreID(a.pre[i], b.pre[i]); c != 0 {
			return c
		}
	}
	switch {
	case len(a.pre) < len(b.pre):
		return -1
	case len(a.pre) > len(b.pre):
		return 1
	}
	return 0
}

func comparePreID(a, b string) int {
	an, aerr := strconv.Atoi(a)
	bn, berr := strconv.Atoi(b)
	switch {
	case aerr == nil && berr == nil:
		return cmpInt(an, bn)
	case aerr == nil:
		return -1
	case berr == nil:
		return 1
	}
	return strings.Compare(a, b)
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// CompareVersions orders two semantic versions (a manifest's "version"):
// -1, 0 or 1; a version that does not parse sorts first.
func CompareVersions(a, b string) int {
	va, aok := parseSemver(a)
	vb, bok := parseSemver(b)
	switch {
	case !aok && !bok:
		return 0
	case !aok:
		return -1
	case !bok:
		return 1
	}
	return compareSemver(va, vb)
}

func (c rangeComparator) test(v semver) bool {
	if c.any {
		return true
	}
	d := compareSemver(v, c.v)
	switch c.op {
	case "<":
		return d < 0
	case "<=":
		return d <= 0
	case ">":
		return d > 0
	case ">=":
		return d >= 0
	case "=":
		return d == 0
	case "!=":
		if c.hi != nil {
			return d < 0 || compareSemver(v, *c.hi) >= 0
		}
		return d != 0
	}
	return false
}

// allows reports whether v is in the range.
func (r versionRange) allows(v semver) bool {
	for _, set := range r {
		if setAllows(set, v) {
			return true
		}
	}
	return false
}

func setAllows(set []rangeComparator, v semver) bool {
	for _, c := range set {
		if !c.test(v) {
			return false
		}
	}
	if len(v.pre) == 0 {
		return true
	}
	// A prerelease only where the range names one of its release.
	for _, c := range set {
		if !c.any && c.op != "!=" && len(c.v.pre) > 0 && c.v.num == v.num {
			return true
		}
	}
	return false
}

// Position of a version outside a range.
const (
	belowRange  = -1 // older than every version the range allows
	aboveRange  = 1  // newer than every version it allows
	besideRange = 0  // neither: between its sets, or excluded
)

// outside says where v, which the range does not allow, lies: below it,
// above it, or neither.
func (r versionRange) outside(v semver) int {
	where := besideRange
	for i, set := range r {
		w := besideRange
		if c, failed := firstFailed(set, v); failed {
			switch c.op {
			case ">", ">=":
				w = belowRange
			case "<", "<=":
				w = aboveRange
			case "=":
				w = compareSemver(v, c.v)
			}
		}
		if w == besideRange || i > 0 && w != where {
			return besideRange
		}
		where = w
	}
	return where
}

// firstFailed is the first comparison of set that v fails.
func firstFailed(set []rangeComparator, v semver) (rangeComparator, bool) {
	for _, c := range set {
		if !c.test(v) {
			return c, true
		}
	}
	return rangeComparator{}, false
}

// parseRange reads a version range (see the comment above semver).
func parseRange(s string) (versionRange, error) {
	var r versionRange
	for part := range strings.SplitSeq(s, "||") {
		set, err := parseSet(part)
		if err != nil {
			return nil, fmt.Errorf("%q is not a version range (%v); write one as npm does: >=18, ^18 || >=20, 18.x, 1.2 - 3", s, err)
		}
		r = append(r, set)
	}
	return r, nil
}

// parseSet reads one comparator set: a hyphen range, or comparators.
func parseSet(s string) ([]rangeComparator, error) {
	if m := hyphenRE.FindStringSubmatch(s); m != nil {
		return hyphen(m[1], m[2])
	}
	s = spacedOpRE.ReplaceAllString(strings.ReplaceAll(s, ",", " "), "$1")
	set := []rangeComparator{}
	for _, tok := range strings.Fields(s) {
		cs, err := comparators(tok)
		if err != nil {
			return nil, err
		}
		set = append(set, cs...)
	}
	if len(set) == 0 {
		set = append(set, rangeComparator{any: true}) // "" is any version
	}
	return set, nil
}

// partial is a comparator's version: each part a number or -1 for a
// wildcard (a missing part is one).
type partial struct {
	num  [3]int
	pre  []string
	star bool // a wildcard written (x, X or *), not only parts left out
}

func (p partial) x(i int) bool { return p.num[i] < 0 }

func (p partial) full() semver {
	v := semver{pre: p.pre}
	for i, n := range p.num {
		v.num[i] = max(n, 0)
	}
	return v
}

func parsePartial(s string) (partial, error) {
	m := partialRE.FindStringSubmatch(s)
	if m == nil {
		return partial{}, fmt.Errorf("%q is not a version", s)
	}
	p := partial{num: [3]int{-1, -1, -1}}
	for i := range 3 {
		if m[i+1] == "" || m[i+1] == "x" || m[i+1] == "X" || m[i+1] == "*" {
			p.star = m[i+1] != ""
			break // the parts after a wildcard are wildcards too
		}
		n, err := strconv.Atoi(m[i+1])
		if err != nil {
			return partial{}, fmt.Errorf("%q is not a version", s)
		}
		p.num[i] = n
	}
	if m[4] != "" && !p.x(2) {
		p.pre = strings.Split(m[4], ".")
	}
	return p, nil
}

// ver builds a version; zero = "-0" makes the lowest prerelease of it,
// the bound npm's "<2" becomes (<2.0.0-0: no 2.0.0 prerelease either).
func ver(major, minor, patch int, zero bool) semver {
	v := semver{num: [3]int{major, minor, patch}}
	if zero {
		v.pre = []string{"0"}
	}
	return v
}

var (
	anyVersion = []rangeComparator{{any: true}}
	noVersion  = []rangeComparator{{op: "<", v: ver(0, 0, 0, true)}}
)

func between(lo, hi semver) []rangeComparator {
	return []rangeComparator{{op: ">=", v: lo}, {op: "<", v: hi}}
}

// comparators desugars one comparator into plain comparisons, as
// node-semver does (its replaceTilde, replaceCaret, replaceXRange).
func comparators(tok string) ([]rangeComparator, error) {
	op := opRE.FindString(tok)
	p, err := parsePartial(tok[len(op):])
	if err != nil {
		return nil, err
	}
	M, m, pt := p.num[0], p.num[1], p.num[2]
	switch op {
	case "~", "~>":
		switch {
		case p.x(0):
			return anyVersion, nil
		case p.x(1):
			return between(ver(M, 0, 0, false), ver(M+1, 0, 0, true)), nil
		}
		return between(p.full(), ver(M, m+1, 0, true)), nil
	case "^":
		switch {
		case p.x(0):
			return anyVersion, nil
		case p.x(1):
			return between(ver(M, 0, 0, false), ver(M+1, 0, 0, true)), nil
		case M > 0:
			return between(p.full(), ver(M+1, 0, 0, true)), nil
		case p.x(2) || m > 0:
			return between(p.full(), ver(0, m+1, 0, true)), nil
		}
		return between(p.full(), ver(0, 0, pt+1, true)), nil
	case "~=": // PEP 440: a compatible release
		switch {
		case p.x(1):
			return nil, fmt.Errorf("%q needs at least major.minor", tok)
		case p.x(2):
			return between(p.full(), ver(M+1, 0, 0, true)), nil
		}
		return between(p.full(), ver(M, m+1, 0, true)), nil
	case "==", "!=": // PEP 440: exact (3.11 is 3.11.0), or a prefix with .*
		set := []rangeComparator{{op: "=", v: p.full()}}
		if p.star {
			set = xRange("", p)
		}
		if op == "!=" {
			return notIn(set), nil
		}
		return set, nil
	}
	return xRange(op, p), nil
}

// notIn is the comparison "outside set", for PEP 440's "!=".
func notIn(set []rangeComparator) []rangeComparator {
	switch {
	case set[0].any:
		return noVersion
	case len(set) == 1:
		return []rangeComparator{{op: "!=", v: set[0].v}}
	}
	hi := set[1].v
	return []rangeComparator{{op: "!=", v: set[0].v, hi: &hi}}
}

// xRange desugars a comparison with a partial version.
func xRange(op string, p partial) []rangeComparator {
	M, m := p.num[0], p.num[1]
	anyX := p.x(2)
	if op == "=" && anyX {
		op = ""
	}
	switch {
	case p.x(0):
		if op == ">" || op == "<" {
			return noVersion
		}
		return anyVersion
	case op != "" && anyX:
		lo := p.full()
		lo.pre = nil
		switch op {
		case ">":
			op = ">="
			if p.x(1) {
				lo = ver(M+1, 0, 0, false)
			} else {
				lo = ver(M, m+1, 0, false)
			}
		case "<=":
			op = "<"
			if p.x(1) {
				lo = ver(M+1, 0, 0, false)
			} else {
				lo = ver(M, m+1, 0, false)
			}
		}
		if op == "<" {
			lo.pre = []string{"0"}
		}
		return []rangeComparator{{op: op, v: lo}}
	case p.x(1):
		return between(ver(M, 0, 0, false), ver(M+1, 0, 0, true))
	case anyX:
		return between(ver(M, m, 0, false), ver(M, m+1, 0, true))
	}
	if op == "" {
		op = "="
	}
	return []rangeComparator{{op: op, v: p.full()}}
}

// hyphen desugars "A - B": from A (a partial one from its first version)
// to B (a partial one up to its last).
func hyphen(from, to string) ([]rangeComparator, error) {
	f, err := parsePartial(from)
	if err != nil {
		return nil, err
	}
	t, err := parsePartial(to)
	if err != nil {
		return nil, err
	}
	var set []rangeComparator
	if !f.x(0) {
		set = append(set, rangeComparator{op: ">=", v: f.full()})
	}
	switch {
	case t.x(0):
	case t.x(1):
		set = append(set, rangeComparator{op: "<", v: ver(t.num[0]+1, 0, 0, true)})
	case t.x(2):
		set = append(set, rangeComparator{op: "<", v: ver(t.num[0], t.num[1]+1, 0, true)})
	default:
		set = append(set, rangeComparator{op: "<=", v: t.full()})
	}
	if len(set) == 0 {
		return anyVersion, nil
	}
	return set, nil
}
