package localmodel

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestCPUVariantsAreTheBackendsBesideTheBinary(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"llama-server", "libggml-base.so", "libggml-cpu-x64.so", "libggml-cpu-haswell.so", "libggml-cpu-.so", "libllama.v0.5.0.so", "ggml-cpu-zen4.dll"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if v := CPUVariants(filepath.Join(dir, "llama-server")); !slices.Equal(v, []string{"haswell", "x64"}) {
		t.Fatalf("variants = %v", v)
	}
	if v := CPUVariants(filepath.Join(dir, "llama-server.exe")); !slices.Equal(v, []string{"zen4"}) {
		t.Fatalf("Windows variants = %v", v)
	}
	if v := CPUVariants(filepath.Join(t.TempDir(), "llama-server")); v != nil {
		t.Fatalf("a static runtime has variants %v", v)
	}
	// Any x86-64 CPU runs a runtime with ggml's baseline backend.
	if !cpuCanRun(filepath.Join(dir, "llama-server")) {
		t.Fatal("a runtime with libggml-cpu-x64.so refused this CPU")
	}
}

// The CPU backend ggml loaded is the libggml-cpu-*.so in the process's
// memory map.
func TestCPUBackendIsReadFromTheMemoryMap(t *testing.T) {
	maps := `55d0c0a00000-55d0c0a4b000 r--p 00000000 08:01 1311 /opt/sb dir/llama-server
7f1c2c000000-7f1c2c021000 rw-p 00000000 00:00 0
7f1c30a00000-7f1c30a3c000 r--p 00000000 08:01 1320 /opt/sb dir/libggml-base.so
7f1c30b00000-7f1c30b2c000 r--p 00000000 08:01 1321 /opt/sb dir/libggml-cpu-sandybridge.so
7f1c30b2c000-7f1c30bdc000 r-xp 0002c000 08:01 1321 /opt/sb dir/libggml-cpu-sandybridge.so
7ffd5a3f0000-7ffd5a411000 rw-p 00000000 00:00 0 [stack]
`
	if v, f := cpuBackendIn(maps); v != "sandybridge" || f != "/opt/sb dir/libggml-cpu-sandybridge.so" {
		t.Fatalf("%q, %q", v, f)
	}
	if v, f := cpuBackendIn("7f1c30a00000-7f1c30a3c000 r--p 00000000 08:01 1320 /x/libggml-base.so\n"); v != "" || f != "" {
		t.Fatalf("a static runtime: %q, %q", v, f)
	}
	// This test's own process has no CPU backend loaded.
	if v, _ := cpuBackend(os.Getpid()); v != "" {
		t.Fatalf("this process: %q", v)
	}
}
