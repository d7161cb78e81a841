package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The README's transcripts and code come from examples that 'go test' runs,
// so they cannot drift from what the program does (go-sdk builds its docs
// from its examples the same way). A block between
//
//	<!-- example DIR NAME -->        the example's // Output: (a CLI transcript)
//	<!-- example DIR NAME code -->   the example function as written
//	<!-- end -->
//
// is rebuilt from the example NAME in DIR's _test.go files; the test fails
// when the README differs, and 'go test . -run Readme -update' rewrites it.

var update = flag.Bool("update", false, "rewrite the README's example blocks from the examples")

const readme = "README.md"

var exampleBlock = regexp.MustCompile("(?s)<!-- example (\\S+) (\\S+?)(?: (code))? -->\n(.*?)<!-- end -->")

// example finds the example function name among dir's test files and
// returns its source (doc comment included) and its expected output.
func example(dir, name string) (code, output string, err error) {
	fset := token.NewFileSet()
	paths, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			return "", "", err
		}
		f, err := parser.ParseFile(fset, p, src, parser.ParseComments)
		if err != nil {
			return "", "", err
		}
		for _, ex := range doc.Examples(f) {
			if "Example"+ex.Name != name {
				continue
			}
			fn := findFunc(f, name)
			start := fn.Pos()
			if fn.Doc != nil {
				start = fn.Doc.Pos()
			}
			code = string(src[fset.Position(start).Offset:fset.Position(fn.End()).Offset])
			return code, ex.Output, nil
		}
	}
	return "", "", fmt.Errorf("no example %s in %s/*_test.go", name, dir)
}

func findFunc(f *ast.File, name string) *ast.FuncDecl {
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && fn.Name.Name == name {
			return fn
		}
	}
	return nil
}

// renderReadme returns the README with every example block rebuilt.
func renderReadme(text string) (string, error) {
	var firstErr error
	out := exampleBlock.ReplaceAllStringFunc(text, func(block string) string {
		m := exampleBlock.FindStringSubmatch(block)
		dir, name, mode := m[1], m[2], m[3]
		code, output, err := example(dir, name)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			return block
		}
		head := strings.SplitN(block, "\n", 2)[0] + "\n"
		if mode == "code" {
			return head + "```go\n" + code + "\n```\n<!-- end -->"
		}
		if output == "" {
			if firstErr == nil {
				firstErr = fmt.Errorf("%s in %s has no // Output: to show", name, dir)
			}
			return block
		}
		return head + "```console\n" + output + "```\n<!-- end -->"
	})
	return out, firstErr
}

func TestReadmeExamplesMatchTheirSource(t *testing.T) {
	b, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	have := string(b)
	if n := len(exampleBlock.FindAllString(have, -1)); n == 0 {
		t.Fatal("README.md has no <!-- example … --> block")
	}
	want, err := renderReadme(have)
	if err != nil {
		t.Fatal(err)
	}
	if have == want {
		return
	}
	if *update {
		if err := os.WriteFile(readme, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	hl, wl := strings.Split(have, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(hl) || i < len(wl); i++ {
		var h, w string
		if i < len(hl) {
			h = hl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if h != w {
			t.Fatalf("README.md:%d differs from its example:\n have: %q\n want: %q\n(run 'go test . -run Readme -update' after changing an example, never edit the block by hand)", i+1, h, w)
		}
	}
}
