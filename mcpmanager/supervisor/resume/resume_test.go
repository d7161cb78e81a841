package resume_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/supervisor/resume"
	"github.com/switchboard-app/switchboard/mcpmanager/wire"
)

// conn is one request the test server saw.
type conn struct {
	method, lastEventID, contentType string
	at                               time.Time
}

// server answers the n-th request (0-based) with script[n]; it records
// every request. A script entry past the end answers 500.
type server struct {
	mu    sync.Mutex
	seen  []conn
	ended []time.Time // when each answer finished
}

func (s *server) start(t *testing.T, script ...func(w http.ResponseWriter, r *http.Request)) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		n := len(s.seen)
		s.seen = append(s.seen, conn{r.Method, r.Header.Get("Last-Event-ID"), r.Header.Get("Content-Type"), time.Now()})
		s.mu.Unlock()
		if n >= len(script) {
			http.Error(w, "no more", http.StatusInternalServerError)
		} else {
			script[n](w, r)
		}
		s.mu.Lock()
		s.ended = append(s.ended, time.Now())
		s.mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func (s *server) requests() []conn {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]conn(nil), s.seen...)
}

// events writes an SSE response of text, then returns (a clean end).
func events(text string) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, text)
		w.(http.Flusher).Flush()
	}
}

// hold writes text, then keeps the stream open until the client leaves.
func hold(text string) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		events(text)(w, r)
		<-r.Context().Done()
	}
}

// broken writes text in one chunk and drops the connection mid-body.
func broken(text string) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, _ *http.Request) {
		c, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			panic(err)
		}
		fmt.Fprintf(buf, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n", len(text), text)
		buf.Flush()
		c.Close()
	}
}

func status(code int) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(code) }
}

func shortRetry(t *testing.T, d time.Duration, attempts int) {
	t.Helper()
	prevD, prevA := resume.DefaultRetry, resume.MaxAttempts
	resume.DefaultRetry, resume.MaxAttempts = d, attempts
	t.Cleanup(func() { resume.DefaultRetry, resume.MaxAttempts = prevD, prevA })
}

