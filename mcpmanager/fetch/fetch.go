// Package fetch downloads what a stdio server's launcher (npx, uvx, docker)
// would otherwise download during its first start, as a step of its own.
//
// "npx -y some-server" spends most of a cold first start in npm, and a host
// that counts that time against the MCP handshake fails the start (the most
// common complaint against every MCP host). Here the download is planned
// from the server's own command line (For), run with its own generous limit
// (Timeout) and its progress lines reported, and only then is the server
// started, warm, with the handshake bounded by its startup timeout alone.
//
//	if p := fetch.For(command, args); p != nil {
//		err := fetch.Run(ctx, p, fetch.Options{Env: env, Progress: func(line string) { ... }})
//	}
//
// Run is shared: callers fetching the same plan in the same environment at
// the same time (the background prefetch after an import, the server's own
// start, a sandboxed run) wait for one download, each seeing its progress,
// and a plan that succeeded once in this process is not fetched again.
package fetch

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/process"
)

// Timeout is the default limit of one fetch (Options.Timeout zero).
// A variable so tests can shorten it.
var Timeout = 5 * time.Minute

// Sentinel errors; an *Error wraps one of them or the launcher's exit error.
var (
	// ErrTimeout: the launcher was still downloading when the limit came.
	ErrTimeout = errors.New("download did not finish in time")
	// ErrFailed: the launcher exited with an error (no network, a package
	// or image that does not exist, a bad version).
	ErrFailed = errors.New("download failed")
)

// Tools that fetch.
const (
	NPM    = "npm"
	UV     = "uv"
	Docker = "docker"
)

// Plan is how to fetch a server's package without running the server.
type Plan struct {
	Tool    string   // NPM, UV or Docker
	Package string   // what is fetched, for messages: "@scope/pkg@1.2.3", "image:tag"
	Command string   // the launcher, as the server runs it (npx, uvx, docker; maybe a full path)
	Args    []string // the launcher's arguments that only fetch
}

func (p *Plan) String() string { return p.Package + " with " + p.Tool }

