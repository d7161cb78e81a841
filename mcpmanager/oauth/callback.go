package oauth

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"html/template"
	"net"
	"net/http"
	"net/url"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
)

// OpenBrowser opens u in the user's browser (xdg-open, open, or rundll32 on
// Windows) and returns once the opener started. A variable so tests and
// the conformance client can follow the redirect over HTTP instead.
var OpenBrowser = func(_ context.Context, u string) error {
	if err := checkSecure(u); err != nil {
		return err // never hand anything but a web URL to the desktop's opener
	}
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", u)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", u)
	default:
		cmd = exec.Command("xdg-open", u)
	}
	// Not tied to ctx: the browser outlives the login.
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("open a browser: %w", err)
	}
	go func() { _ = cmd.Wait() }() // reap the opener whenever it exits
	return nil
}

// callback is the loopback listener the browser is redirected to.
type callback struct {
	redirectURI string
	srv         *http.Server
	wg          sync.WaitGroup
	result      chan callbackResult
	once        sync.Once
	// finished closes when the login ended (finish); outcome is then how.
	finished   chan struct{}
	outcome    error
	finishOnce sync.Once
}

type callbackResult struct {
	code string
	err  error
}

// redirect is a loopback redirect URI: http://HOST:PORT/PATH.
type redirect struct {
	host string // as sent: 127.0.0.1, localhost or [::1]
	port int    // 0: any free port
	path string
	// fixed names the entry's setting that fixed the URI ("redirectPort",
	// "redirectUri"): the authorization server knows only that URI, so no
	// other port will do. "": a preference.
	fixed string
}

// parseRedirect reads the entry's redirectUri: http, a loopback host
// (localhost, 127.0.0.1 or [::1]), an explicit port, any path.
func parseRedirect(raw string) (redirect, error) {
	u, err := url.Parse(raw)
	if err == nil && u.Scheme == "http" && loopback(u.Hostname()) && u.RawQuery == "" && u.Fragment == "" {
		if port, perr := strconv.Atoi(u.Port()); perr == nil && port > 0 && port < 1<<16 {
			host := u.Hostname()
			if strings.Contains(host, ":") {
				host = "[" + host + "]"
			}
			return redirect{host: host, port: port, path: cmp.Or(u.EscapedPath(), "/"), fixed: "redirectUri"}, nil
		}
	}
	return redirect{}, &Error{Op: "listen for the login redirect", Err: fmt.Errorf(`the server's redirectUri %q is not http://localhost:PORT/PATH, http://127.0.0.1:PORT/PATH or http://[::1]:PORT/PATH; correct "oauth.redirectUri" in its entry`, raw)}
}

// issuerCheck is what RFC 9207 asks of an authorization response: its
// "iss" equals issuer, recorded from the validated metadata, by simple
// string comparison (no case folding, port, trailing-slash or
// percent-encoding normalization: MCP 2026-07-28); required when the
// server advertises that it always sends one.
type issuerCheck struct {
	issuer   string
	required bool
}

// check returns why q cannot be trusted as the authorization server's
// answer, or nil. It runs before the answer's error is looked at: an
// answer from another server must not be acted on or shown.
func (c issuerCheck) check(q url.Values) error {
	got, present := q["iss"]
	switch {
	case present && (len(got) != 1 || got[0] != c.issuer):
		return fmt.Errorf("%w: it names issuer %q, not %q; %s", ErrIssuerMismatch, strings.Join(got, ", "), c.issuer, issAdvice)
	case !present && c.required:
		return fmt.Errorf("%w: it names no issuer, although %s says it always does; %s", ErrIssuerMismatch, c.issuer, issAdvice)
	}
	return nil
}

const issAdvice = "start the login again, and if it repeats, tell the server's operator"

// listenLoopback listens for the redirect carrying state: on 127.0.0.1
// (on [::1] for that host; for localhost on both, as the browser may try
// either), on rd's port, or any port when it is 0 or taken and was only a
// preference. A fixed port (the entry's redirectPort or redirectUri)
// that is taken fails with ErrPortBusy naming what holds it: on another
// port the authorization server would refuse the redirect URI, after the
// user logged in.
func listenLoopback(rd redirect, state string, iss issuerCheck, server string) (*callback, error) {
	ip := "127.0.0.1"
	if rd.host == "[::1]" {
		ip = "[::1]"
	}
	l, err := net.Listen("tcp", ip+":"+strconv.Itoa(rd.port))
	if err != nil && rd.fixed != "" {
		holder := "another program"
		if p := portHolder(rd.port); p != "" {
			holder = p
		}
		return nil, &Error{Op: "listen for the login redirect", Err: fmt.Errorf(
			"%w: port %d (the server's %s) is held by %s; stop it and log in again, or register another redirect port with the authorization server and set it under the server's Details → OAuth client: %w",
			ErrPortBusy, rd.port, rd.fixed, holder, err)}
	}
	if err != nil && rd.port != 0 {
		l, err = net.Listen("tcp", ip+":0")
	}
	if err != nil {
		return nil, &Error{Op: "listen for the login redirect", Err: err}
	}
	port := l.Addr().(*net.TCPAddr).Port
	c := &callback{
		redirectURI: fmt.Sprintf("http://%s:%d%s", rd.host, port, rd.path),
		result:      make(chan callbackResult, 1),
		finished:    make(chan struct{}),
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.EscapedPath() != rd.path {
			http.NotFound(w, r)
			return
		}
		c.answer(w, r, check(r.URL.Query(), state, iss), server)
	})
	c.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	listeners := []net.Listener{l}
	if rd.host == "localhost" {
		// Also on ::1, best effort: a browser may try it first for
		// localhost (most fall back to 127.0.0.1 when nothing listens).
		if l6, err := net.Listen("tcp", "[::1]:"+strconv.Itoa(port)); err == nil {
			listeners = append(listeners, l6)
		}
	}
	for _, l := range listeners {
		c.wg.Add(1)
		go func() {
			defer c.wg.Done()
			_ = c.srv.Serve(l)
		}()
	}
	return c, nil
}

