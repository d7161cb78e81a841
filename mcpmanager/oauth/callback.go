package oauth

import (
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
}

type callbackResult struct {
	code string
	err  error
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

// listenLoopback listens on 127.0.0.1 (port, or any port when it is 0 or
// taken and was only a preference) for the redirect carrying state. A
// fixed port (the entry's redirectPort) that is taken fails with
// ErrPortBusy naming what holds it: on another port the authorization
// server would refuse the redirect URI, after the user logged in.
func listenLoopback(port int, fixed bool, state string, iss issuerCheck, server string) (*callback, error) {
	l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil && fixed && port != 0 {
		holder := "another program"
		if p := portHolder(port); p != "" {
			holder = p
		}
		return nil, &Error{Op: "listen for the login redirect", Err: fmt.Errorf(
			"%w: port %d (the server's redirectPort) is held by %s; stop it and log in again, or register another redirect port with the authorization server and set it under the server's Details → OAuth client: %w",
			ErrPortBusy, port, holder, err)}
	}
	if err != nil && port != 0 {
		l, err = net.Listen("tcp", "127.0.0.1:0")
	}
	if err != nil {
		return nil, &Error{Op: "listen for the login redirect", Err: err}
	}
	c := &callback{
		redirectURI: fmt.Sprintf("http://127.0.0.1:%d/callback", l.Addr().(*net.TCPAddr).Port),
		result:      make(chan callbackResult, 1),
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/callback", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		var res callbackResult
		switch issErr := iss.check(q); {
		case q.Get("state") != state:
			res.err = &Error{Op: "authorize", Err: ErrStateMismatch}
		case issErr != nil:
			// RFC 9207: the answer came from another authorization server
			// (a mix-up attack): its code goes nowhere, its error is not shown.
			res.err = &Error{Op: "authorize", Err: issErr}
		case q.Get("error") != "":
			res.err = &Error{Op: "authorize", Err: fmt.Errorf("%w: %s %s", ErrDenied, q.Get("error"), q.Get("error_description"))}
		case q.Get("code") == "":
			res.err = &Error{Op: "authorize", Err: fmt.Errorf("%w: the redirect carries no code", ErrDenied)}
		default:
			res.code = q.Get("code")
		}
		page := donePage{Server: server, OK: res.err == nil}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if res.err != nil {
			page.Err = res.err.Error()
			w.WriteHeader(http.StatusBadRequest)
		}
		_ = pageTmpl.Execute(w, page)
		c.once.Do(func() { c.result <- res }) // the first answer decides
	})
	c.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		_ = c.srv.Serve(l)
	}()
	return c, nil
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
	Server string
	OK     bool
	Err    string
}

var pageTmpl = template.Must(template.New("done").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Switchboard login</title>
<style>body{font:16px system-ui,sans-serif;max-width:34rem;margin:4rem auto;padding:0 1rem;color:#222}h1{font-size:1.4rem}</style></head>
<body>{{if .OK}}<h1>Logged in to {{.Server}}</h1><p>You can close this tab and go back to Switchboard.</p>
{{else}}<h1>Login to {{.Server}} failed</h1><p>{{.Err}}</p><p>Close this tab and start the login again from Switchboard.</p>{{end}}
</body></html>`))
