//go:build !windows

package process

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestLoginPATHKept: the login shell is asked once, and its PATH is kept
// for the next process while the profile files and the folders it names
// are as they were; a kept PATH past LoginPATHRefresh is used and asked
// again for the next.
func TestLoginPATHKept(t *testing.T) {
	home, tmp := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	asked := filepath.Join(tmp, "asked")
	tool := filepath.Join(tmp, "nvm-node-22", "bin")
	if err := os.MkdirAll(tool, 0o700); err != nil {
		t.Fatal(err)
	}
	// A login shell whose profile adds the version manager's folder; it
	// notes each time it is run.
	sh := filepath.Join(tmp, "fakesh")
	script := "#!/bin/sh\necho run >> " + asked + "\nprintf 'motd\\n__SWITCHBOARD_PATH__%s' '" + tool + ":/usr/bin'\n"
	if err := os.WriteFile(sh, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(tmp, "cache", "login-path.json")
	runs := func() int {
		b, _ := os.ReadFile(asked)
		return strings.Count(string(b), "run")
	}
	read := func(want int) {
		t.Helper()
		p, refresh := readLoginPATH(sh, "/bin", file)
		if p != tool+":/usr/bin:/bin" || refresh != nil {
			t.Fatalf("PATH = %q (refresh %v), want the shell's and then the process's own", p, refresh != nil)
		}
		if got := runs(); got != want {
			t.Fatalf("the shell ran %d times, want %d", got, want)
		}
	}
	read(1)
	read(1) // kept
	if err := os.WriteFile(filepath.Join(home, ".profile"), []byte("export PATH=$HOME/bin:$PATH\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	read(2) // a profile changed
	read(2)
	if err := os.Remove(tool); err != nil {
		t.Fatal(err)
	}
	if p, _ := readLoginPATH(sh, "/bin", file); runs() != 3 || p != tool+":/usr/bin:/bin" {
		t.Fatalf("a folder of the kept PATH went away: PATH %q after %d runs, want it asked again", p, runs())
	}
	if err := os.MkdirAll(tool, 0o700); err != nil {
		t.Fatal(err)
	}
	read(4) // and came back
	if _, refresh := readLoginPATH(sh, "/usr/local/bin", file); refresh != nil || runs() != 5 {
		t.Fatalf("another own PATH: %d runs, want one more", runs())
	}

	// Kept long ago: used now, asked again for the next process.
	var k keptLogin
	b, _ := os.ReadFile(file)
	if err := json.Unmarshal(b, &k); err != nil {
		t.Fatal(err)
	}
	k.At = time.Now().Add(-2 * LoginPATHRefresh)
	b, _ = json.Marshal(k)
	if err := os.WriteFile(file, b, 0o600); err != nil {
		t.Fatal(err)
	}
	p, refresh := readLoginPATH(sh, "/usr/local/bin", file)
	if p != tool+":/usr/bin:/usr/local/bin" || refresh == nil || runs() != 5 {
		t.Fatalf("an old kept PATH: %q, refresh %v, %d runs; want it used, with a refresh to run", p, refresh != nil, runs())
	}
	refresh()
	if _, at, ok := keptPATH(file, loginKey(sh, "/usr/local/bin")); !ok || runs() != 6 || time.Since(at) > time.Minute {
		t.Fatalf("after the refresh: kept %v at %v, %d runs", ok, at, runs())
	}

	// A shell that fails leaves the process's own PATH, and nothing kept.
	if p, _ := readLoginPATH(filepath.Join(tmp, "no-such-shell"), "/bin", filepath.Join(tmp, "other.json")); p != "/bin" {
		t.Errorf("PATH with a shell that does not run = %q, want the own", p)
	}
	if _, err := os.Stat(filepath.Join(tmp, "other.json")); err == nil {
		t.Error("a failed shell's PATH was kept")
	}
}
