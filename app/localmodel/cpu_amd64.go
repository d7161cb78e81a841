package localmodel

import "golang.org/x/sys/cpu"

// cpuCanRun says whether this CPU has what the shipped runtime is built
// for: build/llama/build.sh builds one CPU backend for x86-64 with AVX2,
// FMA and BMI2 (every x86-64 CPU since 2013–2015), not one per CPU
// generation, which would take an hour to build here. Without them
// llama-server would die of an illegal instruction; Start says so first.
func cpuCanRun() bool {
	return cpu.X86.HasAVX2 && cpu.X86.HasFMA && cpu.X86.HasBMI2 && cpu.X86.HasSSE42
}
