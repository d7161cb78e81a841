//go:build bench

package bench_test

import (
	"bufio"
	"errors"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/builtin/mcptest"
)

// benchBesideChromium: the same frontend, an empty data dir and the same
// first page, rendered by our window (Go + WebKitGTK) and by Debian's
// Chromium (the engine Electron hosts ship) pointed at the dev server of
// the dev build (what 'wails dev' runs: the same Go backend, its bindings
// served over HTTP). PSS, so shared libraries are split fairly.
func benchBesideChromium(t *testing.T, tb *table, bin string) {
	if os.Getenv("DISPLAY") == "" {
		t.Fatal("no X display: run 'make bench' (it runs the benchmarks under xvfb-run)")
	}
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatal("Debian's chromium is not installed: run 'make test' once (it installs the test packages)")
	}
	repo, _ := filepath.Abs("..")
	dev := filepath.Join(t.TempDir(), "switchboard-dev")
	build := exec.Command("go", "build", "-tags", "dev,webkit2_41", "-o", dev, ".")
	build.Dir = repo
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build the dev binary: %v\n%s", err, out)
	}

	var oursApp, oursRenderer, chromeAll, chromeRenderer []mem
	for range 3 {
		_, app, renderer := launchWindowRenderer(t, bin, filepath.Join(t.TempDir(), "data"), "mcp-server-everything", 0)
		oursApp, oursRenderer = append(oursApp, app), append(oursRenderer, renderer)
		all, rend := chromiumBeside(t, chromium, dev, filepath.Join(repo, "frontend", "dist"))
		chromeAll, chromeRenderer = append(chromeAll, all), append(chromeRenderer, rend)
	}
	mid := func(ms []mem) mem {
		s := append([]mem(nil), ms...)
		for i := range s {
			for j := i + 1; j < len(s); j++ {
				if s[j].pss < s[i].pss {
					s[i], s[j] = s[j], s[i]
				}
			}
		}
		return s[len(s)/2]
	}
	r, cr := mid(oursRenderer), mid(chromeRenderer)
	tb.add("memory beside Chromium, renderer PSS: our WebKitWebProcess vs Chromium's renderer processes (same frontend, page and empty data dir)",
		r.String(), cr.String(), float64(r.pss)/float64(cr.pss), "≤ 0.6×")
	a, ca := mid(oursApp), mid(chromeAll)
	tb.add("memory beside Chromium, whole app PSS: our window (Go + WebKit processes) vs Chromium's process tree (without the Go backend it talks to)",
		a.String(), ca.String(), float64(a.pss)/float64(ca.pss), "")
}

// chromiumBeside serves the app from the dev binary on a loopback port,
// opens it in Chromium as an app window, waits for the page's first render
// (the backend logs "frontend ready") and an idle tree, and returns the
// memory of Chromium's processes and of its renderers.
func chromiumBeside(t *testing.T, chromium, dev, assets string) (all, renderers mem) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	home := t.TempDir()
	run := filepath.Join(home, "run")
	if err := os.Mkdir(run, 0o700); err != nil {
		t.Fatal(err)
	}
	// TMPDIR too: Chromium puts its singleton socket in a folder of the
	// temp dir, which a stopped Chromium leaves behind.
	env := append(os.Environ(), "XDG_CONFIG_HOME="+filepath.Join(home, "config"), "XDG_DATA_HOME="+filepath.Join(home, "share"),
		"XDG_CACHE_HOME="+filepath.Join(home, "cache"), "XDG_RUNTIME_DIR="+run, "NO_AT_BRIDGE=1", "TMPDIR="+home)
	backend := exec.Command("dbus-run-session", "--", dev, "--data-dir", filepath.Join(home, "data"))
	backend.Env = append(env, "devserver="+addr, "assetdir="+assets, "frontenddevserverurl=", "loglevel=Warning")
	backend.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, err := backend.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := backend.Start(); err != nil {
		t.Fatal(err)
	}
	var readies atomic.Int32
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "frontend ready") {
				readies.Add(1)
			}
		}
	}()
	defer stopGroup(backend)
	waitFor(t, "the dev server", func() bool {
		res, err := http.Get("http://" + addr + "/")
		if err == nil {
			res.Body.Close()
		}
		return err == nil && res.StatusCode == http.StatusOK
	})
	// The dev build opens its own window too: let it report first, so the
	// next "frontend ready" is Chromium's page.
	waitFor(t, "the dev build's own window", func() bool { return readies.Load() >= 1 })

	browser := exec.Command(chromium, "--no-sandbox", "--no-first-run", "--no-default-browser-check", "--disable-extensions",
		"--disable-component-update", "--user-data-dir="+filepath.Join(home, "chromium"), "--window-size=1280,900", "--app=http://"+addr+"/")
	browser.Env = env
	browser.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := browser.Start(); err != nil {
		t.Fatal(err)
	}
	defer stopGroup(browser)
	waitFor(t, "Chromium's page", func() bool { return readies.Load() >= 2 })
	waitIdle(t, browser.Process.Pid, "none", 0)
	all, parts := treeMem(browser.Process.Pid, func(string) bool { return true })
	renderers, _ = treeMem(browser.Process.Pid, func(c string) bool { return strings.Contains(c, "--type=renderer") })
	renderers = subtract(renderers, memOf(browser.Process.Pid))
	t.Logf("chromium: %s", parts)
	return all, renderers
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	mcptest.Within(t, 90*time.Second, what+" to come up", func() error {
		if !ok() {
			return errors.New("not up")
		}
		return nil
	})
}

// stopGroup ends a process group: SIGTERM, then SIGKILL after 10 s.
func stopGroup(cmd *exec.Cmd) {
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
	}
}
