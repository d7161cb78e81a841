package bundle

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// rangeInclude and rangeExclude are node-semver's own range tests
// (npm/node-semver 7.8.5, test/fixtures/range-include.js and
// range-exclude.js, ISC licence): each range with a version it includes,
// or excludes. Only the cases without the loose or includePrerelease
// options are here: manifests are read as npm reads package.json, strictly
// and without prereleases. An invalid range or version includes nothing.
var rangeInclude = [][2]string{
	{"1.0.0 - 2.0.0", "1.2.3"},
	{"^1.2.3+build", "1.2.3"},
	{"^1.2.3+build", "1.3.0"},
	{"1.2.3-pre+asdf - 2.4.3-pre+asdf", "1.2.3"},
	{"1.2.3-pre+asdf - 2.4.3-pre+asdf", "1.2.3-pre.2"},
	{"1.2.3-pre+asdf - 2.4.3-pre+asdf", "2.4.3-alpha"},
	{"1.2.3+asdf - 2.4.3+asdf", "1.2.3"},
	{"1.0.0", "1.0.0"},
	{">=*", "0.2.4"},
	{"", "1.0.0"},
	{"*", "1.2.3"},
	{">=1.0.0", "1.0.0"},
	{">=1.0.0", "1.0.1"},
	{">=1.0.0", "1.1.0"},
	{">1.0.0", "1.0.1"},
	{">1.0.0", "1.1.0"},
	{"<=2.0.0", "2.0.0"},
	{"<=2.0.0", "1.9999.9999"},
	{"<=2.0.0", "0.2.9"},
	{"<2.0.0", "1.9999.9999"},
	{"<2.0.0", "0.2.9"},
	{">= 1.0.0", "1.0.0"},
	{">=  1.0.0", "1.0.1"},
	{">=   1.0.0", "1.1.0"},
	{"> 1.0.0", "1.0.1"},
	{">  1.0.0", "1.1.0"},
	{"<=   2.0.0", "2.0.0"},
	{"<= 2.0.0", "1.9999.9999"},
	{"<=  2.0.0", "0.2.9"},
	{"<    2.0.0", "1.9999.9999"},
	{"<\t2.0.0", "0.2.9"},
	{">=0.1.97", "0.1.97"},
	{"0.1.20 || 1.2.4", "1.2.4"},
	{">=0.2.3 || <0.0.1", "0.0.0"},
	{">=0.2.3 || <0.0.1", "0.2.3"},
	{">=0.2.3 || <0.0.1", "0.2.4"},
	{"||", "1.3.4"},
	{"2.x.x", "2.1.3"},
	{"1.2.x", "1.2.3"},
	{"1.2.x || 2.x", "2.1.3"},
	{"1.2.x || 2.x", "1.2.3"},
	{"x", "1.2.3"},
	{"2.*.*", "2.1.3"},
	{"1.2.*", "1.2.3"},
	{"1.2.* || 2.*", "2.1.3"},
	{"1.2.* || 2.*", "1.2.3"},
	{"*", "1.2.3"},
	{"2", "2.1.2"},
	{"2.3", "2.3.1"},
	{"~0.0.1", "0.0.1"},
	{"~0.0.1", "0.0.2"},
	{"~x", "0.0.9"},
	{"~2", "2.0.9"},
	{"~2.4", "2.4.0"},
	{"~2.4", "2.4.5"},
	{"~>3.2.1", "3.2.2"},
	{"~1", "1.2.3"},
	{"~>1", "1.2.3"},
	{"~> 1", "1.2.3"},
	{"~1.0", "1.0.2"},
	{"~ 1.0", "1.0.2"},
	{"~ 1.0.3", "1.0.12"},
	{">=1", "1.0.0"},
	{">= 1", "1.0.0"},
	{"<1.2", "1.1.1"},
	{"< 1.2", "1.1.1"},
	{"~v0.5.4-pre", "0.5.5"},
	{"~v0.5.4-pre", "0.5.4"},
	{"=0.7.x", "0.7.2"},
	{"<=0.7.x", "0.7.2"},
	{">=0.7.x", "0.7.2"},
	{"<=0.7.x", "0.6.2"},
	{"~1.2.1 >=1.2.3", "1.2.3"},
	{"~1.2.1 =1.2.3", "1.2.3"},
	{"~1.2.1 1.2.3", "1.2.3"},
	{"~1.2.1 >=1.2.3 1.2.3", "1.2.3"},
	{"~1.2.1 1.2.3 >=1.2.3", "1.2.3"},
	{">=1.2.1 1.2.3", "1.2.3"},
	{"1.2.3 >=1.2.1", "1.2.3"},
	{">=1.2.3 >=1.2.1", "1.2.3"},
	{">=1.2.1 >=1.2.3", "1.2.3"},
	{">=1.2", "1.2.8"},
	{"^1.2.3", "1.8.1"},
	{"^0.1.2", "0.1.2"},
	{"^0.1", "0.1.2"},
	{"^0.0.1", "0.0.1"},
	{"^1.2", "1.4.2"},
	{"^1.2 ^1", "1.4.2"},
	{"^1.2.3-alpha", "1.2.3-pre"},
	{"^1.2.0-alpha", "1.2.0-pre"},
	{"^0.0.1-alpha", "0.0.1-beta"},
	{"^0.0.1-alpha", "0.0.1"},
	{"^0.1.1-alpha", "0.1.1-beta"},
	{"^x", "1.2.3"},
	{"x - 1.0.0", "0.9.7"},
	{"x - 1.x", "0.9.7"},
	{"1.0.0 - x", "1.9.7"},
	{"1.x - x", "1.9.7"},
	{"<=7.x", "7.9.9"},
}

