package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/switchboard-app/switchboard/mcpmanager/process"
)

// Errors Prepare returns (wrapped in an *Error naming the step).
var (
	// ErrUnsupported: this operating system has no sandbox yet (Windows).
	ErrUnsupported = errors.New("sandboxed servers are not supported on this system yet; turn the server's sandbox off to run it")
	// ErrNoBubblewrap: bwrap is not installed (Linux).
	ErrNoBubblewrap = errors.New("bubblewrap is not installed: install it (apt install bubblewrap) or turn the server's sandbox off")
	// ErrNoNamespaces: bwrap is there but cannot create namespaces here.
	ErrNoNamespaces = errors.New("bubblewrap cannot create a sandbox on this system: allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, or on Ubuntu an AppArmor profile for bwrap) or turn the server's sandbox off")
	// ErrNotFound: a path the policy lists does not exist.
	ErrNotFound = errors.New("does not exist; create it or remove it from the server's sandbox entry")
	// ErrEscape: a folder to bind leads somewhere the sandbox never
	// opens (the home, "/", a folder of the app's) or through a link the
	// server could have made.
	ErrEscape = errors.New("the sandbox does not open it")
	// ErrNoPrlimit: prlimit (util-linux), which sets the sandbox's limits,
	// is not installed (Linux).
	ErrNoPrlimit = errors.New("prlimit is not installed: install util-linux (apt install util-linux) or turn the server's sandbox off")
	// ErrPackage: npx or uvx arguments the sandbox cannot fetch ahead.
	ErrPackage = errors.New("cannot fetch the package before the sandboxed start")
)

// Error is a failure of one step of Prepare: Op is the step ("allowWrite",
// "npx", "bwrap"), Path the file or argument concerned, if any.
type Error struct {
	Op   string
	Path string
	Err  error
}

