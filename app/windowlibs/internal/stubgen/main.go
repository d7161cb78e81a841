// Command stubgen writes package windowlibs' stubs from a binary linked the
// ordinary way (built with the windowlibs_eager tag): every function the
// binary takes from a library it links, but for the C library's own
// (libc, libm, libdl, libpthread, librt, the loader), gets a trampoline that
// jumps through a slot, and the slot's library is recorded so that
// windowlibs.Load can dlopen it and fill the slot. 'make windowlibs-stubs'
// builds that binary and runs it:
//
//	go run ./app/windowlibs/internal/stubgen -bin /tmp/switchboard-eager -dir app/windowlibs
//
// It refuses a binary that takes data (not functions) from those libraries:
// a trampoline can stand in only for a function.
package main

import (
	"bytes"
	"debug/elf"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// system libraries are glibc's: always loaded, never stubbed.
var system = []string{"libc.so", "libm.so", "libdl.so", "libpthread.so", "librt.so", "ld-linux", "libresolv.so"}

func main() {
	bin := flag.String("bin", "", "a Switchboard binary built with -tags windowlibs_eager (required)")
	dir := flag.String("dir", "app/windowlibs", "the package directory to write the stubs into")
	flag.Parse()
	if *bin == "" {
		fmt.Fprintln(os.Stderr, "stubgen: -bin is required (make windowlibs-stubs builds it)")
		os.Exit(2)
	}
	if err := run(*bin, *dir); err != nil {
		fmt.Fprintln(os.Stderr, "stubgen:", err)
		os.Exit(1)
	}
}

// stub is one function a trampoline stands in for, and the index of the
// library (in libs) that defines it.
type stub struct {
	name string
	lib  int
}

func run(bin, dir string) error {
	libs, stubs, err := collect(bin)
	if err != nil {
		return err
	}
	if len(stubs) == 0 {
		return fmt.Errorf("%s takes no function from a library but glibc's: was it built with -tags windowlibs_eager and the window's tags?", bin)
	}
	if err := os.WriteFile(filepath.Join(dir, "stubs_linux_amd64.S"), assembly(stubs), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "table_linux_amd64.c"), table(libs, stubs), 0o644)
}

// collect reads bin's needed libraries and the undefined functions it takes
// from them, in the order of its dynamic symbol table.
func collect(bin string) ([]string, []stub, error) {
	f, err := elf.Open(bin)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	needed, err := f.ImportedLibraries()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", bin, err)
	}
	paths, err := ldcache()
	if err != nil {
		return nil, nil, err
	}
	var libs []string
	defines := map[string]int{} // function -> index in libs
	for _, so := range needed {
		if isSystem(so) {
			continue
		}
		p, ok := paths[so]
		if !ok {
			return nil, nil, fmt.Errorf("%s needs %s, which ldconfig -p does not list", bin, so)
		}
		if err := definitions(p, len(libs), defines); err != nil {
			return nil, nil, err
		}
		libs = append(libs, so)
	}
	syms, err := f.DynamicSymbols()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", bin, err)
	}
	var stubs []stub
	seen := map[string]bool{}
	for _, s := range syms {
		name, _, _ := strings.Cut(s.Name, "@")
		if s.Section != elf.SHN_UNDEF || seen[name] {
			continue
		}
		seen[name] = true
		i, ok := defines[name]
		switch {
		case ok && i < 0:
			return nil, nil, fmt.Errorf("%s takes the data symbol %s from %s: only functions can be stubbed; link that library the ordinary way", bin, name, libs[-i-1])
		case ok:
			stubs = append(stubs, stub{name, i})
		}
	}
	slices.SortFunc(stubs, func(a, b stub) int { return strings.Compare(a.name, b.name) })
	return libs, stubs, nil
}

