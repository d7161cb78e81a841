package wire

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
)

// readBuffer is a LineReader's buffer; longer lines are assembled.
const readBuffer = 64 << 10

// LineReader splits a stream into JSON-RPC messages, one per line, with
// no line longer than its Reader's limit. Next is for one goroutine at a
// time.
type LineReader struct {
	br    *bufio.Reader
	limit int // of the Reader beneath
}

// NewLineReader reads r's lines. r is bounded by a Reader with limit
// (<= 0: MaxMessageBytes), unless it is a *Reader already, whose own limit
// holds (its owner watches it: Failed, Stall).
func NewLineReader(r io.Reader, limit int) *LineReader {
	lr, ok := r.(*Reader)
	if !ok {
		lr = NewReader(r, limit)
	}
	return &LineReader{br: bufio.NewReaderSize(lr, readBuffer), limit: lr.Limit()}
}

// Next returns the next line with surrounding white space (the line break,
// a '\r' before it) trimmed, in a buffer of its own: callers keep it, or
// slices of it, past the next read. An empty line is returned as such. A
// line over the limit returns nil and the *LimitError; at the end of the
// stream a last unterminated line comes with io.EOF.
func (r *LineReader) Next() ([]byte, error) {
	var long []byte
	for {
		chunk, err := r.br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long = r.grow(long, chunk) // the Reader beneath bounds how far this grows
			continue
		}
		if errors.Is(err, ErrTooLarge) {
			return nil, err // the start of the long line is not a message
		}
		var line []byte
		if long != nil {
			line = r.grow(long, chunk)
		} else {
			line = bytes.Clone(chunk)
		}
		return bytes.TrimSpace(line), err
	}
}

// Buffered is how many bytes of the stream are read in and not yet
// returned by Next: more than zero means the next message (or its start)
// has arrived.
func (r *LineReader) Buffered() int { return r.br.Buffered() }

// grow appends chunk to a long line's buffer, doubling it but never past
// the limit (and one read): the line at its longest costs its limit and
// half of it while the buffer moves, not append's own growth of copies
// (a 400 MB line against a 64 MB limit peaked at five times the limit).
func (r *LineReader) grow(long, chunk []byte) []byte {
	need := len(long) + len(chunk)
	if need > cap(long) {
		c := min(max(2*cap(long), need, readBuffer), r.limit+readBuffer)
		bigger := make([]byte, len(long), max(c, need))
		copy(bigger, long)
		long = bigger
	}
	return append(long, chunk...)
}

// Writer writes JSON-RPC messages, one per line. Concurrent writers never
// interleave, and each line goes out in a single Write, so a reader on the
// other end sees it at once (no buffer to forget to flush).
type Writer struct {
	mu  sync.Mutex
	w   io.Writer
	buf []byte
}

// NewWriter writes lines to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// WriteJSON writes v, encoded, as one line (encoding/json never writes a
// raw line break).
func (w *Writer) WriteJSON(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("wire: encode message: %w", err)
	}
	return w.line(b)
}

// WriteResult writes a response carrying result as it came (from a
// server): re-encoding it would cost a pass over every byte of a large
// result. id and result must be valid JSON (parts of a parsed message);
// only a line break in result (a pretty-printing HTTP server) is removed.
func (w *Writer) WriteResult(id, result json.RawMessage) error {
	result, err := compact(result)
	if err != nil {
		return fmt.Errorf("wire: result: %w", err)
	}
	return w.line([]byte(`{"jsonrpc":"2.0","id":`), id, []byte(`,"result":`), result, []byte(`}`))
}

// WriteRequest writes a request whose params are already JSON (nil: none),
// as they are but for a line break (see WriteResult).
func (w *Writer) WriteRequest(id json.RawMessage, method string, params json.RawMessage) error {
	params, err := compact(params)
	if err != nil {
		return fmt.Errorf("wire: params of %s: %w", method, err)
	}
	m := strconv.AppendQuote(nil, method) // a method name is ASCII; Quote escapes the rest
	if params == nil {
		return w.line([]byte(`{"jsonrpc":"2.0","id":`), id, []byte(`,"method":`), m, []byte(`}`))
	}
	return w.line([]byte(`{"jsonrpc":"2.0","id":`), id, []byte(`,"method":`), m, []byte(`,"params":`), params, []byte(`}`))
}

// line writes parts and a newline in one Write.
func (w *Writer) line(parts ...[]byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = w.buf[:0]
	for _, p := range parts {
		w.buf = append(w.buf, p...)
	}
	w.buf = append(w.buf, '\n')
	_, err := w.w.Write(w.buf)
	if cap(w.buf) > 1<<20 {
		w.buf = nil // do not pin a 5 MB buffer after one big message
	}
	if err != nil {
		return fmt.Errorf("wire: write message: %w", err)
	}
	return nil
}

// compact removes the white space of valid JSON b when it holds a line
// break, which a message on a newline-delimited stream must not; other
// JSON is returned as it is.
func compact(b []byte) ([]byte, error) {
	if !hasLineBreak(b) {
		return b, nil
	}
	var c bytes.Buffer
	if err := json.Compact(&c, b); err != nil {
		return nil, err
	}
	return c.Bytes(), nil
}

// hasLineBreak reports whether b holds a CR or LF, which a message on a
// newline-delimited stream must not. (Two memchr passes: bytes.ContainsAny
// tests each byte against a set, ten times slower on a 5 MB result.)
func hasLineBreak(b []byte) bool {
	return bytes.IndexByte(b, '\n') >= 0 || bytes.IndexByte(b, '\r') >= 0
}