var rangeExclude = [][2]string{
	{"1.0.0 - 2.0.0", "2.2.3"},
	{"1.2.3+asdf - 2.4.3+asdf", "1.2.3-pre.2"},
	{"1.2.3+asdf - 2.4.3+asdf", "2.4.3-alpha"},
	{"^1.2.3+build", "2.0.0"},
	{"^1.2.3+build", "1.2.0"},
	{"^1.2.3", "1.2.3-pre"},
	{"^1.2", "1.2.0-pre"},
	{">1.2", "1.3.0-beta"},
	{"<=1.2.3", "1.2.3-beta"},
	{"^1.2.3", "1.2.3-beta"},
	{"=0.7.x", "0.7.0-asdf"},
	{">=0.7.x", "0.7.0-asdf"},
	{"<=0.7.x", "0.7.0-asdf"},
	{"1.0.0", "1.0.1"},
	{">=1.0.0", "0.0.0"},
	{">=1.0.0", "0.0.1"},
	{">=1.0.0", "0.1.0"},
	{">1.0.0", "0.0.1"},
	{">1.0.0", "0.1.0"},
	{"<=2.0.0", "3.0.0"},
	{"<=2.0.0", "2.9999.9999"},
	{"<=2.0.0", "2.2.9"},
	{"<2.0.0", "2.9999.9999"},
	{"<2.0.0", "2.2.9"},
	{">=0.1.97", "0.1.93"},
	{"0.1.20 || 1.2.4", "1.2.3"},
	{">=0.2.3 || <0.0.1", "0.0.3"},
	{">=0.2.3 || <0.0.1", "0.2.2"},
	{"2.x.x", "1.1.3"},
	{"2.x.x", "3.1.3"},
	{"1.2.x", "1.3.3"},
	{"1.2.x || 2.x", "3.1.3"},
	{"1.2.x || 2.x", "1.1.3"},
	{"2.*.*", "1.1.3"},
	{"2.*.*", "3.1.3"},
	{"1.2.*", "1.3.3"},
	{"1.2.* || 2.*", "3.1.3"},
	{"1.2.* || 2.*", "1.1.3"},
	{"2", "1.1.2"},
	{"2.3", "2.4.1"},
	{"~0.0.1", "0.1.0-alpha"},
	{"~0.0.1", "0.1.0"},
	{"~2.4", "2.5.0"},
	{"~2.4", "2.3.9"},
	{"~>3.2.1", "3.3.2"},
	{"~>3.2.1", "3.2.0"},
	{"~1", "0.2.3"},
	{"~>1", "2.2.3"},
	{"~1.0", "1.1.0"},
	{"<1", "1.0.0"},
	{">=1.2", "1.1.1"},
	{"~v0.5.4-beta", "0.5.4-alpha"},
	{"=0.7.x", "0.8.2"},
	{">=0.7.x", "0.6.2"},
	{"<0.7.x", "0.7.2"},
	{"<1.2.3", "1.2.3-beta"},
	{"=1.2.3", "1.2.3-beta"},
	{">1.2", "1.2.8"},
	{"^0.0.1", "0.0.2-alpha"},
	{"^0.0.1", "0.0.2"},
	{"^1.2.3", "2.0.0-alpha"},
	{"^1.2.3", "1.2.2"},
	{"^1.2", "1.1.9"},
	{"*", "not a version"},
	{">=2", "glorp"},
	{">=2", "false"},
	{"^1.0.0", "2.0.0-rc1"},
	{"1 - 2", "2.0.0-pre"},
	{"1 - 2", "1.0.0-pre"},
	{"1.0 - 2", "1.0.0-pre"},
	{"1.1.x", "1.0.0-a"},
	{"1.1.x", "1.1.0-a"},
	{"1.1.x", "1.2.0-a"},
	{"1.x", "1.0.0-a"},
	{"1.x", "1.1.0-a"},
	{"1.x", "1.2.0-a"},
	{">=1.0.0 <1.1.0", "1.1.0"},
	{">=1.0.0 <1.1.0", "1.1.0-pre"},
	{">=1.0.0 <1.1.0-pre", "1.1.0-pre"},
}

