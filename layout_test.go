package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The layout DESIGN.md promises, checked so it cannot drift.

// TestImportsPointDown: nothing under mcpmanager/ or builtin/ imports app/
// (directly or through another package).
func TestImportsPointDown(t *testing.T) {
	out, err := exec.CommandContext(t.Context(), "go", "list", "-deps", "-f", "{{.ImportPath}}", "./mcpmanager/...", "./builtin/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const app = "github.com/switchboard-app/switchboard/app"
	for _, p := range strings.Fields(string(out)) {
		if p == app || strings.HasPrefix(p, app+"/") {
			t.Errorf("mcpmanager/ or builtin/ depends on %s: a lower layer reaching up", p)
		}
	}
}

// maxMethods bounds one type's methods: beyond it a type does too much (the
// window's bound methods are split per page for this).
const maxMethods = 40

// TestNoTypeHasTooManyMethods counts the methods declared on each type of
// the module's non-test Go files.
func TestNoTypeHasTooManyMethods(t *testing.T) {
	count := map[string]int{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != "." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || len(fn.Recv.List) == 0 {
				continue
			}
			typ := fn.Recv.List[0].Type
			if s, ok := typ.(*ast.StarExpr); ok {
				typ = s.X
			}
			if g, ok := typ.(*ast.IndexExpr); ok {
				typ = g.X
			}
			if id, ok := typ.(*ast.Ident); ok {
				count[filepath.Dir(path)+"."+id.Name]++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(count) < 50 {
		t.Fatalf("only %d types with methods found: the walk missed the tree", len(count))
	}
	for typ, n := range count {
		if n > maxMethods {
			t.Errorf("%s has %d methods (at most %d): split it by what its callers need", typ, n, maxMethods)
		}
	}
}
