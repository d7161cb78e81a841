package sandbox

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/process"
)

// CacheDir is where fetched npx and uvx packages are kept, one folder per
// package list (bound read-only into the sandbox). A variable so tests can
// point it elsewhere.
var CacheDir = func() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "switchboard", "sandbox"), nil
}

// FetchTimeout bounds one package download (npm install, uv pip install).
var FetchTimeout = 5 * time.Minute

// fetchLocks serialise fetches into the same folder within this process.
var fetchLocks sync.Map // folder → *sync.Mutex

// fetchAhead replaces an npx or uvx command by the program of its package,
// fetched into CacheDir first; other commands are returned as they are.
func fetchAhead(ctx context.Context, spec process.Spec) (process.Spec, error) {
	switch base := strings.TrimSuffix(filepath.Base(spec.Command), ".cmd"); base {
	case "npx":
		return npxAhead(ctx, spec)
	case "uvx":
		return uvxAhead(ctx, spec)
	}
	return spec, nil
}

// npxCall is what an npx command line asks for.
type npxCall struct {
	packages []string // to install (-p, or the first positional)
	bin      string   // the command to run; "" = the package's own
	args     []string
}

// parseNpx reads npx's options up to the package (or command) name.
func parseNpx(args []string) (npxCall, error) {
	var c npxCall
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-y" || a == "--yes" || a == "-q" || a == "--quiet" || a == "--no-install" ||
			a == "--prefer-offline" || a == "--prefer-online" || a == "--offline":
		case a == "-p" || a == "--package":
			if i+1 == len(args) {
				return c, &Error{Op: "npx", Path: a, Err: fmt.Errorf("%w: %s needs a package name", ErrPackage, a)}
			}
			i++
			c.packages = append(c.packages, args[i])
		case strings.HasPrefix(a, "--package="):
			c.packages = append(c.packages, strings.TrimPrefix(a, "--package="))
		case a == "--":
		case strings.HasPrefix(a, "-"):
			return c, &Error{Op: "npx", Path: a, Err: fmt.Errorf(`%w: the option is not understood; run the package's program with "node" and its path instead`, ErrPackage)}
		default:
			if len(c.packages) == 0 {
				c.packages = []string{a}
			} else {
				c.bin = a
			}
			c.args = slices.Clone(args[i+1:])
			return c, nil
		}
	}
	return c, &Error{Op: "npx", Err: fmt.Errorf("%w: no package named", ErrPackage)}
}

// packageName strips the version from an npm spec: "@scope/pkg@1.2" → "@scope/pkg".
func packageName(spec string) string {
	if i := strings.LastIndex(spec, "@"); i > 0 {
		return spec[:i]
	}
	return spec
}

func npxAhead(ctx context.Context, spec process.Spec) (process.Spec, error) {
	c, err := parseNpx(spec.Args)
	if err != nil {
		return spec, err
	}
	npm := filepath.Join(filepath.Dir(spec.Command), "npm")
	if !exists(npm) {
		if npm, err = process.LookPath("npm", searchPath(spec.Env)); err != nil {
			return spec, err
		}
	}
	dir, err := fetch(ctx, "npm", c.packages, func(ctx context.Context, tmp string) error {
		// A package.json of its own, so npm installs here and not into a
		// project found above the cache folder.
		if err := os.WriteFile(filepath.Join(tmp, "package.json"), []byte(`{"private":true}`), 0o644); err != nil {
			return err
		}
		args := append([]string{"install", "--prefix", tmp, "--no-audit", "--no-fund", "--loglevel=error"}, c.packages...)
		return run(ctx, spec, npm, args...)
	})
	if err != nil {
		return spec, err
	}
	script, err := npmBin(dir, c)
	if err != nil {
		return spec, err
	}
	out := spec
	out.Args = append([]string{script}, c.args...)
	out.Command = script
	if interp := interpreter(script, searchPath(spec.Env)); interp == "" || filepath.Base(interp) == "node" || strings.HasSuffix(interp, "/env") {
		// Run node itself: the script's "#!/usr/bin/env node" would look
		// node up on a PATH whose folders may not be in the sandbox.
		node := filepath.Join(filepath.Dir(spec.Command), "node")
		if !exists(node) {
			if node, err = process.LookPath("node", searchPath(spec.Env)); err != nil {
				return spec, err
			}
		}
		out.Command = node
	} else {
		out.Args = out.Args[1:]
	}
	return out, nil
}

