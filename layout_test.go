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

// The layout DESIGN.md promises, checked so it cannot drift. Which package
// may import which is depguard's, in .golangci.yml (make lint); these are
// the rules an import rule cannot state.

// TestEngineHalvesPointOneWay: the built-in servers (builtin/) import
// nothing of mcpmanager/, their tests included. The manager runs them (it
// knows their reserved names and start errors from package builtin), and
// each is a server that stands alone ('switchboard builtin NAME' serves it
// to any host), so the arrow between the engine's two halves points one way.
func TestEngineHalvesPointOneWay(t *testing.T) {
	out, err := exec.CommandContext(t.Context(), "go", "list", "-deps", "-test", "-f", "{{.ImportPath}}", "./builtin/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const mcpmanager = "github.com/switchboard-app/switchboard/mcpmanager"
	checked := 0
	for _, p := range strings.Fields(string(out)) {
		checked++
		if p == mcpmanager || strings.HasPrefix(p, mcpmanager+"/") {
			t.Errorf("builtin/ depends on %s: a built-in server reaching into the manager that runs it", p)
		}
	}
	if checked < 20 {
		t.Fatalf("only %d packages listed: go list missed builtin/", checked)
	}
}

// maxMethods bounds one type's methods: beyond it a type does too much (the
// window's bound methods are split per page for this).
const maxMethods = 40

// TestNoTypeHasTooManyMethods counts the methods declared on each type of
// the module's non-test Go files.
func TestNoTypeHasTooManyMethods(t *testing.T) {
	count := map[string]int{}
	eachGoFile(t, func(path string) bool { return !strings.HasSuffix(path, "_test.go") }, func(path string, f *ast.File) {
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
	})
	if len(count) < 50 {
		t.Fatalf("only %d types with methods found: the walk missed the tree", len(count))
	}
	for typ, n := range count {
		if n > maxMethods {
			t.Errorf("%s has %d methods (at most %d): split it by what its callers need", typ, n, maxMethods)
		}
	}
}

// proctestBuilders are proctest's functions that build a program into a
// folder of its own under the OS temp dir, which proctest.RemoveBuilds
// removes (the testserver is some 9 MB a build).
var proctestBuilders = map[string]bool{
	"Build": true, "BuildFaultServer": true, "FaultServer": true, "ModernServer": true,
	"RugPullServer": true, "Server": true, "Switchboard": true,
}

// TestPackagesRemoveTheTestServersTheyBuild: a package whose tests build
// test servers through proctest has a TestMain that removes them when its
// tests end (proctest.Main, or proctest.RemoveBuilds after m.Run);
// without one, every run of its tests left its builds in the temp dir.
func TestPackagesRemoveTheTestServersTheyBuild(t *testing.T) {
	type pkg struct {
		builds  string // a file and the builder it calls, for the message
		removes bool
	}
	pkgs := map[string]*pkg{}
	eachGoFile(t, func(path string) bool { return strings.HasSuffix(path, "_test.go") }, func(path string, f *ast.File) {
		p := pkgs[filepath.Dir(path)]
		if p == nil {
			p = &pkg{}
			pkgs[filepath.Dir(path)] = p
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == "proctest" && proctestBuilders[sel.Sel.Name] && p.builds == "" {
				p.builds = path + " calls proctest." + sel.Sel.Name
			}
			return true
		})
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || fn.Name.Name != "TestMain" || fn.Body == nil {
				continue
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok {
					if x, ok := sel.X.(*ast.Ident); ok && x.Name == "proctest" && (sel.Sel.Name == "Main" || sel.Sel.Name == "RemoveBuilds") {
						p.removes = true
					}
				}
				return true
			})
		}
	})
	building := 0
	for dir, p := range pkgs {
		if p.builds == "" {
			continue
		}
		building++
		if !p.removes {
			t.Errorf("%s: %s, but no TestMain of %s calls proctest.Main or proctest.RemoveBuilds: each run leaves its builds in the temp dir", dir, p.builds, dir)
		}
	}
	if building < 5 {
		t.Fatalf("only %d packages build test servers: the walk missed the tree", building)
	}
}

// eachGoFile parses every Go file of the module outside node_modules,
// testdata and dot folders whose path keep accepts, and hands it to each.
func eachGoFile(t *testing.T, keep func(path string) bool, each func(path string, f *ast.File)) {
	t.Helper()
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != "." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || !keep(path) {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		each(path, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
