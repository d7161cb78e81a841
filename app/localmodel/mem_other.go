//go:build !linux && !windows && !darwin

package localmodel

// availableMemory is unknown here (0): Fit then chooses FallbackContext
// with a q8 KV cache, which fits any machine a 1.7B model runs on.
func availableMemory() int64 { return 0 }
