//go:build !linux

package localmodel

// cpuBackend: the runtimes built for Windows and macOS have their CPU
// backend built in (build/llama/build.sh).
func cpuBackend(int) (variant, file string) { return "", "" }
