package bridge

import (
	"os"
	"runtime"
)

// Default is For with this process's environment.
func Default(dataDir string) Address {
	return For(dataDir, Env{GOOS: runtime.GOOS, RuntimeDir: os.Getenv("XDG_RUNTIME_DIR"), TempDir: os.TempDir(), UID: os.Getuid()})
}
