//go:build llama && linux

package localmodel_test

import "testing"

// Only the app reaches llama-server itself (checkAppAlone,
// reach_linux_test.go): its key is not in its argv, and it listens on a
// Unix socket in a private directory, on no TCP port.
func TestRuntimeIsReachedByTheAppAlone(t *testing.T) {
	s, _ := runtimeFor(t)
	ask(t, s)
	checkAppAlone(t, s, "llama-server")
}
