package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The frontend's layout, checked from go test too, so a cycle or a stray
// call into the Wails bindings fails the same run as the Go layout rules.

// frontendSrc is the tree the rules cover; backendModule is the one folder
// (under frontendSrc) allowed to import the Wails-generated code.
// generatedEvents may too: app/internal/eventsgen writes it there, naming
// the payload types of models.ts, and only the backend module imports it.
const (
	frontendSrc     = "frontend/src"
	backendModule   = "backend"
	generatedEvents = "events.gen.ts"
)

// importSpec finds a module specifier in import ... from '…', export ... from
// '…', a bare import '…' and import('…'). The [\s\S] lets an import list span
// lines; [^;'"] keeps one match from running into the next statement.
var importSpec = regexp.MustCompile(`(?:\b(?:import|export)\s[^;'"]*?\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]`)

// comment removes comments that start a line (// and /* */, JSDoc included)
// so an example in prose is no import. Only those: a '/*' inside a string
// ('image/*') would otherwise swallow the code up to the next '*/'.
var comment = regexp.MustCompile(`(?ms)^\s*/\*.*?\*/|^\s*//.*?$`)

// frontendFile is one source file: its slash path under frontendSrc and the
// specifiers it imports.
type frontendFile struct {
	path    string
	imports []string
}

// readFrontend reads every .ts and .tsx file under root (node_modules left out).
func readFrontend(t *testing.T, root string) []frontendFile {
	t.Helper()
	var files []frontendFile
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".ts") && !strings.HasSuffix(path, ".tsx") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		f := frontendFile{path: filepath.ToSlash(rel)}
		for _, m := range importSpec.FindAllStringSubmatch(comment.ReplaceAllString(string(b), ""), -1) {
			f.imports = append(f.imports, m[1])
		}
		files = append(files, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 20 {
		t.Fatalf("only %d files under %s: the walk missed the tree", len(files), root)
	}
	return files
}

// resolve turns a relative specifier of from into a file of known, the way
// the bundler does (.ts, .tsx, then an index); "" when it names none.
func resolve(from, spec string, known map[string]bool) string {
	base := filepath.ToSlash(filepath.Join(filepath.Dir(from), spec))
	for _, c := range []string{base, base + ".ts", base + ".tsx", base + "/index.ts", base + "/index.tsx"} {
		if known[c] {
			return c
		}
	}
	return ""
}

// findCycle returns one import cycle of graph as a path that ends where it
// starts (a→b→a), or nil. Files are visited in sorted order so a failure
// names the same cycle every run.
func findCycle(graph map[string][]string) []string {
	const (
		unseen = iota
		open
		done
	)
	state := map[string]int{}
	var stack []string
	var visit func(n string) []string
	visit = func(n string) []string {
		state[n] = open
		stack = append(stack, n)
		for _, m := range graph[n] {
			switch state[m] {
			case open:
				i := slices.Index(stack, m)
				return append(slices.Clone(stack[i:]), m)
			case unseen:
				if c := visit(m); c != nil {
					return c
				}
			}
		}
		stack = stack[:len(stack)-1]
		state[n] = done
		return nil
	}
	nodes := make([]string, 0, len(graph))
	for n := range graph {
		nodes = append(nodes, n)
	}
	slices.Sort(nodes)
	for _, n := range nodes {
		if state[n] == unseen {
			if c := visit(n); c != nil {
				return c
			}
		}
	}
	return nil
}

// TestFrontendHasNoImportCycle: the relative imports of frontend/src form no
// cycle (type-only imports count: they still tie the modules together), and
// only the backend module imports the Wails-generated code (wailsjs/ and
// events.gen.ts). frontend/src/imports.test.ts checks the same from vitest.
func TestFrontendHasNoImportCycle(t *testing.T) {
	files := readFrontend(t, frontendSrc)
	known := map[string]bool{}
	for _, f := range files {
		known[f.path] = true
	}
	graph := map[string][]string{}
	for _, f := range files {
		graph[f.path] = nil
		for _, spec := range f.imports {
			if strings.Contains(spec, "wailsjs/") && !strings.HasPrefix(f.path, backendModule+"/") && f.path != generatedEvents {
				t.Errorf("%s imports %s: only %s/%s/ may use the Wails bindings; go through it", f.path, spec, frontendSrc, backendModule)
			}
			if !strings.HasPrefix(spec, ".") {
				continue
			}
			to := resolve(f.path, spec, known)
			if to == "" {
				continue
			}
			if to == generatedEvents && !strings.HasPrefix(f.path, backendModule+"/") {
				t.Errorf("%s imports %s: the event names and payloads come from %s/%s/ too", f.path, spec, frontendSrc, backendModule)
			}
			graph[f.path] = append(graph[f.path], to)
		}
		slices.Sort(graph[f.path])
	}
	if c := findCycle(graph); c != nil {
		t.Errorf("import cycle in %s: %s", frontendSrc, strings.Join(c, " → "))
	}
}

// TestFrontendFindCycle checks the cycle search itself on small graphs.
func TestFrontendFindCycle(t *testing.T) {
	if c := findCycle(map[string][]string{"a": {"b"}, "b": {"c"}, "c": nil}); c != nil {
		t.Errorf("acyclic graph: got cycle %v", c)
	}
	got := findCycle(map[string][]string{"a": {"b"}, "b": {"c"}, "c": {"b"}})
	if want := []string{"b", "c", "b"}; !slices.Equal(got, want) {
		t.Errorf("cycle = %v, want %v", got, want)
	}
}

// TestFrontendImportSpec checks the specifier regexp on the forms the source uses.
func TestFrontendImportSpec(t *testing.T) {
	src := `import { a,
  b } from './x';
import type { T } from "../y";
export { c } from './z';
export * from './w';
import './side.css';
const m = await import('./lazy');
// import { no } from './comment';
/* import { no } from './block'; */
const s = 'import is a word';`
	var got []string
	for _, m := range importSpec.FindAllStringSubmatch(comment.ReplaceAllString(src, ""), -1) {
		got = append(got, m[1])
	}
	want := []string{"./x", "../y", "./z", "./w", "./side.css", "./lazy"}
	if !slices.Equal(got, want) {
		t.Errorf("specifiers = %q, want %q", got, want)
	}
}
