package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestBinaryContract builds the real binary and checks the CLI contract
// scripts depend on: exit codes, usage line, --help, version.
func TestBinaryContract(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "switchboard")
	build := exec.CommandContext(t.Context(), "go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	home := t.TempDir() // never touch the real user's config dir
	cases := []struct {
		args   []string
		code   int
		stdout *regexp.Regexp
		stderr *regexp.Regexp
	}{
		{[]string{"version"}, 0, regexp.MustCompile(`^switchboard \S+ \(go1\.\S+ \w+/\w+\)\n$`), nil},
		{[]string{"--help"}, 0, regexp.MustCompile(`(?s)usage: switchboard .*Commands:.*version.*Exit codes`), nil},
		{[]string{"nosuchcmd"}, 2, regexp.MustCompile(`^$`), regexp.MustCompile(`(?m)^usage: switchboard `)},
		{[]string{"--data-dir"}, 2, nil, regexp.MustCompile(`flag needs an argument`)},
		// A plain 'go build' has no window: no subcommand is a runtime error that says how to get one.
		{[]string{"--data-dir", filepath.Join(home, "d")}, 1, nil, regexp.MustCompile(`built without the GUI; build the app with 'make build'`)},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, "_"), func(t *testing.T) {
			cmd := exec.CommandContext(t.Context(), bin, c.args...)
			cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+home, "HOME="+home, "SWITCHBOARD_DATA_DIR=")
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != c.code {
				t.Fatalf("exit %d, want %d\nstderr: %s", code, c.code, stderr.String())
			}
			if c.stdout != nil && !c.stdout.MatchString(stdout.String()) {
				t.Errorf("stdout %q does not match %v", stdout.String(), c.stdout)
			}
			if c.stderr != nil && !c.stderr.MatchString(stderr.String()) {
				t.Errorf("stderr %q does not match %v", stderr.String(), c.stderr)
			}
		})
	}
}
