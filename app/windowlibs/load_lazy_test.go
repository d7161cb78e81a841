//go:build linux && amd64 && cgo && webkit2_41 && (dev || production) && !bindings && !windowlibs_eager

package windowlibs_test

import (
	"debug/elf"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/windowlibs"
	"github.com/switchboard-app/switchboard/app/windowlibs/internal/selftest"
)

// TestMain lets TestMissingLibrarySaysWhatToInstall run this binary again
// to call Load where a library cannot be loaded.
func TestMain(m *testing.M) {
	if os.Getenv("WINDOWLIBS_TEST_LOAD") == "1" {
		err := windowlibs.Load()
		if err != nil {
			os.Stdout.WriteString(err.Error())
		}
		if errors.Is(err, windowlibs.ErrNotLoaded) {
			os.Exit(3)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// mapped lists the sonames of Libraries this process has mapped.
func mapped(t *testing.T) []string {
	t.Helper()
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		t.Fatal(err)
	}
	var in []string
	for _, so := range windowlibs.Libraries() {
		if strings.Contains(string(maps), "/"+so) {
			in = append(in, so)
		}
	}
	return in
}

// The whole life of the stubs in one process, in order: nothing loaded at
// start, the first call through a stub loads the libraries and arrives
// with all its arguments, Load then finds them loaded.
func TestLibrariesLoadAtTheFirstCall(t *testing.T) {
	libs := windowlibs.Libraries()
	if !slices.Contains(libs, "libwebkit2gtk-4.1.so.0") || !slices.Contains(libs, "libgtk-3.so.0") {
		t.Fatalf("Libraries() = %v, want WebKitGTK 4.1 and GTK 3 among them", libs)
	}
	if in := mapped(t); len(in) > 0 {
		t.Fatalf("before any call, the process already maps %v", in)
	}
	if got, want := selftest.FormatMany(), "1 2 3 4 5 1.500 2.250 six seven"; got != want {
		t.Fatalf("g_strdup_printf through its stub before Load made %q, want %q", got, want)
	}
	if in := mapped(t); len(in) != len(libs) {
		t.Fatalf("after the first call the process maps %v, want all of %v", in, libs)
	}
	if err := windowlibs.Load(); err != nil {
		t.Fatalf("Load after the libraries were loaded: %v", err)
	}
	if got, want := selftest.FormatMany(), "1 2 3 4 5 1.500 2.250 six seven"; got != want {
		t.Fatalf("g_strdup_printf through its filled slot made %q, want %q", got, want)
	}
}

// The binary names none of the window's libraries as needed: the loader
// maps none of them when it starts.
func TestBinaryNeedsOnlyTheCLibrary(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	f, err := elf.Open(exe)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	needed, err := f.ImportedLibraries()
	if err != nil {
		t.Fatal(err)
	}
	for _, so := range needed {
		if slices.Contains(windowlibs.Libraries(), so) {
			t.Errorf("the test binary needs %s (all it needs: %v): the stubs lack a function it calls; run make windowlibs-stubs", so, needed)
		}
	}
}

// A library that cannot be loaded is one error that says what to install,
// and the process runs until it asks for the window.
func TestMissingLibrarySaysWhatToInstall(t *testing.T) {
	dir := t.TempDir()
	// Not a library: the loader finds it first and refuses it.
	if err := os.WriteFile(filepath.Join(dir, "libwebkit2gtk-4.1.so.0"), []byte("not a library\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "WINDOWLIBS_TEST_LOAD=1", "LD_LIBRARY_PATH="+dir)
	out, err := cmd.Output()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 3 {
		t.Fatalf("Load with a broken libwebkit2gtk: err %v, output %q; want exit 3 (ErrNotLoaded)", err, out)
	}
	for _, want := range []string{"libwebkit2gtk-4.1.so.0", "sudo apt install libwebkit2gtk-4.1-0", "switchboard --help"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the error %q does not say %q", out, want)
		}
	}
}
