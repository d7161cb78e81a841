package provider

import (
	"context"
	"io"
	"net/http"
	"time"
)

// The end of a response body, read before it is closed. A client that
// closes an HTTP/1.1 body before its end closes the connection too, and
// the next request dials again. Ollama's answers are read with
// encoding/json's Decoder, which stops at the last line's value, before
// its newline and the chunked body's last chunk.
//
// The SDKs' streams are left as they are: openai-go closes the body at
// "data: [DONE]", often before its end, so about one step in ten dials
// again against a local server, and reading that end first would keep the
// connection; but llama-server (the built-in local model) answers a stream
// with "Keep-Alive" and closes the connection after it all the same, and a
// step's next request written on it at once fails (with EOF or a broken
// pipe, which Go's Transport does not send again). See BENCHMARKS.md.
var (
	// DrainWait bounds how long a body is read for its end: past it the
	// connection is let go, as before. Only a body closed before its
	// answer ended (a stream broken off while the server goes on) waits
	// that long. A variable so tests can change it.
	DrainWait = 50 * time.Millisecond
	// drainLimit bounds what is read: a finished answer has a few bytes
	// left at most (a newline, the chunked body's last chunk).
	drainLimit int64 = 4 << 10
)

// drainingBody is a response body whose Close reads what is left of it
// first, within drainLimit and DrainWait (see keepConn).
type drainingBody struct {
	io.ReadCloser
	cancel context.CancelFunc // the request's: ends a read that waits past DrainWait
}

func (b *drainingBody) Close() error {
	t := time.AfterFunc(DrainWait, b.cancel)
	_, _ = io.Copy(io.Discard, io.LimitReader(b.ReadCloser, drainLimit))
	t.Stop()
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}

// keepConn sends req with next (an http.Client's Do) and gives its
// response a drainingBody, so the connection is kept for the next request.
func keepConn(req *http.Request, next func(*http.Request) (*http.Response, error)) (*http.Response, error) {
	ctx, cancel := context.WithCancel(req.Context())
	res, err := next(req.WithContext(ctx))
	if err != nil || res.Body == nil {
		cancel()
		return res, err
	}
	res.Body = &drainingBody{ReadCloser: res.Body, cancel: cancel}
	return res, nil
}
