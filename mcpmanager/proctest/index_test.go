package proctest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// modeLine is a line of the testserver's index: a tab, the mode, its text.
var modeLine = regexp.MustCompile(`(?m)^\t([a-z][a-z0-9-]*) +\S`)

// TestTestServerIndexIsComplete: the testserver's package doc lists every
// mode its modes table serves and nothing else, and names each of its
// files, so the index a reader starts from stays whole as modes come and go.
func TestTestServerIndexIsComplete(t *testing.T) {
	dir := filepath.Join("..", "testdata", "testserver")
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filepath.Join(dir, "main.go"), nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	doc := f.Doc.Text()
	_, index, ok := strings.Cut(doc, "The modes,")
	if !ok {
		t.Fatal(`the package doc has no index ("The modes, …")`)
	}
	index, _, _ = strings.Cut(index, "Who starts which")
	var listed []string
	for _, m := range modeLine.FindAllStringSubmatch(index, -1) {
		listed = append(listed, m[1])
	}
	var served []string
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || len(vs.Names) != 1 || vs.Names[0].Name != "modes" {
			return true
		}
		for _, e := range vs.Values[0].(*ast.CompositeLit).Elts {
			key, _ := strconv.Unquote(e.(*ast.KeyValueExpr).Key.(*ast.BasicLit).Value)
			served = append(served, key)
		}
		return false
	})
	if len(served) < 10 {
		t.Fatalf("found %d modes in main.go's modes table: the test no longer reads it", len(served))
	}
	slices.Sort(listed)
	slices.Sort(served)
	if !slices.Equal(listed, served) {
		t.Errorf("the package doc lists modes %v,\nthe modes table serves %v", listed, served)
	}
	files, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range files {
		if name := e.Name(); strings.HasSuffix(name, ".go") && name != "main.go" && !strings.Contains(doc, "("+name) && !strings.Contains(doc, " "+name) {
			t.Errorf("the package doc names no mode of %s", name)
		}
	}
}
