package host

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// hostSource is what the package's non-test files declare: the Host
// struct's exported fields (name → type), where each type is declared and
// where each exported method of a type is.
type hostSource struct {
	fields   map[string]string
	typeFile map[string]string
	methods  map[string]map[string]string // type → method → file
	docText  string                       // doc.go's package doc
}

func readHostSource(t *testing.T) hostSource {
	t.Helper()
	src := hostSource{fields: map[string]string{}, typeFile: map[string]string{}, methods: map[string]map[string]string{}}
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		if p == "doc.go" && f.Doc != nil {
			src.docText = f.Doc.Text()
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					ts, ok := sp.(*ast.TypeSpec)
					if !ok {
						continue
					}
					src.typeFile[ts.Name.Name] = p
					if st, ok := ts.Type.(*ast.StructType); ok && ts.Name.Name == "Host" {
						for _, fl := range st.Fields.List {
							typ := fl.Type
							if s, ok := typ.(*ast.StarExpr); ok {
								typ = s.X
							}
							id, ok := typ.(*ast.Ident)
							if !ok {
								continue
							}
							for _, n := range fl.Names {
								if n.IsExported() {
									src.fields[n.Name] = id.Name
								}
							}
						}
					}
				}
			case *ast.FuncDecl:
				if d.Recv == nil || !d.Name.IsExported() {
					continue
				}
				typ := d.Recv.List[0].Type
				if s, ok := typ.(*ast.StarExpr); ok {
					typ = s.X
				}
				if id, ok := typ.(*ast.Ident); ok {
					if src.methods[id.Name] == nil {
						src.methods[id.Name] = map[string]string{}
					}
					src.methods[id.Name][d.Name.Name] = p
				}
			}
		}
	}
	if len(src.fields) < 5 || src.docText == "" {
		t.Fatalf("found %d fields of Host and %d bytes of doc.go's package doc: the parse missed them", len(src.fields), len(src.docText))
	}
	return src
}

var (
	seePart = regexp.MustCompile(`see\s+([A-Z]\w*)\s+\(([^)]*)\)`)
	goFile  = regexp.MustCompile(`\b[a-z_]+\.go\b`)
)

// TestDocMapsEveryPart keeps doc.go's task → part map whole and true:
// every part (a field of Host whose type has exported methods) has a
// line, each line names a part and files that exist, the first of them
// declaring the part's type, and every exported method of the part is in
// a file its line names.
func TestDocMapsEveryPart(t *testing.T) {
	src := readHostSource(t)
	_, taskMap, ok := strings.Cut(src.docText, "Where to change what")
	if !ok {
		t.Fatal(`doc.go's package doc has no "Where to change what" section`)
	}
	for _, f := range goFile.FindAllString(taskMap, -1) {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("doc.go names %s, which is not a file of app/host", f)
		}
	}
	mapped := map[string]bool{}
	for _, m := range seePart.FindAllStringSubmatch(taskMap, -1) {
		part, files := m[1], goFile.FindAllString(m[2], -1)
		typ, ok := src.fields[part]
		if !ok || len(src.methods[typ]) == 0 {
			t.Errorf("doc.go says see %s, which is not a part of Host (a field whose type has exported methods)", part)
			continue
		}
		if mapped[part] {
			t.Errorf("doc.go maps %s twice: one line per part", part)
		}
		mapped[part] = true
		if len(files) == 0 || src.typeFile[typ] != files[0] {
			t.Errorf("doc.go's line for %s names %v first, but %s is declared in %s", part, files, typ, src.typeFile[typ])
		}
		for name, file := range src.methods[typ] {
			if !slices.Contains(files, file) {
				t.Errorf("%s.%s is in %s, which doc.go's line for %s does not name: move it to %s", typ, name, file, part, files[0])
			}
		}
	}
	for part, typ := range src.fields {
		if len(src.methods[typ]) > 0 && !mapped[part] {
			t.Errorf("the part %s is missing from doc.go's task map: add a line \"to change …, see %s (%s)\"", part, part, src.typeFile[typ])
		}
	}
}
