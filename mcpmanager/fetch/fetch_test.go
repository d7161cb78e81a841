package fetch_test

import (
	"errors"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/fetch"
	"github.com/switchboard-app/switchboard/mcpmanager/fetch/fetchtest"
)

func TestFor(t *testing.T) {
	tests := []struct {
		name    string
		command string
		args    []string
		want    *fetch.Plan // nil: nothing to fetch
	}{
		{"npx -y", "npx", []string{"-y", "@modelcontextprotocol/server-memory@2025.1.1"},
			&fetch.Plan{Tool: fetch.NPM, Package: "@modelcontextprotocol/server-memory@2025.1.1", Command: "npx",
				Args: []string{"--yes", "--loglevel=http", "--package=@modelcontextprotocol/server-memory@2025.1.1", "--", "node", "--version"}}},
		{"npx full path, server args, registry kept", "/usr/local/bin/npx.cmd", []string{"--yes", "--registry", "http://r/", "pkg", "--port", "3"},
			&fetch.Plan{Tool: fetch.NPM, Package: "pkg", Command: "/usr/local/bin/npx.cmd",
				Args: []string{"--yes", "--loglevel=http", "--registry=http://r/", "--package=pkg", "--", "node", "--version"}}},
		{"npx -p packages then a command", "npx", []string{"-p", "a@1", "--package=b", "-y", "a-bin", "x"},
			&fetch.Plan{Tool: fetch.NPM, Package: "a@1 b", Command: "npx",
				Args: []string{"--yes", "--loglevel=http", "--package=a@1", "--package=b", "--", "node", "--version"}}},
		{"npx after --", "npx", []string{"-y", "--", "pkg@2", "--flag"},
			&fetch.Plan{Tool: fetch.NPM, Package: "pkg@2", Command: "npx",
				Args: []string{"--yes", "--loglevel=http", "--package=pkg@2", "--", "node", "--version"}}},
		{"npx -c without a package", "npx", []string{"-c", "echo hi"}, nil},
		{"npx alone", "npx", nil, nil},
		{"uvx pinned", "uvx", []string{"mcp-server-fetch==2025.4.7", "--ignore-robots-txt"},
			&fetch.Plan{Tool: fetch.UV, Package: "mcp-server-fetch==2025.4.7", Command: "uvx",
				Args: []string{"--with", "mcp-server-fetch==2025.4.7", "python", "-c", "pass"}}},
		{"uvx --from with python flag", "uvx", []string{"--python", "3.12", "--from", "git+https://x/y", "y-server"},
			&fetch.Plan{Tool: fetch.UV, Package: "git+https://x/y", Command: "uvx",
				Args: []string{"--python=3.12", "--with", "git+https://x/y", "python", "-c", "pass"}}},
		{"docker run", "docker", []string{"run", "-i", "--rm", "-e", "TOKEN", "--platform=linux/amd64", "ghcr.io/github/github-mcp-server:0.5.0", "stdio"},
			&fetch.Plan{Tool: fetch.Docker, Package: "ghcr.io/github/github-mcp-server:0.5.0", Command: "docker",
				Args: []string{"pull", "--platform=linux/amd64", "ghcr.io/github/github-mcp-server:0.5.0"}}},
		{"docker run --pull never", "docker", []string{"run", "--pull", "never", "img"}, nil},
		{"docker exec", "docker", []string{"exec", "-i", "box", "server"}, nil},
		{"node script", "node", []string{"server.js"}, nil},
		{"a binary", "/opt/bin/server", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := fetch.For(tt.command, tt.args)
			if (got == nil) != (tt.want == nil) {
				t.Fatalf("For(%q, %q) = %+v, want %+v", tt.command, tt.args, got, tt.want)
			}
			if got == nil {
				return
			}
			if got.Tool != tt.want.Tool || got.Package != tt.want.Package || got.Command != tt.want.Command || !slices.Equal(got.Args, tt.want.Args) {
				t.Errorf("For(%q, %q)\n got %+v\nwant %+v", tt.command, tt.args, got, tt.want)
			}
		})
	}
}

// npmEnv is this process's environment with npm pointed at reg and an
// empty cache of the test's own.
func npmEnv(t *testing.T, reg *fetchtest.Registry) []string {
	t.Helper()
	env := os.Environ()
	for k, v := range reg.Env(t.TempDir()) {
		env = append(env, k+"="+v)
	}
	return env
}

func startRegistry(t *testing.T) *fetchtest.Registry {
	t.Helper()
	reg, err := fetchtest.Start(t.Context(), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// An empty cache: the package is downloaded once however many callers
// fetch it at the same time, each sees npm's progress lines, and a later
// fetch is a no-op.
func TestRunColdCacheShared(t *testing.T) {
	reg := startRegistry(t)
	reg.SetDelay(time.Second)
	env := npmEnv(t, reg)
	p := fetch.For("npx", []string{"-y", reg.Spec()})

	var wg sync.WaitGroup
	errs := make([]error, 3)
	lines := make([][]string, 3)
	var mu sync.Mutex
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = fetch.Run(t.Context(), p, fetch.Options{Env: env, Progress: func(l string) {
				mu.Lock()
				lines[i] = append(lines[i], l)
				mu.Unlock()
			}})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("caller %d: %v", i, err)
		}
		if !slices.ContainsFunc(lines[i], func(l string) bool { return strings.Contains(l, "GET 200") && strings.Contains(l, ".tgz") }) {
			t.Errorf("caller %d saw no download line: %q", i, lines[i])
		}
	}
	if n := reg.Downloads.Load(); n != 1 {
		t.Errorf("tarball downloaded %d times, want 1", n)
	}
	if !fetch.Fetched(p, env) {
		t.Error("Fetched = false after a successful fetch")
	}
	if err := fetch.Run(t.Context(), p, fetch.Options{Env: env, Progress: func(l string) { t.Errorf("a second fetch ran npm: %q", l) }}); err != nil {
		t.Fatal(err)
	}
}

func TestRunErrors(t *testing.T) {
	reg := startRegistry(t)
	reg.SetDelay(time.Minute)
	tests := []struct {
		name    string
		spec    string
		timeout time.Duration
		want    error
		says    string
	}{
		{"a download slower than the limit", reg.Spec(), 2 * time.Second, fetch.ErrTimeout, "raise the download time limit in Settings"},
		{"a package the registry does not have", "switchboard-no-such-package@1.0.0", time.Minute, fetch.ErrFailed, "check the package name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := fetch.For("npx", []string{"-y", tt.spec})
			start := time.Now()
			err := fetch.Run(t.Context(), p, fetch.Options{Env: npmEnv(t, reg), Timeout: tt.timeout})
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			var fe *fetch.Error
			if !errors.As(err, &fe) || fe.Package != tt.spec || !strings.Contains(err.Error(), tt.says) {
				t.Errorf("err = %v: want a *fetch.Error naming %s and saying %q", err, tt.spec, tt.says)
			}
			if el := time.Since(start); el > tt.timeout+15*time.Second {
				t.Errorf("took %s with a limit of %s", el, tt.timeout)
			}
		})
	}
}
