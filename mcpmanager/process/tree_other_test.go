//go:build !linux

package process

// removeBuilds has nothing to remove: the setsid tests are Linux only.
func removeBuilds() {}