func open(t *testing.T, ctx context.Context, method, url string) *http.Response {
	t.Helper()
	var body io.Reader
	if method == http.MethodPost {
		body = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`)
	}
	req, _ := http.NewRequestWithContext(ctx, method, url, body)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := (&http.Client{Transport: &resume.Transport{}}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// readUntil reads r until it has seen want, returning everything read.
func readUntil(t *testing.T, r io.Reader, want string) string {
	t.Helper()
	var got strings.Builder
	br := bufio.NewReader(r)
	for !strings.Contains(got.String(), want) {
		line, err := br.ReadString('\n')
		got.WriteString(line)
		if err != nil {
			t.Fatalf("read %q, then %v (wanted %q)", got.String(), err, want)
		}
	}
	return got.String()
}

func TestGetStreamResumesAfterRetryWithLastEventID(t *testing.T) {
	shortRetry(t, time.Second, 3) // the server's retry: must win over this
	var s server
	url := s.start(t,
		events("id: 1\nretry: 30\ndata: one\n\ndata: half an ev"), // ends mid-event
		hold("id: 2\ndata: two\n\n"),
	)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	resp := open(t, ctx, http.MethodGet, url)
	got := readUntil(t, resp.Body, "data: two")
	if want := "id: 1\nretry: 30\ndata: one\n\nid: 2\ndata: two\n"; got != want {
		t.Errorf("read %q, want %q (the cut event dropped)", got, want)
	}
	reqs := s.requests()
	if len(reqs) != 2 || reqs[1].method != http.MethodGet || reqs[1].lastEventID != "1" {
		t.Fatalf("requests %+v, want a GET resuming after event 1", reqs)
	}
	s.mu.Lock()
	wait := reqs[1].at.Sub(s.ended[0])
	s.mu.Unlock()
	if wait < 30*time.Millisecond || wait >= time.Second {
		t.Errorf("reconnected after %v, want the server's retry of 30ms", wait)
	}
	cancel()
	if _, err := io.ReadAll(resp.Body); err == nil {
		t.Error("reading after the request ended did not fail")
	}
}

func TestPostStreams(t *testing.T) {
	shortRetry(t, 5*time.Millisecond, 3)
	t.Run("ended by the server: left to the MCP client", func(t *testing.T) {
		var s server
		url := s.start(t, events("id: 1\ndata: a\n\n"))
		resp := open(t, t.Context(), http.MethodPost, url)
		b, err := io.ReadAll(resp.Body)
		if err != nil || string(b) != "id: 1\ndata: a\n\n" {
			t.Errorf("read %q, %v; want the events then EOF", b, err)
		}
		if n := len(s.requests()); n != 1 {
			t.Errorf("%d requests, want no reconnection", n)
		}
	})
	t.Run("broken after an event id: resumed with a GET", func(t *testing.T) {
		var s server
		url := s.start(t, broken("id: 7\ndata: a\n\ndata: lost"), events("data: b\n\n"))
		resp := open(t, t.Context(), http.MethodPost, url)
		b, err := io.ReadAll(resp.Body)
		if err != nil || string(b) != "id: 7\ndata: a\n\ndata: b\n\n" {
			t.Errorf("read %q, %v", b, err)
		}
		reqs := s.requests()
		if len(reqs) != 2 || reqs[1].method != http.MethodGet || reqs[1].lastEventID != "7" || reqs[1].contentType != "" {
			t.Errorf("requests %+v, want a bodiless GET resuming after event 7", reqs)
		}
	})
	t.Run("broken before any event id: the error stands", func(t *testing.T) {
		var s server
		url := s.start(t, broken("data: a\n\n"))
		resp := open(t, t.Context(), http.MethodPost, url)
		if _, err := io.ReadAll(resp.Body); err == nil {
			t.Error("a broken stream with nothing to resume from read cleanly")
		}
		if n := len(s.requests()); n != 1 {
			t.Errorf("%d requests, want no reconnection", n)
		}
	})
}

func TestReconnectFailures(t *testing.T) {
	cases := []struct {
		name     string
		answers  []func(http.ResponseWriter, *http.Request)
		requests int           // including the first
		minWait  time.Duration // backoff: 10ms, then 20ms, then 40ms
	}{
		{"server errors back off, then give up", []func(http.ResponseWriter, *http.Request){status(503), status(503), status(503)}, 4, 70 * time.Millisecond},
		{"a gone session is not retried", []func(http.ResponseWriter, *http.Request){status(404)}, 2, 10 * time.Millisecond},
		{"a refused token is not retried", []func(http.ResponseWriter, *http.Request){status(401)}, 2, 10 * time.Millisecond},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			shortRetry(t, 10*time.Millisecond, 3)
			var s server
			url := s.start(t, append([]func(http.ResponseWriter, *http.Request){events("id: 1\ndata: a\n\n")}, c.answers...)...)
			start := time.Now()
			resp := open(t, t.Context(), http.MethodGet, url)
			b, err := io.ReadAll(resp.Body)
			if !errors.Is(err, resume.ErrNotResumed) || string(b) != "id: 1\ndata: a\n\n" {
				t.Errorf("read %q, %v; want the events, then ErrNotResumed", b, err)
			}
			if n := len(s.requests()); n != c.requests {
				t.Errorf("%d requests, want %d", n, c.requests)
			}
			if took := time.Since(start); took < c.minWait {
				t.Errorf("gave up after %v, want at least %v of backoff", took, c.minWait)
			}
		})
	}
}

func TestCloseEndsABlockedRead(t *testing.T) {
	var s server
	url := s.start(t, hold("data: a\n\n"))
	resp := open(t, t.Context(), http.MethodGet, url)
	readUntil(t, resp.Body, "data: a")
	done := make(chan error, 1)
	go func() {
		_, err := resp.Body.Read(make([]byte, 10))
		done <- err
	}()
	resp.Body.Close()
	if err := <-done; err == nil {
		t.Error("Read after Close returned no error")
	}
	if n := len(s.requests()); n != 1 {
		t.Errorf("%d requests: a closed stream must not reconnect", n)
	}
}

// TestOversizedEventIsNotResumed: a stream that failed because a message
// was over the limit ends; reconnecting would fetch it again.
func TestOversizedEventIsNotResumed(t *testing.T) {
	shortRetry(t, 10*time.Millisecond, 3)
	calls := 0
	base := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		calls++
		body := strings.NewReader("id: 1\ndata: {}\n\ndata: " + strings.Repeat("x", 100))
		return &http.Response{
			StatusCode: http.StatusOK, Request: r,
			Header: http.Header{"Content-Type": {"text/event-stream"}},
			Body:   io.NopCloser(wire.NewReader(body, 50)),
		}, nil
	})
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, "http://127.0.0.1:1/mcp", nil)
	resp, err := (&resume.Transport{Base: base}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if _, err := io.ReadAll(resp.Body); !errors.Is(err, wire.ErrTooLarge) || calls != 1 {
		t.Errorf("read: %v after %d requests, want ErrTooLarge and no reconnection", err, calls)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
