package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A small C program that calls two GLib functions and libc's puts: the
// stubs are GLib's two, each with its library, and libc's are left alone;
// the assembly hides each trampoline and jumps through its own slot.
func TestStubsOfAProgramLinkedTheOrdinaryWay(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "p.c")
	if err := os.WriteFile(src, []byte("#include <glib.h>\n#include <stdio.h>\nint main(void) { char *s = g_strdup(\"x\"); puts(s); g_free(s); return 0; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	flags, err := exec.CommandContext(t.Context(), "pkg-config", "--cflags", "--libs", "glib-2.0").Output()
	if err != nil {
		t.Fatalf("pkg-config glib-2.0 (make deps-build installs it with GTK's headers): %v", err)
	}
	bin := filepath.Join(dir, "p")
	args := append([]string{"-o", bin, src}, strings.Fields(string(flags))...)
	if out, err := exec.CommandContext(t.Context(), "cc", args...).CombinedOutput(); err != nil {
		t.Fatalf("cc: %v\n%s", err, out)
	}
	libs, stubs, err := collect(bin)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(libs, []string{"libglib-2.0.so.0"}) {
		t.Fatalf("libraries = %v, want GLib's alone (libc is the system's)", libs)
	}
	want := []stub{{"g_free", 0}, {"g_strdup", 0}}
	if !slices.Equal(stubs, want) {
		t.Fatalf("stubs = %v, want %v", stubs, want)
	}
	asm := string(assembly(stubs))
	for _, line := range []string{".hidden g_free", "g_free:\n\tjmp *windowlibs_slots+0(%rip)", "g_strdup:\n\tjmp *windowlibs_slots+8(%rip)", ".quad windowlibs_lazy_1", ".note.GNU-stack"} {
		if !strings.Contains(asm, line) {
			t.Errorf("the assembly lacks %q:\n%s", line, asm)
		}
	}
	if tab := string(table(libs, stubs)); !strings.Contains(tab, "{\"g_strdup\", 0},") || !strings.Contains(tab, "windowlibs_count = 2;") {
		t.Errorf("the table:\n%s", tab)
	}
}
