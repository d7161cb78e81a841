package bundle

import (
	"context"
	"fmt"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// RuntimeVersion finds the version of an installed runtime ("node",
// "python"); "" when it is not installed. A variable so tests can pretend.
var RuntimeVersion = func(ctx context.Context, runtime string) string {
	cands := map[string][]string{"node": {"node"}, "python": {"python3", "python"}}[runtime]
	for _, c := range cands {
		ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		out, err := exec.CommandContext(ctx, c, "--version").Output()
		cancel()
		if err == nil {
			if v := versionRE.FindString(string(out)); v != "" {
				return v
			}
		}
	}
	return ""
}

var versionRE = regexp.MustCompile(`\d+(\.\d+){0,2}`)

// IncompatibleError says why the bundle does not run here.
type IncompatibleError struct {
	Bundle string
	Why    string
}

func (e *IncompatibleError) Error() string {
	return fmt.Sprintf("%s cannot be installed: %s", e.Bundle, e.Why)
}

func (e *IncompatibleError) Unwrap() error { return ErrIncompatible }

// Compatible checks compatibility.platforms against platform ("" for this
// computer's) and compatibility.runtimes against the installed runtimes.
func (m *Manifest) Compatible(ctx context.Context, platform string) error {
	if platform == "" {
		platform = Platform()
	}
	c := m.Compatibility
	if c == nil {
		return nil
	}
	if len(c.Platforms) > 0 && !slices.Contains(c.Platforms, platform) {
		return &IncompatibleError{Bundle: m.Name, Why: fmt.Sprintf("it runs on %s only, and this computer is %s", strings.Join(c.Platforms, ", "), platform)}
	}
	for _, rt := range slices.Sorted(func(yield func(string) bool) {
		for k := range c.Runtimes {
			if !yield(k) {
				return
			}
		}
	}) {
		want := c.Runtimes[rt]
		if rt != "node" && rt != "python" {
			continue // a runtime this app does not check
		}
		have := RuntimeVersion(ctx, rt)
		if have == "" {
			return &IncompatibleError{Bundle: m.Name, Why: fmt.Sprintf("it needs %s %s, which is not installed: install it, then try again", rt, want)}
		}
		cons, _ := parseConstraint(want)
		if !cons.allows(have) {
			return &IncompatibleError{Bundle: m.Name, Why: fmt.Sprintf("it needs %s %s, and %s is installed: update %s, then try again", rt, want, have, rt)}
		}
	}
	return nil
}

// constraint is a set of comparisons that must all hold (">=3.8,<4.0",
// ">=16.0.0", "^1.2", "~1.2.3", "1.2.3").
type constraint []cmp

type cmp struct {
	op string
	v  [3]int
}

func parseConstraint(s string) (constraint, error) {
	var out constraint
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
		op := strings.TrimRightFunc(part, func(r rune) bool { return r >= '0' && r <= '9' || r == '.' || r == 'x' || r == '*' })
		ver := part[len(op):]
		switch op {
		case ">=", ">", "<=", "<", "=", "==", "", "^", "~", "~=":
		default:
			return nil, fmt.Errorf("%q is not a version constraint (use >=1.2.3, <2, ^1.2, ~1.2.3)", s)
		}
		v, err := parseVersion(ver)
		if err != nil {
			return nil, fmt.Errorf("%q: %v", s, err)
		}
		out = append(out, cmp{op, v})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%q is not a version constraint", s)
	}
	return out, nil
}

func parseVersion(s string) ([3]int, error) {
	var v [3]int
	parts := strings.Split(strings.TrimPrefix(s, "v"), ".")
	if len(parts) > 3 || s == "" {
		return v, fmt.Errorf("%q is not a version", s)
	}
	for i, p := range parts {
		if p == "x" || p == "*" {
			break
		}
		n, err := strconv.Atoi(p)
		if err != nil {
			return v, fmt.Errorf("%q is not a version", s)
		}
		v[i] = n
	}
	return v, nil
}

func compare(a, b [3]int) int {
	for i := range a {
		if a[i] != b[i] {
			if a[i] < b[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

func (c constraint) allows(version string) bool {
	have, err := parseVersion(version)
	if err != nil {
		return false
	}
	for _, x := range c {
		d := compare(have, x.v)
		ok := true
		switch x.op {
		case ">=":
			ok = d >= 0
		case ">":
			ok = d > 0
		case "<=":
			ok = d <= 0
		case "<":
			ok = d < 0
		case "=", "==", "":
			ok = d == 0
		case "^":
			ok = d >= 0 && have[0] == x.v[0]
		case "~", "~=":
			ok = d >= 0 && have[0] == x.v[0] && have[1] == x.v[1]
		}
		if !ok {
			return false
		}
	}
	return true
}
