package wire

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"
)

// LimitError says a message ran past Limit bytes without a newline. It
// matches ErrTooLarge.
type LimitError struct {
	Limit int
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("a message ran past the %s limit without ending, so the connection was closed: the other side is broken or hostile (report it to its authors)", Size(e.Limit))
}

// Unwrap returns ErrTooLarge.
func (e *LimitError) Unwrap() error { return ErrTooLarge }

// StallError is a request that timed out, with what the stream showed at
// that moment: how long no message completed and how much of one was
// pending. It unwraps to the timeout (context.DeadlineExceeded).
type StallError struct {
	Err     error
	Since   time.Duration // since the last complete message (or the start)
	Pending int           // bytes of an unfinished message
}

func (e *StallError) Error() string {
	return fmt.Sprintf("%v (%s)", e.Err, e.Detail())
}

// Unwrap returns the timeout.
func (e *StallError) Unwrap() error { return e.Err }

// Detail says what the reader was in the middle of, without the timeout:
// "no complete message after 2s, 40 bytes pending".
func (e *StallError) Detail() string { return stall(e.Since, e.Pending) }

func stall(since time.Duration, pending int) string {
	return fmt.Sprintf("no complete message after %s, %d bytes pending", since.Round(100*time.Millisecond), pending)
}

// Size renders a byte count the way the limit is documented (64 MB).
func Size(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Reader passes a newline-delimited stream through, failing once a line
// runs past its limit. Only '\n' ends a line and it is not counted; a '\r'
// before it is. Read is for one goroutine; the other methods are safe from
// any.
type Reader struct {
	r     io.Reader
	limit int

	mu      sync.Mutex
	pending int       // bytes of the current, unfinished line
	last    time.Time // when the last line ended, or the Reader was made
	err     error     // the *LimitError, once over
	failed  chan struct{}
}

// NewReader bounds r's lines to limit bytes (limit <= 0: MaxMessageBytes).
func NewReader(r io.Reader, limit int) *Reader {
	if limit <= 0 {
		limit = MaxMessageBytes
	}
	return &Reader{r: r, limit: limit, last: time.Now(), failed: make(chan struct{})}
}

// Limit is the Reader's bound on one line.
func (r *Reader) Limit() int { return r.limit }

// Read implements io.Reader. Bytes up to the end of the last line that fits
// are returned; then, once a line is over the limit, only the *LimitError.
func (r *Reader) Read(p []byte) (int, error) {
	if err := r.Err(); err != nil {
		return 0, err
	}
	n, err := r.r.Read(p)
	r.mu.Lock()
	defer r.mu.Unlock()
	ok := 0
	for rest := p[:n]; len(rest) > 0; {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			if r.pending+len(rest) > r.limit {
				return ok, r.fail()
			}
			r.pending += len(rest)
			break
		}
		if r.pending+i > r.limit {
			return ok, r.fail()
		}
		r.pending, r.last = 0, time.Now()
		ok += i + 1
		rest = rest[i+1:]
	}
	return n, err
}

// fail records the limit error; callers hold r.mu.
func (r *Reader) fail() error {
	r.err = &LimitError{Limit: r.limit}
	close(r.failed)
	return r.err
}

// Err is the *LimitError once a line ran past the limit, else nil.
func (r *Reader) Err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// Failed is closed when a line runs past the limit.
func (r *Reader) Failed() <-chan struct{} { return r.failed }

// Pending reports the bytes of the unfinished line and how long ago the last
// line ended (or the Reader was made, when none has).
func (r *Reader) Pending() (bytes int, since time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.pending, time.Since(r.last)
}

// Stall says what the stream shows now, for a timeout's error:
// "no complete message after 60s, 1234 bytes pending".
func (r *Reader) Stall() string {
	n, since := r.Pending()
	return stall(since, n)
}

// Annotate wraps a timeout (context.DeadlineExceeded) in a *StallError
// with what the stream shows now; any other error is returned as it is.
func (r *Reader) Annotate(err error) error {
	if err == nil || !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	n, since := r.Pending()
	return &StallError{Err: err, Since: since, Pending: n}
}
