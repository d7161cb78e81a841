package gui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// Every Event* constant must be in EventList, or events.gen.ts (written
// from EventList) would miss it.
func TestEventListHasEveryEventConstant(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, e := range EventList {
		listed[e.Const] = true
	}
	fset := token.NewFileSet()
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				for _, id := range s.(*ast.ValueSpec).Names {
					if strings.HasPrefix(id.Name, "Event") {
						n++
						if !listed[id.Name] {
							t.Errorf("%s (%s) is not in EventList", id.Name, fset.Position(id.Pos()))
						}
					}
				}
			}
		}
	}
	if n != len(EventList) {
		t.Errorf("%d Event* constants, %d in EventList: each once", n, len(EventList))
	}
}