func rangeIncludes(t *testing.T, r, v string) bool {
	t.Helper()
	rg, err := parseRange(r)
	if err != nil {
		return false
	}
	sv, ok := parseSemver(v)
	return ok && rg.allows(sv)
}

func TestNodeSemverRanges(t *testing.T) {
	for _, c := range rangeInclude {
		if !rangeIncludes(t, c[0], c[1]) {
			t.Errorf("%q does not include %q; node-semver's does", c[0], c[1])
		}
	}
	for _, c := range rangeExclude {
		if rangeIncludes(t, c[0], c[1]) {
			t.Errorf("%q includes %q; node-semver's does not", c[0], c[1])
		}
	}
}

// The ranges bundles write for node and python, and PEP 440's specifiers.
func TestRuntimeRanges(t *testing.T) {
	tests := []struct {
		rng  string
		in   []string
		out  []string
		fail bool
	}{
		{rng: "18.x", in: []string{"18.0.0", "18.19.0"}, out: []string{"17.9.9", "19.0.0"}},
		{rng: "20", in: []string{"20.20.2", "20.0.0"}, out: []string{"21.0.0", "19.9.0"}},
		{rng: "^18 || >=20", in: []string{"18.19.0", "20.20.2", "22.1.0"}, out: []string{"19.1.0", "16.20.0"}},
		{rng: ">=18 <99", in: []string{"18.0.0", "98.9.9"}, out: []string{"99.0.0", "17.0.0"}},
		{rng: ">=16.0.0", in: []string{"16.0.0", "20.20.2"}, out: []string{"14.21.3"}},
		{rng: "~18.19", in: []string{"18.19.5"}, out: []string{"18.20.0"}},
		{rng: "16 - 20", in: []string{"16.0.0", "20.99.0"}, out: []string{"21.0.0"}},
		{rng: "*", in: []string{"0.0.1", "99.0.0"}},
		{rng: ">=3.8,<4.0", in: []string{"3.8.0", "3.13.1"}, out: []string{"3.7.17", "4.0.0"}},
		{rng: ">=3.8.0 <4", in: []string{"3.11.7"}, out: []string{"4.0.1"}},
		{rng: "~=3.10", in: []string{"3.10.0", "3.13.0"}, out: []string{"3.9.9", "4.0.0"}},
		{rng: "~=3.10.2", in: []string{"3.10.2", "3.10.9"}, out: []string{"3.11.0", "3.10.1"}},
		{rng: "==3.11.*", in: []string{"3.11.7"}, out: []string{"3.12.0"}},
		{rng: "==3.11", in: []string{"3.11.0"}, out: []string{"3.11.7"}},
		{rng: ">=3.8, !=3.9.*", in: []string{"3.8.10", "3.10.0"}, out: []string{"3.9.2"}},
		{rng: ">=3.8, !=3.9.1", in: []string{"3.9.0"}, out: []string{"3.9.1"}},
		{rng: "~=3", fail: true},
		{rng: "latest", fail: true},
		{rng: ">=18 <=", fail: true},
	}
	for _, tt := range tests {
		t.Run(tt.rng, func(t *testing.T) {
			_, err := parseRange(tt.rng)
			if tt.fail {
				if err == nil {
					t.Fatalf("%q read as a range", tt.rng)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range tt.in {
				if !rangeIncludes(t, tt.rng, v) {
					t.Errorf("%q does not include %s", tt.rng, v)
				}
			}
			for _, v := range tt.out {
				if rangeIncludes(t, tt.rng, v) {
					t.Errorf("%q includes %s", tt.rng, v)
				}
			}
		})
	}
}

// An installed runtime outside the range is named with the advice that
// fits: older, update it; newer, install a matching one beside it.
func TestCompatibleRuntimeAdvice(t *testing.T) {
	old := RuntimeVersion
	t.Cleanup(func() { RuntimeVersion = old })
	tests := []struct {
		want, have string
		says       string // "" is compatible
	}{
		{"18.x", "18.19.0", ""},
		{"20", "20.20.2", ""},
		{"^18 || >=20", "20.20.2", ""},
		{">=3.8,<4.0", "3.12", ""}, // python --version may print two parts
		{">=22", "20.11.1", "it needs node >=22; you have 20.11.1: update node to a version in that range"},
		{"18.x", "20.20.2", "it needs node 18.x; you have 20.20.2, which is newer: install a node in that range as well (nvm or fnm keeps both)"},
		{"^18 || ^22", "20.1.0", "it needs node ^18 || ^22; you have 20.1.0: install a node in that range (nvm or fnm keeps several)"},
		{"<16 || >=22", "20.1.0", "it needs node <16 || >=22; you have 20.1.0: install a node in that range"},
		{"=18.1.0", "18.0.0", "update node"},
		{"=18.1.0", "18.2.0", "which is newer"},
	}
	for _, tt := range tests {
		t.Run(tt.want+" "+tt.have, func(t *testing.T) {
			RuntimeVersion = func(context.Context, string) string { return tt.have }
			m := &Manifest{Name: "x", Compatibility: &Compatibility{Runtimes: map[string]string{"node": tt.want}}}
			if _, err := parseRange(tt.want); err != nil {
				t.Fatal(err)
			}
			err := m.Compatible(context.Background(), "linux")
			if tt.says == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !errors.Is(err, ErrIncompatible) || !strings.Contains(err.Error(), tt.says) {
				t.Fatalf("err = %v, want one saying %q", err, tt.says)
			}
		})
	}
}

func TestCompareVersions(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"1.0.0", "2.0.0", -1}, {"2.0.0", "1.10.0", 1}, {"1.0.0-rc.1", "1.0.0", -1}, {"1.0.0-rc.2", "1.0.0-rc.10", -1},
		{"1.0.0-alpha", "1.0.0-1", 1}, {"1.2.3+b", "1.2.3", 0}, {"v1.2.3", "1.2.3", 0},
	} {
		if got := CompareVersions(c.a, c.b); got != c.want {
			t.Errorf("CompareVersions(%s, %s) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}
