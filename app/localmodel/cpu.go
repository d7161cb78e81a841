package localmodel

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// CPUVariants are the CPU backends beside the runtime binary: ggml's
// libggml-cpu-VARIANT.so (ggml-cpu-VARIANT.dll on Windows), one for each
// x86-64 generation in the runtime build/llama/build.sh makes on Linux
// (x64, sse42, sandybridge, haswell, ..., zen4), of which llama-server
// loads the best this CPU runs when it starts. None for a runtime linked
// statically with one CPU backend (the Windows build, a Mac's).
func CPUVariants(binary string) []string {
	pre, ext := "libggml-cpu-", ".so"
	if strings.HasSuffix(binary, ".exe") {
		pre, ext = "ggml-cpu-", ".dll"
	}
	ents, err := os.ReadDir(filepath.Dir(binary))
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		n := e.Name()
		if strings.HasPrefix(n, pre) && strings.HasSuffix(n, ext) && len(n) > len(pre)+len(ext) {
			out = append(out, strings.TrimSuffix(strings.TrimPrefix(n, pre), ext))
		}
	}
	sort.Strings(out)
	return out
}

// cpuBackendIn is the CPU variant and file a process's memory map (Linux's
// /proc/PID/maps) shows it loaded: the libggml-cpu-VARIANT.so ggml chose
// for this CPU; "" when none (a runtime with one built in).
func cpuBackendIn(maps string) (variant, file string) {
	for line := range strings.Lines(maps) {
		f := strings.Fields(line)
		if len(f) < 6 {
			continue
		}
		path := strings.Join(f[5:], " ")
		n := filepath.Base(path)
		if v, ok := strings.CutPrefix(n, "libggml-cpu-"); ok && strings.HasSuffix(v, ".so") && len(v) > len(".so") {
			return strings.TrimSuffix(v, ".so"), path
		}
	}
	return "", ""
}