func (e *Error) Error() string {
	if e.Path == "" {
		return "sandbox: " + e.Op + ": " + e.Err.Error()
	}
	return fmt.Sprintf("sandbox: %s %s: %v", e.Op, e.Path, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// Access is how a folder is reachable inside the sandbox.
type Access uint8

const (
	// ReadOnly is the default for roots: what a sandboxed server writes
	// into a shared folder (a git hook, a package script) the unsandboxed
	// workspace shell may later run, outside any sandbox.
	ReadOnly Access = iota
	// ReadWrite lets the server write into the folder.
	ReadWrite
	// Hidden keeps the folder out of the server's view.
	Hidden
)

// Policy is what one server may reach beyond the defaults (see the package
// doc). Paths are absolute or start with "~/" (the user's home).
type Policy struct {
	Network    bool
	AllowRead  []string
	AllowWrite []string
	// Roots are the server's roots (workspace folders), bound as
	// RootsAccess says. The supervisor fills them in at each start from
	// the server's current roots; missing folders are skipped.
	Roots       []string
	RootsAccess Access
	// Env names the variables the server's entry sets: they, and the
	// short list in KeptEnv, are all of the environment it gets.
	Env []string
	// Private are folders of the app's (its data folder): a bind never
	// is one of them or holds one (folders inside them, like the default
	// workspace or a bundle's folder, may be bound).
	Private []string
	// Shared are folders other sandboxed servers may write: a symbolic
	// link inside one is not followed either (another server may have
	// made it for this one to follow).
	Shared []string
}

// Limits of each sandboxed server on Linux, set inside the sandbox with
// prlimit (the README gives the numbers). Variables so tests can lower
// them.
var (
	// MaxProcesses bounds the processes and threads the server may have
	// at once (RLIMIT_NPROC): a fork bomb stops there. The kernel does not
	// apply it to a server the app runs as root.
	MaxProcesses = 512
	// MaxDataBytes bounds each process's data memory (RLIMIT_DATA: heap
	// and private writable mappings): 4 GiB.
	MaxDataBytes int64 = 4 << 30
)

// Kind is what a Mount puts at its path.
type Kind uint8

// The kinds of mount, each said beside it.
const (
	Symlink Kind = iota // Path is a symbolic link to Source
	Tmpfs               // an empty, private, writable folder
	Bind                // Source, read-only
	BindRW              // Source, read-write
)

// Mount is one entry of a Plan: what appears at Path inside the sandbox.
type Mount struct {
	Path   string
	Source string // the folder or file outside (the link's target for Symlink)
	Kind   Kind
	Why    string // "system", "program", "argument", "roots", "allowWrite", …
}

// Plan is a sandbox worked out for one start, before it is turned into a
// bwrap command line or a sandbox-exec profile. Mounts are sorted so that
// a folder comes before anything inside it.
type Plan struct {
	Command string
	Args    []string
	Env     []string
	Dir     string // the working directory inside
	Home    string // the private home's path
	Network bool
	Mounts  []Mount
}

// Prepare returns a spec that runs spec's server inside the sandbox p
// describes. An npx or uvx command fetches its package first (outside the
// sandbox, with network; see CacheDir), so it may take as long as that
// download. It never returns a spec that runs unsandboxed: without a
// usable sandbox it fails with ErrNoBubblewrap, ErrNoNamespaces or
// ErrUnsupported.
func Prepare(ctx context.Context, spec process.Spec, p Policy) (process.Spec, error) {
	if err := available(ctx); err != nil {
		return process.Spec{}, err
	}
	spec, err := fetchAhead(ctx, spec)
	if err != nil {
		return process.Spec{}, err
	}
	plan, err := NewPlan(spec, p)
	if err != nil {
		return process.Spec{}, err
	}
	return wrap(plan)
}

// Available reports whether a sandbox can run on this system: nil, or the
// error Prepare would return (ErrNoBubblewrap, ErrNoNamespaces,
// ErrUnsupported), which says what to install or enable.
func Available(ctx context.Context) error { return available(ctx) }

// NewPlan works out the sandbox for spec (whose Command is already the
// program to run, not npx or uvx) without starting anything.
func NewPlan(spec process.Spec, p Policy) (Plan, error) {
	env := slices.Clone(spec.Env)
	home := lookupEnv(env, "HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	if home == "" || home == "/" {
		home = "/home/sandbox"
	}
	home = filepath.Clean(home)
	b := &builder{mounts: map[string]Mount{}, homes: homes(home)}
	for _, dir := range systemDirs {
		b.system(dir)
	}
	if p.Network {
		for _, dir := range networkDirs {
			b.system(dir)
		}
	}
	b.put(Mount{Path: "/tmp", Kind: Tmpfs, Why: "private temp"})
	b.put(Mount{Path: home, Kind: Tmpfs, Why: "private home"})

	prog, err := process.LookPath(spec.Command, searchPath(env))
	if err != nil {
		return Plan{}, err
	}
	if !filepath.IsAbs(prog) {
		if prog, err = filepath.Abs(prog); err != nil {
			return Plan{}, &Error{Op: "program", Path: spec.Command, Err: err}
		}
	}
	if _, err := os.Stat(prog); err != nil {
		return Plan{}, &process.NotFoundError{Command: spec.Command, Err: err}
	}
	b.program(prog, env, "program")

	b.writable = writableDirs(p)
	b.private = cleanAll(p.Private)
	for _, arg := range spec.Args {
		for _, cand := range ArgPaths(arg) {
			if !filepath.IsAbs(cand) {
				if spec.Dir == "" {
					continue // no working directory: a relative path means nothing inside
				}
				cand = filepath.Join(spec.Dir, cand)
			}
			cand = filepath.Clean(cand)
			fi, err := os.Stat(cand)
			if err != nil || b.tooWide(cand) {
				continue // a home named as such is not opened by an argument (see the package doc)
			}
			real, err := b.check("argument", cand)
			if err != nil {
				return Plan{}, err
			}
			b.bindBoth(cand, real, Bind, "argument")
			if !fi.IsDir() {
				b.packageOf(real, "argument's package")
			}
		}
	}
	dir := home
	if spec.Dir != "" {
		dir = filepath.Clean(spec.Dir)
		if _, err := os.Stat(dir); err != nil {
			return Plan{}, &Error{Op: "cwd", Path: dir, Err: ErrNotFound}
		}
		if !b.tooWide(dir) {
			real, err := b.check("working directory", dir)
			if err != nil {
				return Plan{}, err
			}
			b.bindBoth(dir, real, Bind, "working directory")
		}
	}
	if p.RootsAccess != Hidden {
		kind := map[Access]Kind{ReadWrite: BindRW, ReadOnly: Bind}[p.RootsAccess]
		for _, r := range p.Roots {
			// A root that is missing is skipped (it may be made later); one
			// that is the home, or leads there, is refused: the server would
			// get everything the sandbox hides.
			if r = expandHome(r); !filepath.IsAbs(r) || !exists(r) {
				continue
			}
			r = filepath.Clean(r)
			real, err := b.check("roots", r)
			if err != nil {
				return Plan{}, err
			}
			b.bindBoth(r, real, kind, "roots")
		}
	}
	for _, l := range []struct {
		op    string
		paths []string
		kind  Kind
	}{{"allowRead", p.AllowRead, Bind}, {"allowWrite", p.AllowWrite, BindRW}} {
		for _, path := range l.paths {
			abs := expandHome(path)
			if !filepath.IsAbs(abs) {
				return Plan{}, &Error{Op: l.op, Path: path, Err: errors.New("is not an absolute path; write the full path, e.g. /home/me/notes or ~/notes")}
			}
			if !exists(abs) {
				return Plan{}, &Error{Op: l.op, Path: path, Err: ErrNotFound}
			}
			abs = filepath.Clean(abs)
			real, err := b.check(l.op, abs)
			if err != nil {
				err.(*Error).Path = path // as the user wrote it
				return Plan{}, err
			}
			b.bindBoth(abs, real, l.kind, l.op)
		}
	}
	env = keptEnv(env, p.Env)
	env = setEnv(env, "HOME", home)
	env = setEnv(env, "TMPDIR", "/tmp")
	return Plan{Command: prog, Args: slices.Clone(spec.Args), Env: env, Dir: dir, Home: home, Network: p.Network, Mounts: b.sorted()}, nil
}

// systemDirs are bound read-only (or re-created as the same symbolic link,
// as /bin is on a merged-/usr system) when they exist. Variables so a test
// can add its own.
var (
	systemDirs = map[string][]string{
		"linux":  {"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt", "/nix/store"},
		"darwin": {"/usr", "/bin", "/sbin", "/System", "/Library", "/private/etc", "/etc", "/opt/homebrew", "/opt/local", "/nix/store", "/dev"},
	}[runtime.GOOS]
	networkDirs = []string{"/run/systemd/resolve"} // where /etc/resolv.conf points on systemd
)

// packageMarkers are files whose folder is a program's package folder.
var packageMarkers = []string{"package.json", "pyproject.toml", "setup.py", "go.mod", "Cargo.toml", "deno.json"}

type builder struct {
	mounts   map[string]Mount
	homes    []string // the private home and the user's real home, as named and resolved
	writable []string // the folders the server may write, as named and resolved
	private  []string // Policy.Private
}

func homes(home string) []string {
	out := []string{home}
	if real, err := os.UserHomeDir(); err == nil && real != "" {
		out = append(out, filepath.Clean(real))
	}
	for _, h := range slices.Clone(out) {
		if real, err := filepath.EvalSymlinks(h); err == nil {
			out = append(out, real)
		}
	}
	return slices.Compact(slices.Sorted(slices.Values(out)))
}

// writableDirs are the folders p lets the server (or another sandboxed
// server) write, as named and as resolved: a link inside one of them may
// be a server's doing.
func writableDirs(p Policy) []string {
	list := append(slices.Clone(p.AllowWrite), p.Shared...)
	if p.RootsAccess == ReadWrite {
		list = append(list, p.Roots...)
	}
	var out []string
	for _, w := range list {
		if w = expandHome(w); !filepath.IsAbs(w) {
			continue
		}
		out = append(out, filepath.Clean(w))
		if real, err := filepath.EvalSymlinks(w); err == nil {
			out = append(out, real)
		}
	}
	return out
}

func cleanAll(paths []string) []string {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if p != "" {
			out = append(out, filepath.Clean(p))
		}
	}
	return out
}

// check resolves path (absolute, clean, existing) and returns where it
// really is: what is bound. It refuses, with an *Error wrapping
// ErrEscape, a path that leads to the home whole (or above it), to or
// above a Private folder, or through a symbolic link inside a folder the
// server may write — a link the server itself may have made on an
// earlier start, to reach what it was not given on this one.
func (b *builder) check(op, path string) (string, error) {
	refuse := func(format string, a ...any) error {
		return &Error{Op: op, Path: path, Err: fmt.Errorf("%w: "+format, append([]any{ErrEscape}, a...)...)}
	}
	if link, in := b.linkInWritable(path); link != "" {
		target, _ := os.Readlink(link)
		return "", refuse("it goes through the link %s (to %s) inside %s, a folder the server can write, so the server may have made it; remove the link, or name the folder it points to", link, target, in)
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", &Error{Op: op, Path: path, Err: ErrNotFound}
	}
	if b.tooWide(real) {
		what := "your home folder"
		if real == "/" || !slices.Contains(b.homes, real) {
			what = "a folder holding your home folder"
		}
		if real != path {
			what += " (" + real + ")"
		}
		return "", refuse("it is %s, which would open everything the sandbox hides; name the folders inside it the server needs, e.g. ~/notes", what)
	}
	for _, p := range b.private {
		if within(p, real) {
			return "", refuse("it holds %s, Switchboard's own data (chats, settings, other servers' files); name the folders the server needs", p)
		}
	}
	return real, nil
}

// linkInWritable returns the first symbolic link on path that lies in a
// folder the server may write, and that folder; "" when there is none.
func (b *builder) linkInWritable(path string) (link, in string) {
	sep := string(filepath.Separator)
	cur := ""
	for _, part := range strings.Split(strings.TrimPrefix(path, sep), sep) {
		cur += sep + part
		fi, err := os.Lstat(cur)
		if err != nil {
			return "", ""
		}
		if fi.Mode()&os.ModeSymlink == 0 {
			continue
		}
		parent := filepath.Dir(cur)
		real, err := filepath.EvalSymlinks(parent)
		if err != nil {
			real = parent
		}
		for _, w := range b.writable {
			if within(parent, w) || within(real, w) {
				return cur, w
			}
		}
	}
	return "", ""
}

// tooWide reports whether opening path would open a home folder whole (or
// everything): an argument or working directory never does that.
func (b *builder) tooWide(path string) bool {
	path = filepath.Clean(path)
	if path == "/" {
		return true
	}
	for _, h := range b.homes {
		if within(h, path) {
			return true
		}
	}
	return false
}

// put adds m; for the same path the stronger kind wins (read-write over
// read-only over tmpfs over a symbolic link).
func (b *builder) put(m Mount) {
	if old, ok := b.mounts[m.Path]; ok && old.Kind >= m.Kind {
		return
	}
	b.mounts[m.Path] = m
}

func (b *builder) system(dir string) {
	fi, err := os.Lstat(dir)
	switch {
	case err != nil:
	case fi.Mode()&os.ModeSymlink != 0:
		if target, err := os.Readlink(dir); err == nil {
			b.put(Mount{Path: dir, Source: target, Kind: Symlink, Why: "system"})
		}
	case fi.IsDir():
		b.put(Mount{Path: dir, Source: dir, Kind: Bind, Why: "system"})
	}
}

// bindBoth binds real (path resolved) at path and, when symbolic links
// lead elsewhere, at real too (programs often resolve their own path).
// The source is the resolved path: what was checked is what is bound.
func (b *builder) bindBoth(path, real string, kind Kind, why string) {
	b.put(Mount{Path: path, Source: real, Kind: kind, Why: why})
	if real != path {
		b.put(Mount{Path: real, Source: real, Kind: kind, Why: why})
	}
}

// bindResolved binds path (a program's file or package) as bindBoth does.
func (b *builder) bindResolved(path string, kind Kind, why string) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		real = path
	}
	b.bindBoth(path, real, kind, why)
}

