package localmodel

import (
	"slices"

	"golang.org/x/sys/cpu"
)

// cpuCanRun says whether this CPU can run the runtime binary. With ggml's
// CPU backends beside it (CPUVariants: the Linux runtime) it can when one
// of them needs no more than this CPU has: x64 (any x86-64 CPU) or sse42,
// else (a runtime with only newer variants) the check below. A runtime
// linked statically with one CPU backend (the Windows build) is built for
// x86-64 with AVX2, FMA and BMI2 (every x86-64 CPU since 2013–2015):
// without them llama-server would die of an illegal instruction, so Start
// says so first.
func cpuCanRun(binary string) bool {
	v := CPUVariants(binary)
	if slices.Contains(v, "x64") || slices.Contains(v, "sse42") && cpu.X86.HasSSE42 {
		return true
	}
	return cpu.X86.HasAVX2 && cpu.X86.HasFMA && cpu.X86.HasBMI2 && cpu.X86.HasSSE42
}
