package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// maxHostInputs is how many inputs an exported method of a host part may
// take besides its context; past that it takes a request struct (as
// ServerEdit and ImportRequest are), so both doors name each field and a
// new one does not change every caller.
const maxHostInputs = 3

// TestHostMethodsTakeRequestStructs checks every exported method of an
// exported type in app/host.
func TestHostMethodsTakeRequestStructs(t *testing.T) {
	files, err := filepath.Glob("app/host/*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var parsed []*ast.File
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		parsed = append(parsed, af)
	}
	if len(parsed) < 20 {
		t.Fatalf("only %d files in app/host: the glob missed the host", len(parsed))
	}
	for _, bad := range tooManyInputs(fset, parsed) {
		t.Error(bad)
	}
}

// TestTooManyInputsCatchesAPlantedMethod: the check sees a fourth input
// (a context is not counted, a grouped "a, b string" counts twice) and
// leaves unexported methods and types alone.
func TestTooManyInputsCatchesAPlantedMethod(t *testing.T) {
	src := `package host
type Apps struct{}
type inner struct{}
func (a *Apps) Call(ctx context.Context, chatID, server, tool string, args map[string]any) error { return nil }
func (a *Apps) Fine(ctx context.Context, chatID, server string, args map[string]any) error { return nil }
func (a *Apps) call(chatID, server, tool, x string) error { return nil }
func (i inner) Call(chatID, server, tool, x string) error { return nil }
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "planted.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	got := tooManyInputs(fset, []*ast.File{f})
	if len(got) != 1 || !strings.Contains(got[0], "Apps.Call takes 4 inputs") {
		t.Fatalf("got %q, want only Apps.Call with 4 inputs", got)
	}
}

// tooManyInputs names each exported method of an exported type that takes
// more than maxHostInputs inputs besides a context.Context.
func tooManyInputs(fset *token.FileSet, files []*ast.File) []string {
	var bad []string
	for _, f := range files {
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || len(fn.Recv.List) == 0 || !fn.Name.IsExported() {
				continue
			}
			recv := fn.Recv.List[0].Type
			if s, ok := recv.(*ast.StarExpr); ok {
				recv = s.X
			}
			id, ok := recv.(*ast.Ident)
			if !ok || !id.IsExported() {
				continue
			}
			n := 0
			for _, p := range fn.Type.Params.List {
				if sel, ok := p.Type.(*ast.SelectorExpr); ok && sel.Sel.Name == "Context" {
					if x, ok := sel.X.(*ast.Ident); ok && x.Name == "context" {
						continue
					}
				}
				n += max(len(p.Names), 1)
			}
			if n > maxHostInputs {
				bad = append(bad, fmt.Sprintf("%s: %s.%s takes %d inputs besides its context (at most %d): give it a request struct",
					fset.Position(fn.Pos()), id.Name, fn.Name.Name, n, maxHostInputs))
			}
		}
	}
	return bad
}
