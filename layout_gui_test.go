package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestAppHoldsOnlyPackages: app/ is the product as packages; a Go file
// directly in it would make "app" a package again (DESIGN.md's layout).
func TestAppHoldsOnlyPackages(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("app", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		t.Errorf("%s: app/ holds packages only; move it into the package it belongs to (the window's is app/gui)", f)
	}
}

// TestEachPageInItsOwnFile: every struct the window binds — Window and the
// pages it holds — is declared, with all its exported methods, in the file
// named for it (ChatPage in chatpage.go), so a method is found by its
// receiver's name alone.
func TestEachPageInItsOwnFile(t *testing.T) {
	const dir = "app/gui"
	fset := token.NewFileSet()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]*ast.File{} // the package's non-test files by path
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files[name] = f
	}
	if len(files) == 0 {
		t.Fatalf("no Go files in %s", dir)
	}
	// The bound structs: Window and the pointer fields it holds.
	bound := map[string]bool{"Window": true}
	declared := map[string]string{} // type → file
	for name, f := range files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, s := range gd.Specs {
				ts := s.(*ast.TypeSpec)
				declared[ts.Name.Name] = filepath.Base(name)
				if ts.Name.Name != "Window" {
					continue
				}
				st, ok := ts.Type.(*ast.StructType)
				if !ok {
					t.Fatalf("%s: Window is not a struct", name)
				}
				for _, fld := range st.Fields.List {
					if star, ok := fld.Type.(*ast.StarExpr); ok && len(fld.Names) == 1 {
						if id, ok := star.X.(*ast.Ident); ok && id.Name == fld.Names[0].Name {
							bound[id.Name] = true
						}
					}
				}
			}
		}
	}
	if len(bound) < 10 {
		t.Fatalf("found %d bound structs in Window; the test no longer sees the pages", len(bound))
	}
	want := func(typ string) string { return strings.ToLower(typ) + ".go" }
	for typ := range bound {
		if got := declared[typ]; got != want(typ) {
			t.Errorf("%s is declared in %s/%s: declare it in %s/%s", typ, dir, got, dir, want(typ))
		}
	}
	for name, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || !fd.Name.IsExported() {
				continue
			}
			typ := fd.Recv.List[0].Type
			if star, ok := typ.(*ast.StarExpr); ok {
				typ = star.X
			}
			id, ok := typ.(*ast.Ident)
			if !ok || !bound[id.Name] {
				continue
			}
			if got := filepath.Base(name); got != want(id.Name) {
				t.Errorf("%s/%s: %s.%s belongs in %s/%s with the rest of %s", dir, got, id.Name, fd.Name.Name, dir, want(id.Name), id.Name)
			}
		}
	}
}
