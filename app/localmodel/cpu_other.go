//go:build !amd64

package localmodel

// cpuCanRun: off x86-64 (Apple silicon, arm64 Linux) the runtime is built
// for the CPU family's baseline, which every such CPU has.
func cpuCanRun(string) bool { return true }