// npmBin finds the file npx would run for c in an install folder.
func npmBin(dir string, c npxCall) (string, error) {
	var names []string
	for _, p := range c.packages {
		name := packageName(p)
		raw, err := os.ReadFile(filepath.Join(dir, "node_modules", name, "package.json"))
		if err != nil {
			return "", &Error{Op: "npx", Path: p, Err: fmt.Errorf("%w: it was not installed (%v)", ErrPackage, err)}
		}
		var pj struct {
			Name string          `json:"name"`
			Bin  json.RawMessage `json:"bin"`
		}
		if err := json.Unmarshal(raw, &pj); err != nil {
			return "", &Error{Op: "npx", Path: p, Err: fmt.Errorf("%w: its package.json: %w", ErrPackage, err)}
		}
		bins := map[string]string{}
		var one string
		if json.Unmarshal(pj.Bin, &one) == nil && one != "" {
			_, short, _ := strings.Cut(name, "/")
			bins[cmpOr(short, name)] = one
		} else {
			_ = json.Unmarshal(pj.Bin, &bins)
		}
		pick := c.bin
		if pick == "" {
			_, short, _ := strings.Cut(name, "/")
			pick = cmpOr(short, name)
			if len(bins) == 1 {
				for k := range bins {
					pick = k
				}
			}
		}
		if rel, ok := bins[pick]; ok {
			return filepath.Join(dir, "node_modules", name, rel), nil
		}
		for k := range bins {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	return "", &Error{Op: "npx", Path: strings.Join(c.packages, " "), Err: fmt.Errorf("%w: no program to run among %q; name it: npx -p PACKAGE PROGRAM", ErrPackage, names)}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// uvxCall is what a uvx command line asks for.
type uvxCall struct {
	from    string   // the package (--from, else the command)
	with    []string // --with extras
	python  string   // --python
	command string
	args    []string
}

func parseUvx(args []string) (uvxCall, error) {
	var c uvxCall
	value := func(i int, a string) (string, error) {
		if i+1 == len(args) {
			return "", &Error{Op: "uvx", Path: a, Err: fmt.Errorf("%w: %s needs a value", ErrPackage, a)}
		}
		return args[i+1], nil
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		k, v, hasValue := strings.Cut(a, "=")
		switch {
		case a == "-q" || a == "--quiet" || a == "--refresh" || a == "--offline" || a == "--no-progress":
		case k == "--from" || k == "--with" || k == "--python" || k == "-p":
			if !hasValue {
				var err error
				if v, err = value(i, a); err != nil {
					return c, err
				}
				i++
			}
			switch k {
			case "--from":
				c.from = v
			case "--with":
				c.with = append(c.with, v)
			default:
				c.python = v
			}
		case a == "--":
		case strings.HasPrefix(a, "-"):
			return c, &Error{Op: "uvx", Path: a, Err: fmt.Errorf(`%w: the option is not understood; install the tool with "uv tool install" and run its program instead`, ErrPackage)}
		default:
			c.command, c.args = a, slices.Clone(args[i+1:])
			if c.from == "" {
				c.from = a
			}
			// "pkg@1.2" and "pkg==1.2" run the command "pkg".
			c.command, _, _ = strings.Cut(c.command, "@")
			c.command, _, _ = strings.Cut(c.command, "==")
			c.command, _, _ = strings.Cut(c.command, "[")
			if at := strings.Index(c.from, "@"); at > 0 && !strings.Contains(c.from, "://") {
				c.from = c.from[:at] + "==" + c.from[at+1:]
			}
			return c, nil
		}
	}
	return c, &Error{Op: "uvx", Err: fmt.Errorf("%w: no tool named", ErrPackage)}
}

func uvxAhead(ctx context.Context, spec process.Spec) (process.Spec, error) {
	c, err := parseUvx(spec.Args)
	if err != nil {
		return spec, err
	}
	uv := filepath.Join(filepath.Dir(spec.Command), "uv")
	if !exists(uv) {
		if uv, err = process.LookPath("uv", searchPath(spec.Env)); err != nil {
			return spec, err
		}
	}
	key := append([]string{c.from, "python=" + c.python}, c.with...)
	// A virtualenv is not relocatable (its scripts name its python), so it
	// is made in place: fetch's temporary folder is its final one.
	dir, err := fetchInPlace(ctx, "uv", key, func(ctx context.Context, dir string) error {
		venv := []string{"venv", "--quiet", dir}
		if c.python != "" {
			venv = append(venv, "--python", c.python)
		}
		if err := run(ctx, spec, uv, venv...); err != nil {
			return err
		}
		return run(ctx, spec, uv, append([]string{"pip", "install", "--quiet", "--python", filepath.Join(dir, "bin", "python"), c.from}, c.with...)...)
	})
	if err != nil {
		return spec, err
	}
	prog := filepath.Join(dir, "bin", c.command)
	if !exists(prog) {
		return spec, &Error{Op: "uvx", Path: c.command, Err: fmt.Errorf("%w: %s installed no program %q; name it: uvx --from PACKAGE PROGRAM", ErrPackage, c.from, c.command)}
	}
	out := spec
	out.Command, out.Args = prog, c.args
	return out, nil
}

// fetch installs into a temporary folder beside the final one and renames
// it into place, so a folder that exists is complete. It returns the
// final folder, fetched once.
func fetch(ctx context.Context, kind string, key []string, install func(context.Context, string) error) (string, error) {
	dir, unlock, err := cacheFolder(kind, key)
	if err != nil {
		return "", err
	}
	defer unlock()
	if exists(dir) {
		return dir, nil
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".fetch-*")
	if err != nil {
		return "", &Error{Op: kind, Err: err}
	}
	defer os.RemoveAll(tmp)
	ctx, cancel := context.WithTimeout(ctx, FetchTimeout)
	defer cancel()
	if err := install(ctx, tmp); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, dir); err != nil && !exists(dir) {
		return "", &Error{Op: kind, Path: dir, Err: err}
	}
	return dir, nil
}

// fetchInPlace installs into the final folder and marks it complete with a
// file; a folder without the mark is an interrupted fetch and starts over.
func fetchInPlace(ctx context.Context, kind string, key []string, install func(context.Context, string) error) (string, error) {
	dir, unlock, err := cacheFolder(kind, key)
	if err != nil {
		return "", err
	}
	defer unlock()
	mark := filepath.Join(dir, ".switchboard-complete")
	if exists(mark) {
		return dir, nil
	}
	_ = os.RemoveAll(dir)
	ctx, cancel := context.WithTimeout(ctx, FetchTimeout)
	defer cancel()
	if err := install(ctx, dir); err != nil {
		_ = os.RemoveAll(dir)
		return "", err
	}
	if err := os.WriteFile(mark, nil, 0o644); err != nil {
		return "", &Error{Op: kind, Path: mark, Err: err}
	}
	return dir, nil
}

// cacheFolder is the folder of one package list, locked for this process.
func cacheFolder(kind string, key []string) (string, func(), error) {
	root, err := CacheDir()
	if err != nil {
		return "", nil, &Error{Op: kind, Err: fmt.Errorf("no cache folder: %w", err)}
	}
	sum := sha256.Sum256([]byte(strings.Join(key, "\x00")))
	dir := filepath.Join(root, kind, hex.EncodeToString(sum[:8]))
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return "", nil, &Error{Op: kind, Path: dir, Err: err}
	}
	mu, _ := fetchLocks.LoadOrStore(dir, &sync.Mutex{})
	mu.(*sync.Mutex).Lock()
	return dir, mu.(*sync.Mutex).Unlock, nil
}

// run runs a package manager with the server's environment and working
// directory; its output becomes the error when it fails.
func run(ctx context.Context, spec process.Spec, name string, args ...string) error {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = spec.Env
	if cmd.Env == nil {
		cmd.Env = []string{}
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(out.String())
		if len(msg) > 2000 {
			msg = "…" + msg[len(msg)-2000:]
		}
		op := filepath.Base(name) + " " + args[0]
		return &Error{Op: op, Path: strings.Join(args[len(args)-1:], " "), Err: fmt.Errorf("%w: %w: %s", ErrPackage, err, msg)}
	}
	return nil
}