// program binds prog, its package folder and the interpreter of its "#!"
// line (with that one's package folder), read-only.
func (b *builder) program(prog string, env []string, why string) {
	b.bindResolved(prog, Bind, why)
	b.packageOf(prog, why+"'s package")
	if interp := interpreter(prog, searchPath(env)); interp != "" && interp != prog {
		b.bindResolved(interp, Bind, "interpreter")
		b.packageOf(interp, "interpreter's package")
	}
}

// packageOf binds the package folder of file (see packageDir), if any.
func (b *builder) packageOf(file, why string) {
	real, err := filepath.EvalSymlinks(file)
	if err != nil {
		real = file
	}
	for _, f := range slices.Compact([]string{file, real}) {
		if dir := b.packageDir(f); dir != "" && !b.tooWide(dir) && !underSystem(dir) {
			b.bindResolved(dir, Bind, why)
		}
	}
}

// packageDir is the folder a program's file belongs to: the prefix above
// a bin/ folder (/opt/node for /opt/node/bin/node, a virtualenv for its
// bin/python), else the nearest folder above it with a package marker,
// lifted to the project that holds the outermost node_modules folder.
// It is "" when none is found within a few levels, and for a bin/ folder
// right inside a home (~/.cargo/bin, ~/.local/bin, ~/go/bin): that prefix
// is shared by many programs and holds their tokens and keyrings, so the
// program's own file is all it brings (a link there is followed to its
// own package by packageOf).
func (b *builder) packageDir(file string) string {
	dir := filepath.Dir(file)
	if filepath.Base(dir) == "bin" {
		prefix := filepath.Dir(dir)
		if slices.Contains(b.homes, filepath.Dir(prefix)) || slices.Contains(b.homes, prefix) {
			return ""
		}
		return prefix
	}
	for d, i := dir, 0; i < 8 && d != "/" && d != "."; d, i = filepath.Dir(d), i+1 {
		for _, m := range packageMarkers {
			if exists(filepath.Join(d, m)) {
				if j := strings.Index(d, string(filepath.Separator)+"node_modules"+string(filepath.Separator)); j >= 0 {
					return d[:j]
				}
				return d
			}
		}
	}
	return ""
}

