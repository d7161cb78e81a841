package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os/exec"
	"path/filepath"
	"slices"
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

// frontDoors are the window's package and the CLI, which reach the engine
// only through the host (app/host).
var frontDoors = []string{"app/gui", "app/cli"}

// engine are the packages under the host: the front doors may name their
// types, constants and sentinel errors (Err…) but call nothing of theirs.
var engine = []string{"mcpmanager", "builtin"}

// TestFrontDoorsOnlyCallTheHost: in the window's and the CLI's non-test
// files, every use of an engine package is a type, a constant or a
// sentinel error. What the front doors do goes through the host's parts
// (h.Servers, h.Tools, h.Chats, …), so a behaviour is written once.
func TestFrontDoorsOnlyCallTheHost(t *testing.T) {
	const mod = "github.com/switchboard-app/switchboard/"
	fset := token.NewFileSet()
	plain := map[string]map[string]bool{} // package dir → names a front door may use
	allowed := func(dir string) map[string]bool {
		if m, ok := plain[dir]; ok {
			return m
		}
		m := map[string]bool{}
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			af, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range af.Decls {
				g, ok := d.(*ast.GenDecl)
				if !ok {
					continue
				}
				for _, sp := range g.Specs {
					switch sp := sp.(type) {
					case *ast.TypeSpec:
						m[sp.Name.Name] = true
					case *ast.ValueSpec:
						for _, n := range sp.Names {
							if g.Tok == token.CONST || strings.HasPrefix(n.Name, "Err") {
								m[n.Name] = true
							}
						}
					}
				}
			}
		}
		plain[dir] = m
		return m
	}
	checked := 0
	for _, door := range frontDoors {
		files, _ := filepath.Glob(filepath.Join(door, "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			checked++
			af, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			pkgs := map[string]string{} // local name → package dir
			for _, im := range af.Imports {
				p := strings.Trim(im.Path.Value, `"`)
				dir, ok := strings.CutPrefix(p, mod)
				if !ok || !slices.ContainsFunc(engine, func(e string) bool { return dir == e || strings.HasPrefix(dir, e+"/") }) {
					continue
				}
				name := filepath.Base(dir)
				if im.Name != nil {
					name = im.Name.Name
				}
				pkgs[name] = dir
			}
			ast.Inspect(af, func(n ast.Node) bool {
				se, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				id, ok := se.X.(*ast.Ident)
				if !ok {
					return true
				}
				if dir, ok := pkgs[id.Name]; ok && !allowed(dir)[se.Sel.Name] {
					t.Errorf("%s: %s.%s: a front door calls the engine (%s) itself; add the use case to a part of app/host and call that",
						fset.Position(se.Pos()), id.Name, se.Sel.Name, dir)
				}
				return true
			})
		}
	}
	if checked < 40 {
		t.Fatalf("only %d front-door files checked: the walk missed them", checked)
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
