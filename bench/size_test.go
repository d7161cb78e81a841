//go:build bench

package bench_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// benchSize: the binary and each package 'make package' built, and what
// takes the binary's space (symbol sizes summed by module).
func benchSize(t *testing.T, tb *table, bin string) {
	st, err := os.Stat(bin)
	if err != nil {
		t.Fatal(err)
	}
	// The binary is stripped: the same build with its symbols says what
	// takes the space.
	repo, _ := filepath.Abs("..")
	syms := filepath.Join(t.TempDir(), "switchboard-symbols")
	build := exec.Command("go", "build", "-tags", "webkit2_41,production", "-trimpath", "-o", syms, ".")
	build.Dir = repo
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build with symbols: %v\n%s", err, out)
	}
	tb.add("size: the app binary (build/bin/switchboard, stripped; "+topModules(t, syms)+")", mb(st.Size()/1024), "", 0, "")
	pkgs, _ := filepath.Glob(filepath.Join(filepath.Dir(filepath.Dir(bin)), "package", "*"))
	for _, p := range pkgs {
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			tb.add("size: package "+filepath.Base(p), mb(st.Size()/1024), "", 0, "")
		}
	}
	if len(pkgs) == 0 {
		t.Log("no packages in build/package: run 'make package' first to have their sizes in the table")
	}
}

// topModules sums the binary's symbol sizes by module (or by standard
// library / cgo) and names the five largest with their share.
func topModules(t *testing.T, bin string) string {
	out, err := exec.Command("go", "tool", "nm", "-size", bin).Output()
	if err != nil {
		t.Fatalf("go tool nm: %v", err)
	}
	by := map[string]int64{}
	var total int64
	for _, l := range strings.Split(string(out), "\n") {
		f := strings.Fields(l)
		if len(f) < 4 {
			continue
		}
		size, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil || size == 0 || !strings.Contains("TtRrDd", f[2]) { // code and data; not bss (no file space)
			continue
		}
		by[module(strings.Join(f[3:], " "))] += size
		total += size
	}
	names := make([]string, 0, len(by))
	for n := range by {
		names = append(names, n)
	}
	slices.SortFunc(names, func(a, b string) int { return int(by[b] - by[a]) })
	var parts []string
	for _, n := range names[:min(5, len(names))] {
		parts = append(parts, fmt.Sprintf("%s %.0f%%", n, 100*float64(by[n])/float64(total)))
	}
	return "symbols: " + strings.Join(parts, ", ")
}

// module names a symbol's owner: the module path for github.com/… and
// similar, "embedded frontend" for the assets, "Go runtime and std" for
// the rest of the Go symbols, "C (cgo: GTK/WebKit glue)" for C symbols.
func module(sym string) string {
	sym = strings.TrimPrefix(sym, "type:")
	if strings.Contains(sym, "embed") && strings.Contains(sym, "assets") {
		return "embedded frontend"
	}
	p := sym
	if i := strings.IndexAny(p, "(*["); i > 0 {
		p = p[:i]
	}
	parts := strings.Split(p, "/")
	if len(parts) >= 3 && strings.Contains(parts[0], ".") {
		return strings.Join(parts[:3], "/")
	}
	if strings.Contains(parts[0], ".") && !strings.HasPrefix(sym, "_") {
		return "Go runtime and std"
	}
	return "C (cgo: GTK/WebKit glue)"
}