// within reports whether path is dir or inside it (both clean).
func within(path, dir string) bool {
	return path == dir || strings.HasPrefix(path, strings.TrimSuffix(dir, string(filepath.Separator))+string(filepath.Separator))
}

func underSystem(path string) bool {
	for _, s := range systemDirs {
		if within(path, s) {
			return true
		}
	}
	return false
}

// interpreter reads prog's "#!" line and returns the interpreter's path
// (looked up on path for "#!/usr/bin/env NAME"), or "".
func interpreter(prog, path string) string {
	f, err := os.Open(prog)
	if err != nil {
		return ""
	}
	defer f.Close()
	buf := make([]byte, 256)
	n, _ := f.Read(buf)
	line, _, _ := strings.Cut(string(buf[:n]), "\n")
	rest, ok := strings.CutPrefix(line, "#!")
	if !ok {
		return ""
	}
	fields := strings.Fields(rest)
	if len(fields) == 0 {
		return ""
	}
	if filepath.Base(fields[0]) != "env" {
		return fields[0]
	}
	for _, f := range fields[1:] {
		if strings.HasPrefix(f, "-") || strings.Contains(f, "=") {
			continue
		}
		if p, err := process.LookPath(f, path); err == nil {
			return p
		}
		return ""
	}
	return ""
}

