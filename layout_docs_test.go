package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// ARCHITECTURE.md is what a new engineer reads first; these checks keep it
// from drifting as packages, files and the host's parts come and go.

const architecture = "ARCHITECTURE.md"

// backticked finds the text written in backticks (code spans; a fenced
// block's ``` lines hold no span and are left alone).
var backticked = regexp.MustCompile("`([^`\n]+)`")

// placeholder is a <name> segment standing for any entry
// (frontend/src/pages/<page>/).
var placeholder = regexp.MustCompile(`<[^>/]+>`)

// docSpans returns ARCHITECTURE.md's text and its code spans.
func docSpans(t *testing.T) (string, []string) {
	t.Helper()
	b, err := os.ReadFile(architecture)
	if err != nil {
		t.Fatal(err)
	}
	var spans []string
	for _, m := range backticked.FindAllStringSubmatch(string(b), -1) {
		spans = append(spans, m[1])
	}
	return string(b), spans
}

// modulePackages lists the module's package directories, relative to the
// root, as go list sees them (testdata programs and build-tag-only folders
// are not packages to it). The root package is left out: it is named by its
// files (main.go, mode_*.go), not by a path.
func modulePackages(t *testing.T) []string {
	t.Helper()
	out, err := exec.CommandContext(t.Context(), "go", "list", "-f", "{{.Dir}}", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	var pkgs []string
	for _, dir := range strings.Fields(string(out)) {
		rel, err := filepath.Rel(root, dir)
		if err != nil {
			t.Fatal(err)
		}
		if rel != "." {
			pkgs = append(pkgs, filepath.ToSlash(rel))
		}
	}
	if len(pkgs) < 30 {
		t.Fatalf("only %d packages listed: go list missed the tree", len(pkgs))
	}
	return pkgs
}

// repoPath reports whether a code span is written as a path in this
// repository: no spaces, and either slash-separated starting with one of
// the root's directories, or a .go or .md file name (main.go, README.md).
// Data-dir names (config.json, history.db) and identifiers are not.
func repoPath(span string, topDirs map[string]bool) bool {
	if strings.ContainsAny(span, " \t${}") {
		return false
	}
	if first, _, ok := strings.Cut(span, "/"); ok {
		return topDirs[first]
	}
	return strings.HasSuffix(span, ".go") || strings.HasSuffix(span, ".md")
}

// hostParts are the exported fields of host.Host: its parts, made in Open.
func hostParts(t *testing.T) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join("app", "host", "host.go"), nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var parts []string
	ast.Inspect(f, func(n ast.Node) bool {
		ts, ok := n.(*ast.TypeSpec)
		if !ok || ts.Name.Name != "Host" {
			return true
		}
		for _, field := range ts.Type.(*ast.StructType).Fields.List {
			for _, name := range field.Names {
				if name.IsExported() {
					parts = append(parts, name.Name)
				}
			}
		}
		return false
	})
	if len(parts) < 5 {
		t.Fatalf("only %d exported fields in host.Host: the parse missed the struct", len(parts))
	}
	return parts
}

// TestArchitectureNamesEveryPackage: ARCHITECTURE.md names every package
// of the module by its path, every repository path it names exists, and it
// names every part of the host (h.Servers, h.Tools, …).
func TestArchitectureNamesEveryPackage(t *testing.T) {
	text, spans := docSpans(t)
	named := map[string]bool{}
	for _, s := range spans {
		named[strings.TrimSuffix(s, "/")] = true
	}
	for _, p := range modulePackages(t) {
		if !named[p] {
			t.Errorf("%s does not name package %s: add it, in backticks, where its concern is described", architecture, p)
		}
	}

	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	topDirs := map[string]bool{}
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			topDirs[e.Name()] = true
		}
	}
	checked := 0
	for _, s := range spans {
		if !repoPath(s, topDirs) {
			continue
		}
		checked++
		pattern := placeholder.ReplaceAllString(strings.TrimSuffix(s, "/"), "*")
		if m, err := filepath.Glob(filepath.FromSlash(pattern)); err != nil || len(m) == 0 {
			t.Errorf("%s names `%s`, which does not exist: fix the path or drop it", architecture, s)
		}
	}
	if checked < 50 {
		t.Fatalf("only %d paths checked in %s: the span scan missed them", checked, architecture)
	}

	for _, part := range hostParts(t) {
		if !strings.Contains(text, "h."+part) {
			t.Errorf("%s does not name the host's part h.%s: add it to \"The host's parts\"", architecture, part)
		}
	}
}
