//go:build windows

package process

// watch is a no-op on Windows, where children are ended with taskkill /T.
func watch(int, bool) {}