// ArgPaths are the strings in one argument that may name a file: the
// argument itself, or the value of --flag=VALUE (a URL or an npm package
// name is none). The supervisor names a missing one when a server exits.
func ArgPaths(arg string) []string {
	if strings.Contains(arg, "://") {
		return nil
	}
	if strings.HasPrefix(arg, "-") {
		if _, v, ok := strings.Cut(arg, "="); ok && v != "" {
			return []string{v}
		}
		return nil
	}
	if arg == "" || strings.HasPrefix(arg, "@") {
		return nil // an npm package name, not a file
	}
	return []string{arg}
}

// sorted returns the mounts so that a folder comes before what is inside
// it (bubblewrap mounts in order, and a later mount covers an earlier one).
func (b *builder) sorted() []Mount {
	out := make([]Mount, 0, len(b.mounts))
	for _, m := range b.mounts {
		if !b.covered(m) {
			out = append(out, m)
		}
	}
	slices.SortFunc(out, func(x, y Mount) int {
		dx, dy := strings.Count(x.Path, "/"), strings.Count(y.Path, "/")
		if dx != dy {
			return dx - dy
		}
		return strings.Compare(x.Path, y.Path)
	})
	return out
}

// covered reports whether m adds nothing to a folder bound above it: the
// same kind of access, or a symbolic link (seen through the folder, and
// its target bound on its own; bubblewrap cannot mount onto a link inside
// a read-only folder).
func (b *builder) covered(m Mount) bool {
	if m.Kind != Bind && m.Kind != BindRW {
		return false
	}
	for _, a := range b.mounts {
		if (a.Kind != Bind && a.Kind != BindRW) || a.Source != a.Path || !strings.HasPrefix(m.Path, a.Path+"/") {
			continue
		}
		if a.Kind == m.Kind {
			return true
		}
		if fi, err := os.Lstat(m.Path); err == nil && fi.Mode()&os.ModeSymlink != 0 {
			return true
		}
	}
	return false
}

