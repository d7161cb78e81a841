package datadir

import (
	"os"
	"path/filepath"
	"testing"
)

func TestResolve(t *testing.T) {
	tmp := t.TempDir()
	cases := []struct {
		name, flag, env, xdg, want string
	}{
		{"flag wins", filepath.Join(tmp, "f"), filepath.Join(tmp, "e"), tmp, filepath.Join(tmp, "f")},
		{"env next", "", filepath.Join(tmp, "e"), tmp, filepath.Join(tmp, "e")},
		{"os default", "", "", filepath.Join(tmp, "xdg"), filepath.Join(tmp, "xdg", "switchboard")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv(EnvVar, c.env)
			t.Setenv("XDG_CONFIG_HOME", c.xdg)
			got, err := Resolve(c.flag)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c.want {
				t.Fatalf("Resolve(%q) = %q, want %q", c.flag, got, c.want)
			}
		})
	}
}

func TestResolveRelativeBecomesAbsolute(t *testing.T) {
	t.Chdir(t.TempDir())
	got, err := Resolve("rel")
	if err != nil {
		t.Fatal(err)
	}
	if !filepath.IsAbs(string(got)) {
		t.Fatalf("Resolve(rel) = %q, want absolute", got)
	}
}

func TestEnsureCreatesLayoutPrivately(t *testing.T) {
	d := Dir(filepath.Join(t.TempDir(), "data"))
	if err := d.Ensure(); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{string(d), d.Stores(), d.Logs(), d.Workspace()} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if !fi.IsDir() || fi.Mode().Perm() != 0o700 {
			t.Errorf("%s: mode %v, want private dir", p, fi.Mode())
		}
	}
	if filepath.Dir(d.Config()) != string(d) || filepath.Base(d.History()) != "history.db" {
		t.Errorf("unexpected layout: %s %s", d.Config(), d.History())
	}
}
