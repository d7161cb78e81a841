package gitignore

import (
	"os"
	"path/filepath"
	"testing"
)

func TestIgnored(t *testing.T) {
	root := Parse("", readTestdata(t, "root.gitignore"))
	sub := Parse("web", readTestdata(t, "web.gitignore"))
	m := Matcher{}.With(root).With(sub)
	cases := []struct {
		rel   string
		isDir bool
		want  bool
	}{
		{"debug.log", false, true},           // *.log at the root
		{"deep/in/trace.log", false, true},   // and at any depth
		{"keep.log", false, false},           // !keep.log re-includes
		{"build", true, true},                // build/ matches directories
		{"build", false, false},              // but not a file named build
		{"src/build", true, true},            // at any depth
		{"tmp", true, true},                  // /tmp anchored at the root
		{"src/tmp", true, false},             // so not below it
		{"docs/api/index.html", false, true}, // docs/**/*.html
		{"docs/index.html", false, true},     // ** matches zero segments
		{"docs/readme.md", false, false},
		{"vendor/a/b.go", false, true}, // vendor/** matches inside
		{"vendor", true, false},        // but not vendor itself
		{"#notacomment", false, true},  // \# escapes the hash
		{"trailing ", false, true},     // escaped trailing space kept
		{"file1.tmp", false, true},     // file[0-9].tmp
		{"fileA.tmp", false, false},
		{"fileA.bak", false, true}, // file[!0-9].bak
		{"file1.bak", false, false},
		{"web/dist", true, true}, // from web/.gitignore
		{"dist", true, false},    // which applies only below web/
		{"web/src/env.local", false, true},
		{"web/debug.log", false, false}, // web/.gitignore re-includes *.log below web
		{"notes.txt", false, false},
	}
	for _, c := range cases {
		if got := m.Ignored(c.rel, c.isDir); got != c.want {
			t.Errorf("Ignored(%q, dir=%v) = %v, want %v", c.rel, c.isDir, got, c.want)
		}
	}
}

func TestMatch(t *testing.T) {
	cases := []struct {
		pattern, rel string
		isDir        bool
		want         bool
	}{
		{"*.go", "main.go", false, true},
		{"*.go", "cmd/tool/main.go", false, true},
		{"*.go", "main.gox", false, false},
		{"cmd/*/main.go", "cmd/tool/main.go", false, true},
		{"cmd/*/main.go", "x/cmd/tool/main.go", false, false},
		{"**/main.go", "x/cmd/tool/main.go", false, true},
		{"**/testdata/**", "a/testdata/b/c.txt", false, true},
		{"*_test.go", "pkg/a_test.go", false, true},
		{"docs/", "docs", true, true},
		{"docs/", "docs", false, false},
		{"[ab]?.txt", "b1.txt", false, true},
		{"!x", "x", false, false},
		{"", "x", false, false},
		{"[", "[", false, false}, // malformed: no match, no panic
	}
	for _, c := range cases {
		if got := Match(c.pattern, c.rel, c.isDir); got != c.want {
			t.Errorf("Match(%q, %q, %v) = %v, want %v", c.pattern, c.rel, c.isDir, got, c.want)
		}
	}
}

func TestZeroMatcherIgnoresNothing(t *testing.T) {
	var m Matcher
	if m.Ignored("anything", true) {
		t.Fatal("zero matcher ignored a path")
	}
	// With does not change the receiver.
	m2 := m.With(Parse("", []byte("*")))
	if m.Ignored("x", false) || !m2.Ignored("x", false) {
		t.Fatal("With shares state with its receiver")
	}
}

func readTestdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
