//go:build llama && linux

package localmodel_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/localmodel"
)

// The Linux runtime carries ggml's CPU backend once per x86-64 generation
// and loads the best this CPU runs; Status and the log name it (the app
// reads it from llama-server's memory map: llama-server logs it only at a
// verbosity that floods its log).
func TestRuntimeNamesTheCPUBackendItLoaded(t *testing.T) {
	bin := os.Getenv("SWITCHBOARD_LLAMA_SERVER")
	v := localmodel.CPUVariants(bin)
	for _, want := range []string{"x64", "sse42", "haswell"} {
		if !slices.Contains(v, want) {
			t.Fatalf("CPU backends beside %s: %v, no %s (build/llama/build.sh puts the package's there)", bin, v, want)
		}
	}
	s, log := runtimeFor(t)
	ask(t, s)
	cpu := s.Status().CPU
	if !slices.Contains(v, cpu) {
		t.Fatalf("Status().CPU = %q, not one of %v", cpu, v)
	}
	if out, _ := os.ReadFile(log); !strings.Contains(string(out), "runs on ggml's CPU backend "+cpu+" (") {
		t.Fatalf("the log does not name the CPU backend %s", cpu)
	}
}

// A CPU without AVX (before 2011) gets ggml's SSE4.2 backend: the runtime
// given only that one (this machine has AVX2, which would choose a newer
// one) answers a chat, and its log and Status name it.
func TestRuntimeAnswersWithTheSSE42Backend(t *testing.T) {
	bin := os.Getenv("SWITCHBOARD_LLAMA_SERVER")
	dir := t.TempDir()
	ents, err := os.ReadDir(filepath.Dir(bin))
	if err != nil {
		t.Fatal(err)
	}
	// The binary and the SSE4.2 backend are copied (ggml looks for
	// backends beside the executable's real path, which a symbolic link
	// would lead back from, and the memory map names a library by its
	// real path); the other libraries are linked, the other CPU backends
	// left out.
	copyFile := func(name string, mode os.FileMode) {
		data, err := os.ReadFile(filepath.Join(filepath.Dir(bin), name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, mode); err != nil {
			t.Fatal(err)
		}
	}
	copyFile(filepath.Base(bin), 0o700)
	copyFile("libggml-cpu-sse42.so", 0o600)
	for _, e := range ents {
		n := e.Name()
		if !strings.HasSuffix(n, ".so") || strings.HasPrefix(n, "libggml-cpu-") {
			continue
		}
		if err := os.Symlink(filepath.Join(filepath.Dir(bin), n), filepath.Join(dir, n)); err != nil {
			t.Fatal(err)
		}
	}
	one := filepath.Join(dir, filepath.Base(bin))
	if v := localmodel.CPUVariants(one); !slices.Equal(v, []string{"sse42"}) {
		t.Fatalf("CPU backends beside the copy: %v", v)
	}
	s, log := runtimeAt(t, one)
	ask(t, s)
	if cpu := s.Status().CPU; cpu != "sse42" {
		t.Fatalf("Status().CPU = %q, want sse42", cpu)
	}
	out, _ := os.ReadFile(log)
	if want := "runs on ggml's CPU backend sse42 (" + filepath.Join(dir, "libggml-cpu-sse42.so") + ")"; !strings.Contains(string(out), want) {
		t.Fatalf("the log does not say %q", want)
	}
}