// definitions records what the library at path defines: functions as lib,
// data as -lib-1. The first library to define a name keeps it, as the
// loader's search order would.
func definitions(path string, lib int, into map[string]int) error {
	f, err := elf.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	syms, err := f.DynamicSymbols()
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	for _, s := range syms {
		name, _, _ := strings.Cut(s.Name, "@")
		if s.Section == elf.SHN_UNDEF || name == "" {
			continue
		}
		if _, ok := into[name]; ok {
			continue
		}
		switch elf.ST_TYPE(s.Info) {
		case elf.STT_FUNC, elf.STT_GNU_IFUNC:
			into[name] = lib
		case elf.STT_OBJECT, elf.STT_TLS, elf.STT_COMMON:
			into[name] = -lib - 1
		}
	}
	return nil
}

func isSystem(so string) bool {
	return slices.ContainsFunc(system, func(p string) bool { return strings.HasPrefix(so, p) })
}

// ldcache maps each soname of this machine's architecture to its path.
func ldcache() (map[string]string, error) {
	out, err := exec.Command("/sbin/ldconfig", "-p").Output()
	if err != nil {
		return nil, fmt.Errorf("ldconfig -p: %w", err)
	}
	paths := map[string]string{}
	for line := range strings.Lines(string(out)) {
		so, rest, ok := strings.Cut(strings.TrimSpace(line), " (")
		_, p, ok2 := strings.Cut(rest, "=> ")
		if !ok || !ok2 || !strings.Contains(rest, "x86-64") {
			continue
		}
		if _, dup := paths[so]; !dup {
			paths[so] = strings.TrimSpace(p)
		}
	}
	if len(paths) == 0 {
		return nil, errors.New("ldconfig -p listed no x86-64 libraries")
	}
	return paths, nil
}

const header = "// Code generated by app/windowlibs/internal/stubgen; DO NOT EDIT.\n\n//go:build linux && amd64 && cgo && webkit2_41 && (dev || production) && !bindings && !windowlibs_eager\n\n"

// assembly writes one trampoline per function, its lazy entry and its slot.
// A trampoline jumps through its slot; a slot starts at the lazy entry,
// which pushes the stub's index and goes to windowlibs_lazy (lazy_amd64.S).
// The symbols are hidden: the binary's own calls bind to them, while the
// loaded libraries, which the binary's exported symbols would otherwise
// interpose, keep calling one another directly.
func assembly(stubs []stub) []byte {
	var b bytes.Buffer
	b.WriteString(header)
	b.WriteString("\t.text\n")
	for i, s := range stubs {
		fmt.Fprintf(&b, "\t.p2align 4\n\t.globl %[1]s\n\t.hidden %[1]s\n\t.type %[1]s, @function\n%[1]s:\n\tjmp *windowlibs_slots+%[2]d(%%rip)\n\t.size %[1]s, .-%[1]s\n", s.name, 8*i)
	}
	for i := range stubs {
		fmt.Fprintf(&b, "windowlibs_lazy_%[1]d:\n\tpushq $%[1]d\n\tjmp windowlibs_lazy\n", i)
	}
	b.WriteString("\n\t.data\n\t.p2align 3\n\t.globl windowlibs_slots\n\t.hidden windowlibs_slots\nwindowlibs_slots:\n")
	for i := range stubs {
		fmt.Fprintf(&b, "\t.quad windowlibs_lazy_%d\n", i)
	}
	b.WriteString("\n\t.section .note.GNU-stack,\"\",@progbits\n")
	return b.Bytes()
}

// table writes the names, their libraries and the libraries' sonames.
func table(libs []string, stubs []stub) []byte {
	var b bytes.Buffer
	b.WriteString(header)
	b.WriteString("#include \"windowlibs.h\"\n\nconst char *const windowlibs_sonames[] = {\n")
	for _, so := range libs {
		fmt.Fprintf(&b, "\t%q,\n", so)
	}
	fmt.Fprintf(&b, "};\nconst int windowlibs_nlibs = %d;\n\nconst struct windowlibs_stub windowlibs_stubs[] = {\n", len(libs))
	for _, s := range stubs {
		fmt.Fprintf(&b, "\t{%q, %d},\n", s.name, s.lib)
	}
	fmt.Fprintf(&b, "};\nconst int windowlibs_count = %d;\n", len(stubs))
	return b.Bytes()
}