// Error says which package could not be fetched, why, and what to do.
type Error struct {
	Op      string // "fetch"
	Package string
	Tool    string
	Timeout time.Duration // set with ErrTimeout
	Last    string        // the launcher's last output line, when it said anything
	Err     error         // ErrTimeout, or ErrFailed joined with the exit error
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s with %s: ", e.Op, e.Package, e.Tool)
	if errors.Is(e.Err, ErrTimeout) {
		fmt.Fprintf(&b, "%v (%s)", ErrTimeout, e.Timeout)
	} else {
		b.WriteString(e.Err.Error())
	}
	if e.Last != "" {
		fmt.Fprintf(&b, "; last output: %q", e.Last)
	}
	if errors.Is(e.Err, ErrTimeout) {
		b.WriteString(": check the network, or raise the download time limit in Settings → Servers")
	} else {
		b.WriteString(": check the package name, version and network, then start the server again")
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// For plans the fetch of a server run as command args, or returns nil when
// the command is not a launcher this package knows or fetches nothing
// ("npx" without a package, "docker ps").
func For(command string, args []string) *Plan {
	switch launcher(command) {
	case "npx":
		return npxPlan(command, args)
	case "uvx":
		return uvxPlan(command, args)
	case "docker", "podman":
		return dockerPlan(command, args)
	}
	return nil
}

// launcher is command's base name without a Windows extension.
func launcher(command string) string {
	base := strings.ToLower(filepath.Base(strings.ReplaceAll(command, `\`, "/")))
	for _, ext := range []string{".exe", ".cmd", ".bat"} {
		base = strings.TrimSuffix(base, ext)
	}
	return base
}

// takesValue reports whether arg is a flag among valued whose value is the
// next argument (not "--flag=value").
func takesValue(arg string, valued []string) bool {
	return !strings.Contains(arg, "=") && slices.Contains(valued, arg)
}

// npx (npm exec) flags that take a value.
var npxValued = []string{"-p", "--package", "-c", "--call", "--registry", "--cache", "--userconfig", "--loglevel", "-w", "--workspace", "--node-options", "--script-shell", "--shell"}

// npx flags dropped from the fetch (it adds its own --yes and --loglevel).
var npxDropped = []string{"-y", "--yes", "--no", "-q", "--quiet", "--silent", "-s", "--loglevel"}

// npxPlan: "npx [flags] PKG [args]" or "npx -p PKG [-p PKG2] CMD [args]".
// The fetch runs "npx --yes --package=PKG... -- node --version": npm keeps
// its npx installs in a folder named by the hash of the package list, the
// same list either way, so the server's own npx finds it installed.
func npxPlan(command string, args []string) *Plan {
	var keep, pkgs []string
	var positional string
	call := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			if i+1 < len(args) {
				positional = args[i+1]
			}
			break
		}
		if !strings.HasPrefix(a, "-") {
			positional = a
			break
		}
		name, val, hasVal := strings.Cut(a, "=")
		if takesValue(a, npxValued) && i+1 < len(args) {
			i++
			val, hasVal = args[i], true
		}
		switch {
		case name == "-p" || name == "--package":
			pkgs = append(pkgs, val)
			continue
		case name == "-c" || name == "--call":
			call = true
			continue
		case slices.Contains(npxDropped, name):
			continue
		}
		if hasVal {
			keep = append(keep, name+"="+val)
		} else {
			keep = append(keep, a)
		}
	}
	if len(pkgs) == 0 {
		if call || positional == "" {
			return nil
		}
		pkgs = []string{positional}
	}
	out := append([]string{"--yes", "--loglevel=http"}, keep...)
	for _, p := range pkgs {
		out = append(out, "--package="+p)
	}
	out = append(out, "--", "node", "--version")
	return &Plan{Tool: NPM, Package: strings.Join(pkgs, " "), Command: command, Args: out}
}

// uvx (uv tool run) flags that take a value.
var uvxValued = []string{"--from", "--with", "--with-editable", "--with-requirements", "-p", "--python", "--index", "--index-url", "-i", "--extra-index-url", "--default-index", "-f", "--find-links", "--cache-dir", "-c", "--constraints", "--overrides", "--index-strategy", "--keyring-provider", "--resolution", "--prerelease", "--exclude-newer", "--config-file", "--directory", "--project"}

// uvxPlan: "uvx [flags] PKG[==VER] [args]" or "uvx --from SPEC CMD [args]".
// The fetch runs "uvx [flags] --with SPEC python -c pass": the same
// resolution and downloads into uv's cache, without starting the server.
func uvxPlan(command string, args []string) *Plan {
	var keep []string
	from, positional := "", ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") {
			positional = a
			break
		}
		name, val, hasVal := strings.Cut(a, "=")
		if takesValue(a, uvxValued) && i+1 < len(args) {
			i++
			val, hasVal = args[i], true
		}
		if name == "--from" {
			from = val
			continue
		}
		if hasVal {
			keep = append(keep, name+"="+val)
		} else {
			keep = append(keep, a)
		}
	}
	spec := from
	if spec == "" {
		spec = positional
	}
	if spec == "" || spec == "python" {
		return nil
	}
	out := append(keep, "--with", spec, "python", "-c", "pass")
	return &Plan{Tool: UV, Package: spec, Command: command, Args: out}
}

// docker run flags that take a value.
var dockerValued = []string{"-e", "--env", "--env-file", "-v", "--volume", "--mount", "--name", "-p", "--publish", "--network", "--net", "-w", "--workdir", "-u", "--user", "--entrypoint", "-l", "--label", "--add-host", "--cpus", "-m", "--memory", "--platform", "--pull", "--device", "--cap-add", "--cap-drop", "--security-opt", "--hostname", "-h", "--runtime", "--tmpfs", "--ulimit", "--log-driver", "--log-opt", "--restart", "--shm-size", "--gpus", "--ipc", "--pid", "--dns", "--expose", "--label-file", "--cidfile", "--stop-signal", "--stop-timeout", "--health-cmd", "--group-add", "--volumes-from", "--link", "--userns", "--uts", "--cgroupns", "-a", "--attach"}

// dockerPlan: "docker run [flags] IMAGE [args]" fetches with "docker pull
// [--platform P] IMAGE"; other subcommands fetch nothing.
func dockerPlan(command string, args []string) *Plan {
	if len(args) == 0 || args[0] != "run" {
		return nil
	}
	var platform string
	for i := 1; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") {
			out := []string{"pull"}
			if platform != "" {
				out = append(out, "--platform="+platform)
			}
			return &Plan{Tool: Docker, Package: a, Command: command, Args: append(out, a)}
		}
		name, val, _ := strings.Cut(a, "=")
		if takesValue(a, dockerValued) && i+1 < len(args) {
			i++
			val = args[i]
		}
		if name == "--platform" {
			platform = val
		}
		if name == "--pull" && val == "never" {
			return nil // the user asked for no download
		}
	}
	return nil
}

// Options are how one fetch runs.
type Options struct {
	Env      []string      // the launcher's complete environment, as the server's
	Dir      string        // working directory
	Timeout  time.Duration // 0: Timeout
	Progress func(line string)
}

// cacheEnv are the variables that change where a launcher downloads to:
// two fetches of one plan share a download only when these agree.
var cacheEnv = []string{"npm_config_cache", "npm_config_registry", "npm_config_userconfig", "uv_cache_dir", "uv_index_url", "uv_default_index", "docker_host", "docker_context", "home", "userprofile"}

func key(p *Plan, env []string) string {
	var b strings.Builder
	b.WriteString(p.Command)
	for _, a := range p.Args {
		b.WriteString("\x00" + a)
	}
	var kept []string
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if slices.Contains(cacheEnv, strings.ToLower(k)) {
			kept = append(kept, kv)
		}
	}
	slices.Sort(kept) // the order of an environment means nothing here
	for _, kv := range kept {
		b.WriteString("\x01" + kv)
	}
	return b.String()
}

// flight is one download under way, shared by everyone fetching its plan.
type flight struct {
	done    chan struct{}
	err     error
	cancel  context.CancelFunc
	mu      sync.Mutex
	lines   []string // every line so far, replayed to a late waiter
	subs    map[int]func(string)
	next    int
	waiters int
}

var (
	flightsMu sync.Mutex
	flights   = map[string]*flight{}
	fetched   = map[string]bool{} // plans that succeeded in this process
)

// Fetched reports whether p already succeeded in env in this process.
func Fetched(p *Plan, env []string) bool {
	flightsMu.Lock()
	defer flightsMu.Unlock()
	return fetched[key(p, env)]
}

// Run fetches p, or waits for the same fetch already under way, or returns
// nil at once when it succeeded before. Progress gets every output line of
// the launcher (those printed before this caller came too). When ctx ends
// Run returns ctx.Err(); the download itself stops once no caller waits.
func Run(ctx context.Context, p *Plan, o Options) error {
	k := key(p, o.Env)
	flightsMu.Lock()
	if fetched[k] {
		flightsMu.Unlock()
		return nil
	}
	f := flights[k]
	if f == nil {
		fctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		f = &flight{done: make(chan struct{}), cancel: cancel, subs: map[int]func(string){}}
		flights[k] = f
		go f.run(fctx, k, p, o)
	}
	f.waiters++
	flightsMu.Unlock()

	id := f.subscribe(o.Progress)
	defer f.unsubscribe(id)
	select {
	case <-f.done:
		return f.err
	case <-ctx.Done():
		flightsMu.Lock()
		f.waiters--
		if f.waiters == 0 {
			f.cancel()
		}
		flightsMu.Unlock()
		return ctx.Err()
	}
}

func (f *flight) subscribe(fn func(string)) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	if fn == nil {
		return -1
	}
	for _, l := range f.lines {
		fn(l)
	}
	f.next++
	f.subs[f.next] = fn
	return f.next
}

func (f *flight) unsubscribe(id int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.subs, id)
}

func (f *flight) line(l string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.lines) < 1000 {
		f.lines = append(f.lines, l)
	}
	for _, fn := range f.subs {
		fn(l)
	}
}

func (f *flight) run(ctx context.Context, k string, p *Plan, o Options) {
	err := fetch(ctx, p, o, f.line)
	flightsMu.Lock()
	delete(flights, k)
	if err == nil {
		fetched[k] = true
	}
	flightsMu.Unlock()
	f.cancel()
	f.err = err
	close(f.done)
}

// fetch runs the launcher once, its process tree stopped when ctx ends or
// the limit comes.
func fetch(ctx context.Context, p *Plan, o Options, line func(string)) error {
	limit := o.Timeout
	if limit <= 0 {
		limit = Timeout
	}
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	proc, err := process.Start(process.Spec{Command: p.Command, Args: p.Args, Env: o.Env, Dir: o.Dir})
	if err != nil {
		return &Error{Op: "fetch", Package: p.Package, Tool: p.Tool, Err: errors.Join(ErrFailed, err)}
	}
	proc.Stdin.Close()
	var last lastLine
	var wg sync.WaitGroup
	for _, r := range []io.ReadCloser{proc.Stdout, proc.Stderr} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer r.Close()
			sc := bufio.NewScanner(r)
			sc.Buffer(make([]byte, 0, 4096), 64*1024)
			sc.Split(scanLines)
			for sc.Scan() {
				l := strings.TrimSpace(sc.Text())
				if l == "" {
					continue
				}
				last.set(l)
				line(l)
			}
			_, _ = io.Copy(io.Discard, r)
		}()
	}
	ended := false // by itself, before ctx or the limit
	select {
	case <-proc.Done():
		ended = true
	case <-ctx.Done():
	}
	stopCtx, stop := context.WithTimeout(context.WithoutCancel(ctx), process.StopGrace+process.TermGrace+process.KillGrace+time.Second)
	_ = proc.Stop(stopCtx)
	stop()
	wg.Wait()
	switch {
	case !ended && errors.Is(ctx.Err(), context.DeadlineExceeded):
		return &Error{Op: "fetch", Package: p.Package, Tool: p.Tool, Timeout: limit, Last: last.get(), Err: ErrTimeout}
	case !ended:
		return ctx.Err()
	case proc.Err() != nil:
		return &Error{Op: "fetch", Package: p.Package, Tool: p.Tool, Last: last.get(), Err: errors.Join(ErrFailed, proc.Err())}
	}
	return nil
}

// scanLines splits on \n and on \r, so a progress bar redrawn in place
// (docker pull, uv) gives one line per redraw.
func scanLines(data []byte, atEOF bool) (int, []byte, error) {
	for i, c := range data {
		if c == '\n' || c == '\r' {
			return i + 1, data[:i], nil
		}
	}
	if atEOF && len(data) > 0 {
		return len(data), data, nil
	}
	return 0, nil, nil
}

type lastLine struct {
	mu sync.Mutex
	s  string
}

func (l *lastLine) set(s string) { l.mu.Lock(); l.s = s; l.mu.Unlock() }
func (l *lastLine) get() string  { l.mu.Lock(); defer l.mu.Unlock(); return l.s }
