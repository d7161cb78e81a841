package sandbox_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/process"
	"github.com/switchboard-app/switchboard/mcpmanager/sandbox"
)

// fakeHome makes a home folder with a secret in ~/.ssh, points $HOME (and
// so os.UserHomeDir, the home the sandbox guards) at it, and returns it
// with the secret's text.
func fakeHome(t *testing.T) (home, secret string) {
	t.Helper()
	home = filepath.Join(t.TempDir(), "home")
	if err := os.MkdirAll(filepath.Join(home, ".ssh"), 0o700); err != nil {
		t.Fatal(err)
	}
	secret = "secret-of-" + t.Name()
	if err := os.WriteFile(filepath.Join(home, ".ssh", "id_secret"), []byte(secret), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	return home, secret
}

// escape runs `sh -c script sh ARGS...` sandboxed under p (real bubblewrap)
// and returns what it printed, or Prepare's error: a sandbox that refuses
// to start is not an escape.
func escape(t *testing.T, p sandbox.Policy, script string, args ...string) (string, error) {
	t.Helper()
	return escapeWith(t, "/bin/sh", p, script, args...)
}

func escapeWith(t *testing.T, shell string, p sandbox.Policy, script string, args ...string) (string, error) {
	t.Helper()
	env := []string{"HOME=" + os.Getenv("HOME"), "PATH=/usr/bin:/bin"}
	spec, err := sandbox.Prepare(t.Context(), process.Spec{Command: shell, Args: append([]string{"-c", script, "sh"}, args...), Env: env}, p)
	if err != nil {
		return "", err
	}
	cmd := exec.CommandContext(t.Context(), spec.Command, spec.Args...)
	cmd.Env, cmd.Dir = spec.Env, spec.Dir
	out, _ := cmd.CombinedOutput()
	return string(out), nil
}

// refused checks that err is the one sentence a refused bind gives: it
// names the path and says what to do.
func refused(t *testing.T, err error, path string) {
	t.Helper()
	var se *sandbox.Error
	if !errors.As(err, &se) || !errors.Is(err, sandbox.ErrEscape) {
		t.Fatalf("Prepare = %v; want a *sandbox.Error wrapping ErrEscape", err)
	}
	if !strings.Contains(err.Error(), path) {
		t.Errorf("the refusal does not name %s: %v", path, err)
	}
}

// TestEscapeThroughLinkTheServerMade: an argument naming a path that does
// not exist yet, inside a folder the server may write, is created by the
// server as a link to the home; the next start refuses it.
func TestEscapeThroughLinkTheServerMade(t *testing.T) {
	home, secret := fakeHome(t)
	w := filepath.Join(t.TempDir(), "w")
	if err := os.Mkdir(w, 0o755); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(w, "data")
	p := sandbox.Policy{AllowWrite: []string{w}}
	// First start: the path does not exist, so nothing is bound for it; the
	// server makes it, in a folder it may write, a link to the home.
	if out, err := escape(t, p, `ln -s "`+home+`" "`+data+`" && echo made`, data); err != nil || !strings.Contains(out, "made") {
		t.Fatalf("first start: %q, %v", out, err)
	}
	if target, err := os.Readlink(data); err != nil || target != home {
		t.Fatalf("the server's link: %q, %v", target, err)
	}
	out, err := escape(t, p, `cat "$1/.ssh/id_secret"; cat "`+home+`/.ssh/id_secret"`, data)
	if strings.Contains(out, secret) {
		t.Fatalf("the next start read the home through the link the server made: %q", out)
	}
	refused(t, err, data)
}

// TestEscapeThroughNestedWritable: a folder the entry lets the server
// write, inside another one it may write (or inside its writable roots),
// replaced by a link to the home: the next start refuses it instead of
// binding the home read-write.
func TestEscapeThroughNestedWritable(t *testing.T) {
	for _, viaRoots := range []bool{false, true} {
		t.Run(map[bool]string{false: "allowWrite", true: "roots"}[viaRoots], func(t *testing.T) {
			home, _ := fakeHome(t)
			outer := filepath.Join(t.TempDir(), "outer")
			inner := filepath.Join(outer, "inner")
			if err := os.MkdirAll(outer, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(home, inner); err != nil { // what the server did in outer
				t.Fatal(err)
			}
			p := sandbox.Policy{AllowWrite: []string{outer, inner}}
			if viaRoots {
				p = sandbox.Policy{Roots: []string{outer}, RootsAccess: sandbox.ReadWrite, AllowWrite: []string{inner}}
			}
			out, err := escape(t, p, `touch `+inner+`/.ssh/planted; echo done`)
			if _, serr := os.Stat(filepath.Join(home, ".ssh", "planted")); serr == nil {
				t.Fatalf("the sandboxed server wrote into the home through %s: %q", inner, out)
			}
			refused(t, err, inner)
		})
	}
}

// TestEscapeByResolvedName: the home check looks at where a path leads,
// not at its name: a link to the home, or /proc/self/cwd when the app
// runs in the home, is refused.
func TestEscapeByResolvedName(t *testing.T) {
	t.Run("link", func(t *testing.T) {
		home, secret := fakeHome(t)
		link := filepath.Join(t.TempDir(), "looks-harmless")
		if err := os.Symlink(home, link); err != nil {
			t.Fatal(err)
		}
		out, err := escape(t, sandbox.Policy{}, `cat "$1/.ssh/id_secret"`, link)
		if strings.Contains(out, secret) {
			t.Fatalf("read the home through an argument that links to it: %q", out)
		}
		refused(t, err, link)
	})
	t.Run("proc", func(t *testing.T) {
		home, secret := fakeHome(t)
		t.Chdir(home)
		out, err := escape(t, sandbox.Policy{}, `cat "$1/.ssh/id_secret"; cat "`+home+`/.ssh/id_secret"`, "/proc/self/cwd")
		if strings.Contains(out, secret) {
			t.Fatalf("read the home through /proc/self/cwd: %q", out)
		}
		refused(t, err, "/proc/self/cwd")
	})
}

// TestEscapeByHomeSpelling: every spelling of the home (or of /) in
// allowRead or allowWrite is refused, as "~" and "/" are.
func TestEscapeByHomeSpelling(t *testing.T) {
	for _, spell := range []string{"~/", "~/.", "~/..", "HOME", "HOME/", "HOME/../..", "/.."} {
		t.Run(strings.ReplaceAll(spell, "/", "_"), func(t *testing.T) {
			home, secret := fakeHome(t)
			path := strings.Replace(spell, "HOME", home, 1) // what ${env:HOME} expands to
			out, err := escape(t, sandbox.Policy{AllowWrite: []string{path}}, `cat "`+home+`/.ssh/id_secret"`)
			if strings.Contains(out, secret) {
				t.Fatalf("allowWrite %q opened the home: %q", path, out)
			}
			refused(t, err, path)
		})
	}
}

// TestProgramInSharedPrefix: a program in ~/.cargo/bin or ~/.local/bin
// brings its own file, not the whole ~/.cargo (registry token) or ~/.local
// (keyrings) with it.
func TestProgramInSharedPrefix(t *testing.T) {
	for _, c := range []struct{ prefix, secretFile string }{
		{".cargo", "credentials.toml"},
		{".local", "share/keyrings/login.keyring"},
	} {
		t.Run(c.prefix, func(t *testing.T) {
			home, _ := fakeHome(t)
			secretFile := filepath.Join(home, c.prefix, c.secretFile)
			if err := os.MkdirAll(filepath.Dir(secretFile), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(secretFile, []byte("token-"+c.prefix), 0o600); err != nil {
				t.Fatal(err)
			}
			shell := filepath.Join(home, c.prefix, "bin", "tool")
			if err := os.MkdirAll(filepath.Dir(shell), 0o755); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile("/bin/sh")
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(shell, b, 0o755); err != nil {
				t.Fatal(err)
			}
			out, err := escapeWith(t, shell, sandbox.Policy{}, `echo started; cat "`+secretFile+`"`)
			if err != nil {
				t.Fatalf("Prepare: %v", err)
			}
			if !strings.Contains(out, "started") {
				t.Fatalf("the program did not run: %q", out)
			}
			if strings.Contains(out, "token-") {
				t.Errorf("a program in ~/%s/bin exposed ~/%s: %q", c.prefix, c.prefix, out)
			}
		})
	}
}

// TestRootsAtHome: a workspace (a root) that is the home itself is never
// bound, and the start says so instead of going on silently.
func TestRootsAtHome(t *testing.T) {
	for _, access := range []sandbox.Access{sandbox.ReadWrite, sandbox.ReadOnly} {
		home, secret := fakeHome(t)
		out, err := escape(t, sandbox.Policy{Roots: []string{home + "/"}, RootsAccess: access}, `cat "`+home+`/.ssh/id_secret"`)
		if strings.Contains(out, secret) {
			t.Fatalf("roots at the home opened it: %q", out)
		}
		refused(t, err, home)
	}
}

// TestEscapeThroughAnotherServersLink: a link another sandboxed server
// made in a folder it may write, named in this server's allowRead, is not
// followed into the home either.
func TestEscapeThroughAnotherServersLink(t *testing.T) {
	home, secret := fakeHome(t)
	theirs := t.TempDir() // the other server's allowWrite
	link := filepath.Join(theirs, "shared-notes")
	if err := os.Symlink(filepath.Join(home, ".ssh"), link); err != nil {
		t.Fatal(err)
	}
	out, err := escape(t, sandbox.Policy{AllowRead: []string{link}, Shared: []string{theirs}}, `cat "$0/id_secret"; cat "`+home+`/.ssh/id_secret"`)
	if strings.Contains(out, secret) {
		t.Fatalf("read the home through another server's link: %q", out)
	}
	refused(t, err, link)
}