// expandHome turns "~" and "~/x" into the user's home folder (+ "/x").
func expandHome(p string) string {
	if p == "~" {
		p = "~/"
	}
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if h, err := os.UserHomeDir(); err == nil {
			return filepath.Join(h, rest)
		}
	}
	return p
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// searchPath is the PATH programs are looked up on: the server's own, else
// the login shell's.
func searchPath(env []string) string {
	if p := lookupEnv(env, "PATH"); p != "" {
		return p
	}
	return process.LoginPATH()
}

func lookupEnv(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], key+"="); ok {
			return v
		}
	}
	return ""
}

func setEnv(env []string, key, val string) []string {
	env = slices.DeleteFunc(env, func(kv string) bool { return strings.HasPrefix(kv, key+"=") })
	return append(env, key+"="+val)
}

// KeptEnv are the variables of the app's environment a sandboxed server
// gets besides those its entry sets (Policy.Env): what programs need to
// find things and speak the user's language, never a token. HOME and
// TMPDIR point at its private folders. A name ending in "*" is a prefix.
var KeptEnv = []string{
	"PATH", "LANG", "LANGUAGE", "LC_*", "TERM", "TZ", "USER", "LOGNAME",
	"HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy",
	"SSL_CERT_FILE", "SSL_CERT_DIR", "NODE_EXTRA_CA_CERTS",
}

// keptEnv is env with only the variables the entry sets (own) and KeptEnv.
func keptEnv(env, own []string) []string {
	return process.KeepEnv(env, append(slices.Clone(KeptEnv), own...))
}
