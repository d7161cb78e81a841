// Command serve runs the MCP conformance suite's server scenarios against
// 'switchboard serve --http' (test-only; see ../run.sh).
//
//	serve -switchboard BIN -node NODE -conformance CLI [-baseline FILE] scenario...
//	serve -switchboard BIN -node NODE -conformance CLI [-baseline FILE] -requirements 2026-07-28
//	serve ... -server skills=/path/to/modernserver sep-2640-skills-enumeration   # the testserver built as modernserver
//
// -server NAME=COMMAND (repeatable) puts a stdio server in the config
// 'switchboard serve' relays (none by default): the skills extension's
// scenarios need one that serves skills.
//
// -skills DIR copies a tree of skill folders into the data dir's own skills
// folder (HOME is the temp dir, so no other skills are found): with no
// -server, serve offers only those local skills.
//
// With -requirements, the suite runs every scenario that revision requires
// of a server in one go (0.2.0 pre-releases of the suite).
//
// The suite cannot send the bearer token 'switchboard serve' requires, so a
// loopback proxy adds it to every request and changes nothing else: Host and
// Origin reach the gateway as the suite sent them, so its DNS-rebinding
// checks are what the dns-rebinding-protection scenario exercises.
package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"
)

func main() {
	bin := flag.String("switchboard", "", "the switchboard binary")
	node := flag.String("node", "", "Node 22")
	cli := flag.String("conformance", "", "the conformance suite's CLI (dist/index.js)")
	baseline := flag.String("baseline", "", "expected-failures YAML")
	requirements := flag.String("requirements", "", "run the scenarios this spec revision requires (instead of naming them)")
	servers := map[string]any{}
	flag.Func("server", "NAME=COMMAND: a stdio server for the gateway to relay (repeatable)", func(v string) error {
		name, command, ok := strings.Cut(v, "=")
		if !ok || name == "" || command == "" {
			return fmt.Errorf("want NAME=COMMAND, got %q", v)
		}
		servers[name] = map[string]any{"command": command}
		return nil
	})
	skillTree := flag.String("skills", "", "a folder of skill folders to serve as Switchboard's own local skills")
	flag.Parse()
	if *bin == "" || *node == "" || *cli == "" || (flag.NArg() == 0) == (*requirements == "") {
		fmt.Fprintln(os.Stderr, "usage: serve -switchboard BIN -node NODE -conformance CLI [-baseline FILE] scenario...")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	runs := make([][]string, 0, flag.NArg())
	for _, sc := range flag.Args() {
		runs = append(runs, []string{"--scenario", sc})
	}
	if *requirements != "" {
		runs = append(runs, []string{"--requirements", *requirements})
	}
	if err := run(ctx, *bin, *node, *cli, *baseline, *skillTree, servers, runs); err != nil {
		fmt.Fprintln(os.Stderr, "serve:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, bin, node, cli, baseline, skillTree string, servers map[string]any, runs [][]string) error {
	dir, err := os.MkdirTemp("", "switchboard-conformance-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if skillTree != "" {
		if err := os.CopyFS(filepath.Join(dir, "data", "skills"), os.DirFS(skillTree)); err != nil {
			return fmt.Errorf("copy the skills: %w", err)
		}
	}
	cfg := filepath.Join(dir, "servers.json")
	file, _ := json.Marshal(map[string]any{"mcpServers": servers})
	if err := os.WriteFile(cfg, file, 0o600); err != nil {
		return err
	}
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	token := hex.EncodeToString(b)

	// The gateway serves the built-in content store's tools.
	cmd := exec.Command(bin, "--data-dir", filepath.Join(dir, "data"), "serve", "--config", cfg, "--http", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), "SWITCHBOARD_SERVE_TOKEN="+token)
	if skillTree != "" {
		cmd.Env = append(cmd.Env, "HOME="+dir) // no skills of the user's
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	defer func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	}()
	target, err := servedURL(stderr)
	if err != nil {
		return err
	}

	u, _ := url.Parse(target)
	proxy := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(&url.URL{Scheme: u.Scheme, Host: u.Host})
			r.Out.Host = r.In.Host // the gateway judges the Host the client sent
			r.Out.Header.Set("Authorization", "Bearer "+token)
		},
		FlushInterval: -1, // stream SSE through
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	// Each request's body is read whole before it is relayed. Streamed,
	// the proxy's Transport makes a last read of it for its EOF while
	// 'serve' may already have answered; the HTTP/1 server closes a
	// request's body once the response is being written (no full duplex),
	// so that read fails with "invalid Read on closed Body", the Transport
	// drops the connection with the answer still on it, and the suite sees
	// its request "terminated" or never answered (run.sh's flake, traced
	// 2026-12-03).
	whole := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
		proxy.ServeHTTP(w, r)
	})
	srv := &http.Server{Handler: whole, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(l) }()
	defer func() {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
		<-served
	}()
	mcpURL := fmt.Sprintf("http://127.0.0.1:%d/mcp", l.Addr().(*net.TCPAddr).Port)

	var failed []string
	for _, sc := range runs {
		args := append([]string{cli, "server", "--url", mcpURL}, sc...)
		if baseline != "" {
			args = append(args, "--expected-failures", baseline)
		}
		c := exec.CommandContext(ctx, node, args...)
		c.Stdout, c.Stderr = os.Stdout, os.Stderr
		if err := c.Run(); err != nil {
			failed = append(failed, strings.Join(sc, " "))
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("server scenarios failed: %v", failed)
	}
	return nil
}

var servingAt = regexp.MustCompile(`Streamable HTTP at (http://\S+)`)

// servedURL reads serve's stderr until it names its address, then keeps
// copying it to ours.
func servedURL(stderr io.Reader) (string, error) {
	sc := bufio.NewScanner(stderr)
	found := make(chan string, 1)
	go func() {
		for sc.Scan() {
			line := sc.Text()
			fmt.Fprintln(os.Stderr, redact(line))
			if m := servingAt.FindStringSubmatch(line); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
		}
		close(found)
	}()
	select {
	case u, ok := <-found:
		if !ok {
			return "", errors.New("switchboard serve exited before serving")
		}
		return u, nil
	case <-time.After(60 * time.Second):
		return "", errors.New("switchboard serve did not start serving within 60s")
	}
}

var bearer = regexp.MustCompile(`Bearer \S+`)

// redact keeps the token out of the log, as the app keeps secrets out of its own.
func redact(line string) string { return bearer.ReplaceAllString(line, "Bearer ••••") }
