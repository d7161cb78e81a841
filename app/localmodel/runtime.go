package localmodel

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// RuntimeVersion names the llama.cpp release the runtime is built from:
// node-llama-cpp's pinned copy (build/llama/build.sh), whose cache
// directory carries it.
const RuntimeVersion = "node-llama-cpp-3.22.1"

// RuntimeCacheDir is where build/llama/build.sh builds the runtime by
// default (the Makefile's LLAMA_DIR): bin/llama-server, and src/, llama.cpp's
// source. On Linux it is named after the node-llama-cpp package whose
// prebuilt libraries it holds beside llama-server (so a cache of the
// older, wholly compiled layout is not taken for one).
func RuntimeCacheDir() (string, error) {
	c, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(c, "switchboard", runtimeCache()), nil
}

func runtimeCache() string {
	if runtime.GOOS == "linux" {
		switch runtime.GOARCH {
		case "amd64":
			return "llama-" + RuntimeVersion + "-linux-x64"
		case "arm64":
			return "llama-" + RuntimeVersion + "-linux-arm64"
		}
	}
	return "llama-" + RuntimeVersion
}

// FindRuntime is the llama-server the app runs, the first that exists of:
// $SWITCHBOARD_LLAMA_SERVER; beside the executable (the .tar.gz and the
// Windows installer); ../lib/switchboard/ from it (the .deb); the build
// cache (a developer's `make test-llama`, or `make run` after one). It
// wraps ErrNoRuntime, naming the places looked in, when none does.
func FindRuntime() (string, error) {
	name := "llama-server"
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	var places []string
	if p := os.Getenv("SWITCHBOARD_LLAMA_SERVER"); p != "" {
		places = append(places, p)
	}
	if exe, err := os.Executable(); err == nil {
		if r, err := filepath.EvalSymlinks(exe); err == nil {
			exe = r
		}
		dir := filepath.Dir(exe)
		places = append(places, filepath.Join(dir, name), filepath.Join(dir, "..", "lib", "switchboard", name))
	}
	if c, err := RuntimeCacheDir(); err == nil {
		places = append(places, filepath.Join(c, "bin", name))
	}
	for _, p := range places {
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
	}
	return "", &RuntimeError{Places: places}
}

// RuntimeError says where the runtime was looked for.
type RuntimeError struct{ Places []string }

func (e *RuntimeError) Error() string {
	return ErrNoRuntime.Error() + ": reinstall Switchboard, or build it from the source tree with `make llama` (looked in " + strings.Join(e.Places, ", ") + ")"
}

func (e *RuntimeError) Unwrap() error { return ErrNoRuntime }