// check reads the redirect's query: the code, or why there is none.
func check(q url.Values, state string, iss issuerCheck) callbackResult {
	var res callbackResult
	switch issErr := iss.check(q); {
	case !q.Has("state") && q.Get("error") != "" && issErr == nil:
		// An error answer without the state (servers leave it out): it
		// carries no code to misuse, so say what it is.
		res.err = &Error{Op: "authorize", Err: &DeniedError{Code: q.Get("error"), Description: q.Get("error_description")}}
	case q.Get("state") != state:
		res.err = &Error{Op: "authorize", Err: ErrStateMismatch}
	case issErr != nil:
		// RFC 9207: the answer came from another authorization server
		// (a mix-up attack): its code goes nowhere, its error is not shown.
		res.err = &Error{Op: "authorize", Err: issErr}
	case q.Get("error") != "":
		res.err = &Error{Op: "authorize", Err: &DeniedError{Code: q.Get("error"), Description: q.Get("error_description")}}
	case q.Get("code") == "":
		res.err = &Error{Op: "authorize", Err: fmt.Errorf("%w: the redirect carries no code", ErrDenied)}
	default:
		res.code = q.Get("code")
	}
	return res
}

// DeniedError is the authorization server's error answer to the login
// (RFC 6749 §4.1.2.1), as the redirect carried it. It matches ErrDenied.
type DeniedError struct {
	Code        string // access_denied, invalid_scope, ...
	Description string
}

func (e *DeniedError) Error() string {
	msg := ErrDenied.Error() + ": " + e.Code
	if e.Description != "" {
		msg += ": " + e.Description
	}
	return msg
}

// Unwrap returns ErrDenied.
func (e *DeniedError) Unwrap() error { return ErrDenied }

// answer hands the first redirect's result to the login and shows the
// browser how the login ended: a refused redirect at once, a code once it
// was exchanged and the tokens kept (or not), so the tab never says
// "Logged in" for a login that then failed.
func (c *callback) answer(w http.ResponseWriter, r *http.Request, res callbackResult, server string) {
	first := false
	c.once.Do(func() {
		first = true
		c.result <- res // the first answer decides
	})
	err, pending := res.err, false
	if !first || res.err == nil {
		err, pending = c.await(r.Context())
	}
	page := donePage{Server: server, OK: err == nil && !pending, Pending: pending}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err != nil {
		page.Err = err.Error()
		w.WriteHeader(http.StatusBadRequest)
	}
	_ = pageTmpl.Execute(w, page)
}

// await waits for the login's outcome, at most as long as a token request
// may take and a little more: past that the page says the login is being
// finished in Switchboard, which then shows the result.
func (c *callback) await(ctx context.Context) (err error, pending bool) {
	t := time.NewTimer(RequestTimeout + 5*time.Second)
	defer t.Stop()
	select {
	case <-c.finished:
		return c.outcome, false
	case <-t.C:
	case <-ctx.Done():
	}
	return nil, true
}

// finish records how the login ended, for the browser's page.
func (c *callback) finish(err error) {
	c.finishOnce.Do(func() {
		c.outcome = err
		close(c.finished)
	})
}

// wait returns the code, or why there is none.
func (c *callback) wait(ctx context.Context) (string, error) {
	select {
	case r := <-c.result:
		return r.code, r.err
	case <-ctx.Done():
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return "", &Error{Op: "authorize", Err: ErrTimeout}
		}
		return "", ctx.Err()
	}
}

// close stops the listener and waits for its goroutine.
func (c *callback) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if c.srv.Shutdown(ctx) != nil {
		_ = c.srv.Close()
	}
	c.wg.Wait()
}

type donePage struct {
	Server  string
	OK      bool
	Pending bool // the code came, the login is still being finished
	Err     string
}

var pageTmpl = template.Must(template.New("done").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Switchboard login</title>
<style>body{font:16px system-ui,sans-serif;max-width:34rem;margin:4rem auto;padding:0 1rem;color:#222}h1{font-size:1.4rem}</style></head>
<body>{{if .OK}}<h1>Logged in to {{.Server}}</h1><p>You can close this tab and go back to Switchboard.</p>
{{else if .Pending}}<h1>Finishing the login to {{.Server}} in Switchboard…</h1><p>Switchboard shows whether it worked. You can close this tab.</p>
{{else}}<h1>Login to {{.Server}} failed</h1><p>{{.Err}}</p><p>Close this tab and start the login again from Switchboard.</p>{{end}}
</body></html>`))
