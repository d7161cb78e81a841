package sandbox

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/process"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// tree makes files (ending in "/" for folders) under a temp dir and returns it.
func tree(t *testing.T, files ...string) string {
	t.Helper()
	root := t.TempDir()
	for _, f := range files {
		p := filepath.Join(root, f)
		if strings.HasSuffix(f, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// mountOf returns the mount path is seen through: its own, or the
// deepest one holding it (Mounts are sorted, a folder first).
func mountOf(p Plan, path string) (Mount, bool) {
	var found Mount
	ok := false
	for _, m := range p.Mounts {
		if m.Path == path || strings.HasPrefix(path, m.Path+"/") {
			found, ok = m, true
		}
	}
	return found, ok
}

func TestNewPlan(t *testing.T) {
	r := tree(t,
		"home/.ssh/id_rsa", "home/notes/", "home/proj/package.json", "home/proj/node_modules/dep/package.json",
		"home/proj/node_modules/dep/bin.js", "home/proj/dist/index.js", "tool/bin/server", "data/", "data/file.json", "cfg.json",
		"home/work/app/package.json", "home/work/app/index.js",
	)
	home := filepath.Join(r, "home")
	env := []string{"HOME=" + home, "PATH=/usr/bin:/bin"}
	type want struct {
		path string
		kind Kind
		ok   bool
	}
	for _, c := range []struct {
		name  string
		spec  process.Spec
		p     Policy
		wants []want
		err   error
	}{
		{
			name: "program prefix above bin, private home and temp",
			spec: process.Spec{Command: filepath.Join(r, "tool/bin/server"), Env: env},
			wants: []want{
				{filepath.Join(r, "tool"), Bind, true},
				{home, Tmpfs, true},
				{"/tmp", Tmpfs, true},
				{"/usr", Bind, true},
				{filepath.Join(home, ".ssh"), Tmpfs, true}, // the private home, not yours
			},
		},
		{
			name: "a script argument opens its project, not the home",
			spec: process.Spec{Command: "/usr/bin/env", Args: []string{filepath.Join(home, "proj/node_modules/dep/bin.js"), home, "--config=" + filepath.Join(r, "cfg.json"), "@scope/pkg", "https://example.com/x"}, Env: env},
			wants: []want{
				{filepath.Join(home, "proj/node_modules/dep/bin.js"), Bind, true},
				{filepath.Join(home, "proj"), Bind, true},
				{filepath.Join(r, "cfg.json"), Bind, true},
				{home, Tmpfs, true}, // not opened by the argument naming it
			},
		},
		{
			name: "a relative argument is found in the working directory",
			spec: process.Spec{Command: "/usr/bin/env", Args: []string{"file.json"}, Dir: filepath.Join(r, "data"), Env: env},
			wants: []want{
				{filepath.Join(r, "data"), Bind, true},
				{filepath.Join(r, "data/file.json"), Bind, true},
			},
		},
		{
			name: "allowWrite wins over the argument naming the same folder; a deeper program stays read-only",
			spec: process.Spec{Command: filepath.Join(home, "work/app/index.js"), Args: []string{filepath.Join(r, "data")}, Env: env},
			p:    Policy{AllowWrite: []string{filepath.Join(r, "data"), filepath.Join(home, "work")}, AllowRead: []string{filepath.Join(home, "notes")}},
			wants: []want{
				{filepath.Join(r, "data"), BindRW, true},
				{filepath.Join(home, "work"), BindRW, true},
				{filepath.Join(home, "work/app"), Bind, true},
				{filepath.Join(home, "notes"), Bind, true},
			},
		},
		{
			name: "allowWrite of the home whole is refused",
			spec: process.Spec{Command: "/usr/bin/env", Env: env},
			p:    Policy{AllowWrite: []string{home}},
			err:  ErrEscape,
		},
		{
			name: "roots read-only by default",
			spec: process.Spec{Command: "/usr/bin/env", Env: env},
			p:    Policy{Roots: []string{filepath.Join(r, "data"), filepath.Join(r, "missing")}},
			wants: []want{
				{filepath.Join(r, "data"), Bind, true},
				{filepath.Join(r, "missing"), Tmpfs, true},
			},
		},
		{
			name:  "roots read-write when asked",
			spec:  process.Spec{Command: "/usr/bin/env", Env: env},
			p:     Policy{Roots: []string{filepath.Join(r, "data")}, RootsAccess: ReadWrite},
			wants: []want{{filepath.Join(r, "data"), BindRW, true}},
		},
		{
			name:  "roots hidden",
			spec:  process.Spec{Command: "/usr/bin/env", Env: env},
			p:     Policy{Roots: []string{filepath.Join(r, "data")}, RootsAccess: Hidden},
			wants: []want{{filepath.Join(r, "data"), Tmpfs, true}},
		},
		{
			name: "a listed folder that does not exist",
			spec: process.Spec{Command: "/usr/bin/env", Env: env},
			p:    Policy{AllowRead: []string{filepath.Join(r, "nope")}},
			err:  ErrNotFound,
		},
		{
			name: "a program that is not installed",
			spec: process.Spec{Command: "no-such-program-here", Env: env},
			err:  &process.NotFoundError{},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			plan, err := NewPlan(c.spec, c.p)
			if c.err != nil {
				var nf *process.NotFoundError
				if !errors.Is(err, c.err) && !(errors.As(c.err, &nf) && errors.As(err, &nf)) {
					t.Fatalf("err = %v, want %v", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range c.wants {
				m, ok := mountOf(plan, w.path)
				if ok != w.ok || ok && m.Kind != w.kind {
					t.Errorf("%s is seen through %+v (present %v), want kind %d present %v", w.path, m, ok, w.kind, w.ok)
				}
			}
			// A folder always comes before what is inside it.
			for i, m := range plan.Mounts {
				for _, later := range plan.Mounts[i+1:] {
					if strings.HasPrefix(m.Path, later.Path+"/") {
						t.Errorf("%s is mounted before %s, which holds it", m.Path, later.Path)
					}
				}
			}
			if got := lookupEnv(plan.Env, "HOME"); got != home {
				t.Errorf("HOME = %q, want the private home at %q", got, home)
			}
		})
	}
}

func TestBwrapArgs(t *testing.T) {
	plan := Plan{
		Command: "/opt/srv/bin/server", Args: []string{"--dir", "/data"}, Dir: "/home/me", Home: "/home/me",
		Mounts: []Mount{
			{Path: "/bin", Source: "usr/bin", Kind: Symlink},
			{Path: "/usr", Source: "/usr", Kind: Bind},
			{Path: "/home/me", Kind: Tmpfs},
			{Path: "/data", Source: "/data", Kind: BindRW},
		},
	}
	for _, c := range []struct {
		network bool
		want    string
	}{
		{false, "--new-session --die-with-parent --unshare-all --cap-drop ALL --proc /proc --dev /dev --symlink usr/bin /bin --ro-bind /usr /usr --tmpfs /home/me --bind /data /data --chdir /home/me -- /opt/srv/bin/server --dir /data"},
		{true, "--new-session --die-with-parent --unshare-all --share-net --cap-drop ALL --proc /proc --dev /dev --symlink usr/bin /bin --ro-bind /usr /usr --tmpfs /home/me --bind /data /data --chdir /home/me -- /opt/srv/bin/server --dir /data"},
	} {
		plan.Network = c.network
		if got := strings.Join(BwrapArgs(plan), " "); got != c.want {
			t.Errorf("network %v:\n got %s\nwant %s", c.network, got, c.want)
		}
	}
}

// TestProfile compares the macOS profile with testdata/profile.sb (go test
// -update rewrites it): it cannot run here, so its text is the test.
func TestProfile(t *testing.T) {
	plan := Plan{
		Command: "/opt/homebrew/bin/node", Args: []string{"/Users/me/proj/index.js"}, Dir: "/private/var/folders/x/home", Home: "/Users/me",
		Mounts: []Mount{
			{Path: "/usr", Source: "/usr", Kind: Bind, Why: "system"},
			{Path: "/etc", Source: "private/etc", Kind: Symlink, Why: "system"},
			{Path: "/private/var/folders/x/tmp", Kind: Tmpfs, Why: "private temp"},
			{Path: "/private/var/folders/x/home", Kind: Tmpfs, Why: "private home"},
			{Path: "/Users/me/proj", Source: "/Users/me/proj", Kind: Bind, Why: "argument's package"},
			{Path: `/Users/me/My "Notes"`, Source: `/Users/me/My "Notes"`, Kind: Bind, Why: "allowRead"},
			{Path: "/Users/me/data", Source: "/Users/me/data", Kind: BindRW, Why: "allowWrite"},
		},
	}
	for _, c := range []struct {
		golden  string
		network bool
	}{{"profile.sb", false}, {"profile-network.sb", true}} {
		plan.Network = c.network
		got := Profile(plan)
		path := filepath.Join("testdata", c.golden)
		if *update {
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test -update to create it)", err)
		}
		if got != string(want) {
			t.Errorf("%s differs (go test -update if intended)\n--- got\n%s\n--- want\n%s", path, got, want)
		}
	}
}

func TestParseNpx(t *testing.T) {
	for _, c := range []struct {
		args []string
		want npxCall
		err  bool
	}{
		{[]string{"-y", "@modelcontextprotocol/server-filesystem", "/data"}, npxCall{packages: []string{"@modelcontextprotocol/server-filesystem"}, args: []string{"/data"}}, false},
		{[]string{"--yes", "pkg@1.2.3"}, npxCall{packages: []string{"pkg@1.2.3"}, args: []string{}}, false},
		{[]string{"-p", "a", "--package=b", "run-b", "--flag"}, npxCall{packages: []string{"a", "b"}, bin: "run-b", args: []string{"--flag"}}, false},
		{[]string{"-y", "--", "pkg", "-x"}, npxCall{packages: []string{"pkg"}, args: []string{"-x"}}, false},
		{[]string{"-c", "echo hi"}, npxCall{}, true},
		{[]string{"-y"}, npxCall{}, true},
		{[]string{"-p"}, npxCall{}, true},
	} {
		got, err := parseNpx(c.args)
		if (err != nil) != c.err {
			t.Errorf("parseNpx(%q) error %v, want error %v", c.args, err, c.err)
			continue
		}
		if err != nil {
			if !errors.Is(err, ErrPackage) {
				t.Errorf("parseNpx(%q) = %v, want ErrPackage", c.args, err)
			}
			continue
		}
		if !slices.Equal(got.packages, c.want.packages) || got.bin != c.want.bin || !slices.Equal(got.args, c.want.args) {
			t.Errorf("parseNpx(%q) = %+v, want %+v", c.args, got, c.want)
		}
	}
}

func TestParseUvx(t *testing.T) {
	for _, c := range []struct {
		args []string
		want uvxCall
		err  bool
	}{
		{[]string{"mcp-server-fetch"}, uvxCall{from: "mcp-server-fetch", command: "mcp-server-fetch", args: []string{}}, false},
		{[]string{"mcp-server-git@2025.1.1", "--repository", "/r"}, uvxCall{from: "mcp-server-git==2025.1.1", command: "mcp-server-git", args: []string{"--repository", "/r"}}, false},
		{[]string{"--from", "git+https://example.com/x.git", "--with=httpx", "--python", "3.12", "x-server"}, uvxCall{from: "git+https://example.com/x.git", with: []string{"httpx"}, python: "3.12", command: "x-server", args: []string{}}, false},
		{[]string{"--isolated", "x"}, uvxCall{}, true},
		{[]string{"--from"}, uvxCall{}, true},
	} {
		got, err := parseUvx(c.args)
		if (err != nil) != c.err {
			t.Errorf("parseUvx(%q) error %v, want error %v", c.args, err, c.err)
			continue
		}
		if err != nil {
			continue
		}
		if got.from != c.want.from || got.command != c.want.command || got.python != c.want.python || !slices.Equal(got.with, c.want.with) || !slices.Equal(got.args, c.want.args) {
			t.Errorf("parseUvx(%q) = %+v, want %+v", c.args, got, c.want)
		}
	}
}

func TestPackageName(t *testing.T) {
	for in, want := range map[string]string{"@scope/pkg@1.2": "@scope/pkg", "@scope/pkg": "@scope/pkg", "pkg@latest": "pkg", "pkg": "pkg"} {
		if got := packageName(in); got != want {
			t.Errorf("packageName(%q) = %q, want %q", in, got, want)
		}
	}
}
