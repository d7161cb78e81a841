// Package resume keeps Streamable HTTP event streams going when the server
// closes them or the connection breaks: it reconnects with a GET carrying
// Last-Event-ID, after the wait the server asked for with "retry:" (SSE),
// backing off when reconnecting fails (MCP 2025-11-25, SEP-1699).
//
//	hc := &http.Client{Transport: &resume.Transport{Base: http.DefaultTransport}}
//	tr, _ := transport.NewStreamableHTTP(url, transport.WithHTTPBasicClient(hc))
//
// The MCP client reading the body sees one unbroken stream of whole events:
// an event cut off by a break is dropped (the server replays it after
// Last-Event-ID). Which streams resume:
//
//   - GET streams (the standalone listening stream, and GETs that already
//     resume a request's stream): when they end or break, since a server
//     may close them at any time.
//   - POST response streams: only when they break after an event ID. A
//     stream the server ends cleanly is left to the MCP client, which
//     resumes it itself when the response is still missing.
//
// A Transport is safe for concurrent use; each body is read by one goroutine
// and may be closed from another.
package resume

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/wire"
)

// Reconnection limits; variables so tests can shorten them.
var (
	// DefaultRetry is the wait before reconnecting when the server set no retry.
	DefaultRetry = time.Second
	// MaxRetry caps the backoff between failed reconnections.
	MaxRetry = 30 * time.Second
	// MaxAttempts is how many reconnections in a row may fail before the
	// stream ends with the error.
	MaxAttempts = 5
)

// ErrNotResumed means the stream broke and could not be resumed.
var ErrNotResumed = errors.New("the event stream was lost and could not be resumed")

// Transport wraps Base; see the package doc.
type Transport struct {
	Base http.RoundTripper // nil: http.DefaultTransport
}

func (t *Transport) base() http.RoundTripper {
	if t.Base != nil {
		return t.Base
	}
	return http.DefaultTransport
}

// RoundTrip implements http.RoundTripper.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base().RoundTrip(req)
	if err != nil || resp.StatusCode != http.StatusOK || !eventStream(resp) {
		return resp, err
	}
	if req.Method != http.MethodGet && req.Method != http.MethodPost {
		return resp, nil
	}
	resp.Body = &stream{
		t: t, req: req, onEnd: req.Method == http.MethodGet,
		body: resp.Body, br: bufio.NewReader(resp.Body),
	}
	return resp, nil
}

func eventStream(resp *http.Response) bool {
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	return mt == "text/event-stream"
}

// stream is a response body that reconnects underneath its reader.
type stream struct {
	t     *Transport
	req   *http.Request
	onEnd bool // resume when the server ends the stream, not only when it breaks

	br      *bufio.Reader
	pending []byte // whole events ready for Read
	event   []byte // the event being read
	nextID  *string
	lastID  string
	retry   time.Duration // 0: DefaultRetry

	mu     sync.Mutex // guards body and closed: Close comes from another goroutine
	body   io.ReadCloser
	closed bool
}

// Read returns whole events only, so a reconnection never splices half an
// event onto the next stream.
func (s *stream) Read(p []byte) (int, error) {
	for len(s.pending) == 0 {
		if err := s.fill(); err != nil {
			return 0, err
		}
	}
	n := copy(p, s.pending)
	s.pending = s.pending[n:]
	return n, nil
}

// fill reads one line; a blank line completes the event.
func (s *stream) fill() error {
	line, err := s.br.ReadBytes('\n')
	if err == nil {
		s.line(line)
		return nil
	}
	// line is a fragment of an unfinished event: dropped with the event.
	if s.req.Context().Err() != nil || s.isClosed() {
		return err
	}
	switch {
	case errors.Is(err, wire.ErrTooLarge):
		return err // the server would send it again: resuming cannot help
	case errors.Is(err, io.EOF) && !s.onEnd:
		return io.EOF // a response stream the server ended: the MCP client decides
	case !s.onEnd && s.lastID == "":
		return err // nothing to resume from
	}
	return s.reconnect(err)
}

// line records one line of the current event.
func (s *stream) line(line []byte) {
	s.event = append(s.event, line...)
	text := bytes.TrimRight(line, "\r\n")
	if len(text) == 0 {
		if s.nextID != nil {
			s.lastID, s.nextID = *s.nextID, nil // an event's id counts once it is complete
		}
		s.pending = append(s.pending, s.event...)
		s.event = s.event[:0]
		return
	}
	field, value, _ := bytes.Cut(text, []byte(":"))
	value = bytes.TrimPrefix(value, []byte(" "))
	switch string(field) {
	case "id":
		if bytes.IndexByte(value, 0) < 0 {
			id := string(value)
			s.nextID = &id
		}
	case "retry":
		if ms, err := strconv.ParseUint(string(value), 10, 31); err == nil {
			s.retry = time.Duration(ms) * time.Millisecond
		}
	}
}

// reconnect waits and reopens the stream with a GET, backing off while that
// fails. Statuses that no retry can change (the session is gone, GET is not
// offered, the token was refused) end the stream at once.
func (s *stream) reconnect(cause error) error {
	ctx := s.req.Context()
	delay := DefaultRetry
	if s.retry > 0 {
		delay = s.retry
	}
	for attempt := 1; attempt <= MaxAttempts; attempt++ {
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		delay = min(delay*2, MaxRetry)
		req := s.req.Clone(ctx)
		req.Method, req.Body, req.GetBody, req.ContentLength = http.MethodGet, nil, nil, 0
		req.Header.Del("Content-Type")
		req.Header.Set("Accept", "text/event-stream")
		if s.lastID != "" {
			req.Header.Set("Last-Event-ID", s.lastID)
		}
		resp, err := s.t.base().RoundTrip(req)
		if err != nil {
			cause = err
			continue
		}
		if resp.StatusCode != http.StatusOK || !eventStream(resp) {
			resp.Body.Close()
			cause = fmt.Errorf("reconnecting got HTTP %d", resp.StatusCode)
			if resp.StatusCode < 500 && resp.StatusCode != http.StatusTooManyRequests {
				break
			}
			continue
		}
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			resp.Body.Close()
			return io.ErrClosedPipe
		}
		s.body.Close()
		s.body, s.br = resp.Body, bufio.NewReader(resp.Body)
		s.mu.Unlock()
		s.event, s.nextID = s.event[:0], nil
		return nil
	}
	return fmt.Errorf("%w: %w", ErrNotResumed, cause)
}

func (s *stream) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// Close ends the stream; a Read blocked on it returns.
func (s *stream) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	return s.body.Close()
}
