package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func run(t *testing.T, args ...string) (code int, stdout, stderr string, gui *GUIOptions) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Run(t.Context(), args, Env{
		Stdout: &out, Stderr: &errb,
		GUI: func(_ context.Context, o GUIOptions) error {
			gui = &o
			return nil
		},
	})
	return code, out.String(), errb.String(), gui
}

func TestExitCodesAndOutput(t *testing.T) {
	t.Setenv("SWITCHBOARD_DATA_DIR", "")
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	cases := []struct {
		name       string
		args       []string
		code       int
		stdout     string // substring
		stderr     string // substring
		wantNoGUI  bool
		stdoutNone bool
	}{
		{name: "version", args: []string{"version"}, code: 0, stdout: "switchboard "},
		{name: "version json", args: []string{"version", "--json"}, code: 0, stdout: `"version": "`},
		{name: "json before command", args: []string{"--json", "version"}, code: 0, stdout: `"go": "go1.`},
		{name: "help flag", args: []string{"--help"}, code: 0, stdout: "Exit codes: 0 success, 1 runtime error, 2 usage"},
		{name: "short help", args: []string{"-h"}, code: 0, stdout: "usage: switchboard"},
		{name: "help command", args: []string{"help"}, code: 0, stdout: "Commands:"},
		{name: "help version", args: []string{"help", "version"}, code: 0, stdout: "usage: switchboard version"},
		{name: "version help", args: []string{"version", "--help"}, code: 0, stdout: "Print the version."},
		{name: "unknown command", args: []string{"nosuchcmd"}, code: 2, stderr: `unknown command "nosuchcmd"`, stdoutNone: true},
		{name: "unknown command usage line", args: []string{"nosuchcmd"}, code: 2, stderr: "\nusage: switchboard "},
		{name: "help unknown", args: []string{"help", "nosuchcmd"}, code: 2, stderr: `unknown command "nosuchcmd"`},
		{name: "unknown flag", args: []string{"--nosuchflag"}, code: 2, stderr: "flag provided but not defined: -nosuchflag"},
		{name: "extra arg", args: []string{"version", "extra"}, code: 2, stderr: `takes no arguments, got "extra"`},
		{name: "data dir needs value", args: []string{"--data-dir"}, code: 2, stderr: "flag needs an argument"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut, gui := run(t, c.args...)
			if code != c.code {
				t.Fatalf("exit %d, want %d; stderr=%q", code, c.code, errOut)
			}
			if !strings.Contains(out, c.stdout) {
				t.Errorf("stdout %q lacks %q", out, c.stdout)
			}
			if !strings.Contains(errOut, c.stderr) {
				t.Errorf("stderr %q lacks %q", errOut, c.stderr)
			}
			if c.stdoutNone && out != "" {
				t.Errorf("stdout should be empty on error, got %q", out)
			}
			if gui != nil {
				t.Errorf("GUI launched for %v", c.args)
			}
		})
	}
}

func TestNoCommandLaunchesGUIWithDataDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	code, _, errOut, gui := run(t, "--data-dir", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if gui == nil || gui.DataDir.String() != dir {
		t.Fatalf("GUI options = %+v, want data dir %s", gui, dir)
	}

	t.Setenv("SWITCHBOARD_DATA_DIR", dir+"-env")
	_, _, _, gui = run(t)
	if gui == nil || gui.DataDir.String() != dir+"-env" {
		t.Fatalf("GUI options = %+v, want env data dir", gui)
	}
}

func TestGUIErrorIsRuntimeError(t *testing.T) {
	var errb bytes.Buffer
	code := Run(t.Context(), nil, Env{Stdout: &bytes.Buffer{}, Stderr: &errb,
		GUI: func(context.Context, GUIOptions) error { return errors.New("no display") }})
	if code != ExitRuntime || !strings.Contains(errb.String(), "switchboard: no display") {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
}

func TestParseInterspersed(t *testing.T) {
	cases := []struct {
		args    []string
		pos     []string
		dry     bool
		wantErr bool
	}{
		{args: []string{"FILE", "--dry-run"}, pos: []string{"FILE"}, dry: true},
		{args: []string{"--dry-run", "A", "B"}, pos: []string{"A", "B"}, dry: true},
		{args: []string{"A", "--", "--dry-run"}, pos: []string{"A", "--dry-run"}},
		{args: []string{"-", "x"}, pos: []string{"-", "x"}},
		{args: []string{"A", "--bogus"}, wantErr: true},
	}
	for _, c := range cases {
		var g Globals
		fs := newFlagSet("t", &g, &Command{}, &bytes.Buffer{})
		dry := fs.Bool("dry-run", false, "")
		pos, err := parseInterspersed(fs, c.args)
		if (err != nil) != c.wantErr {
			t.Fatalf("%v: err %v", c.args, err)
		}
		if c.wantErr {
			continue
		}
		if strings.Join(pos, "|") != strings.Join(c.pos, "|") || *dry != c.dry {
			t.Errorf("%v: pos %q dry %v, want %q %v", c.args, pos, *dry, c.pos, c.dry)
		}
	}
}

func TestFileArgumentOpensTheWindowWithIt(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(existing, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	cases := []struct {
		name  string
		args  []string
		files []string // nil: no GUI, a usage error
	}{
		{name: "bundle not yet on disk", args: []string{"--data-dir", dir, "weather.mcpb"}, files: []string{filepath.Join(dir, "weather.mcpb")}},
		{name: "absolute bundle", args: []string{"/tmp/x/Weather.MCPB"}, files: []string{"/tmp/x/Weather.MCPB"}},
		{name: "existing file", args: []string{"notes.txt"}, files: []string{existing}},
		{name: "command wins", args: []string{"version"}},
		{name: "unknown word", args: []string{"nosuchthing"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, errOut, gui := run(t, c.args...)
			if c.files == nil {
				if gui != nil {
					t.Fatalf("GUI launched for %v", c.args)
				}
				return
			}
			if code != 0 || gui == nil {
				t.Fatalf("exit %d, gui %v: %s", code, gui, errOut)
			}
			if !slices.Equal(gui.Files, c.files) {
				t.Fatalf("files = %q, want %q", gui.Files, c.files)
			}
			// A second launch with the same arguments hands the same files over.
			if got := GUIFiles(c.args, dir); !slices.Equal(got, c.files) {
				t.Fatalf("GUIFiles = %q, want %q", got, c.files)
			}
		})
	}
}
