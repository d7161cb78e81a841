package bridge

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
)

// Lost is what Relay hands back when the running Switchboard went away
// while the app still talks: enough to go on without it. The caller
// starts the servers itself and serves Replay (the app's handshake, as it
// was sent) followed by Rest (what the app sends from then on), dropping
// the answer to the replayed initialize when the app had one already
// (Out), so the app sees one session go on. A request that was on its way to, or waiting in, the
// Switchboard that went away is not answered there; the app's own
// time-out for it applies (it is not sent again: a tool call may have had
// effects).
type Lost struct {
	// Err is how the connection ended.
	Err error
	// Replay holds the app's initialize request and its
	// notifications/initialized, each a line with its newline; empty when
	// the app began with anything else (a 2026-07-28 client's
	// server/discover, whose requests each carry what initialize would).
	Replay []byte
	// InitID is the replayed initialize's JSON-RPC id (nil: none).
	InitID json.RawMessage
	// Answered is whether the app had the running Switchboard's answer to
	// that initialize: when it went away after reading the initialize and
	// before answering it, the replayed one's answer is the app's only one.
	Answered bool
	// Rest is the app's stdin from the next whole line on.
	Rest io.Reader
}

// Out is the app's stdout w as the caller serves the rest of the session
// to it: without the replayed initialize's answer when the app has one
// (DropAnswer), else w itself.
func (l *Lost) Out(w io.Writer) io.Writer {
	if !l.Answered {
		return w
	}
	return DropAnswer(w, l.InitID)
}

// Relay copies the app's stdin to c and c to the app's stdout, byte for
// byte, without decoding a message: only the first two lines (initialize
// and notifications/initialized) are read as such, and kept, in case c is
// lost, and the lines from c until the answer to that initialize has
// passed. It returns (nil, nil) when stdin ends and the running Switchboard
// has closed its side of the session, (nil, ctx.Err()) when ctx ends, and
// a *Lost when c ends first (Switchboard quit, crashed or was killed).
// stdout gets nothing more from c after Relay returns.
func Relay(ctx context.Context, c net.Conn, stdin io.Reader, stdout io.Writer) (*Lost, error) {
	in := &input{r: bufio.NewReaderSize(stdin, 64<<10), sink: c, atLineStart: true}
	stdinDone := make(chan error, 1)
	go func() { stdinDone <- in.run(c) }()

	outDone := make(chan error, 1)
	go func() { outDone <- in.copyOut(stdout, c) }()

	var outErr error
	select {
	case outErr = <-outDone:
	case <-ctx.Done():
		c.Close()
		err := <-outDone // ended by the close
		in.handOver(nil)
		return nil, cmp.Or(ctx.Err(), err)
	}
	// c ended. Did the app end first (its stdin at EOF, so we closed our
	// side and Switchboard closed the session)?
	select {
	case err := <-stdinDone:
		c.Close()
		if err == nil || errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, err
	default:
	}
	c.Close()
	if outErr == nil {
		outErr = io.EOF
	}
	pr, pw := io.Pipe()
	k := in.handOver(pw)
	if k.replay == nil && k.initID == nil {
		// stdin ended while we decided: nothing more to serve.
		select {
		case err := <-stdinDone: // the app is gone too
			pw.Close()
			if errors.Is(err, io.EOF) {
				err = nil
			}
			return nil, err
		default:
		}
	}
	return &Lost{Err: fmt.Errorf("the connection to the running Switchboard ended: %w", outErr), Replay: k.replay, InitID: k.initID, Answered: k.answered, Rest: pr}, nil
}

// input reads the app's stdin in pieces of whole or partial lines and
// writes them to its sink: the connection, then, once it is lost, the
// pipe the local gateway reads.
type input struct {
	r *bufio.Reader

	mu          sync.Mutex
	sink        io.Writer // nil: discard (the relay is over)
	lostConn    bool
	atLineStart bool // the last piece written to the connection ended a line
	skipping    bool // dropping the rest of a line the lost connection got part of
	kept
	eof bool
}

func (in *input) run(c net.Conn) error {
	for {
		piece, err := in.r.ReadSlice('\n')
		if len(piece) > 0 {
			in.write(piece)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil {
			in.mu.Lock()
			in.eof = true
			sink, lost := in.sink, in.lostConn
			in.mu.Unlock()
			if lost {
				if pw, ok := sink.(*io.PipeWriter); ok {
					pw.Close()
				}
			} else if hc, ok := c.(interface{ CloseWrite() error }); ok {
				_ = hc.CloseWrite() // Switchboard ends the session when its handlers are done
			} else {
				c.Close()
			}
			return err
		}
	}
}

// write passes one piece on; the first lines are kept for a replay.
func (in *input) write(piece []byte) {
	in.mu.Lock()
	defer in.mu.Unlock()
	whole := piece[len(piece)-1] == '\n'
	if in.lines < 2 && in.atLineStart && whole {
		in.add(piece)
	}
	if in.sink == nil {
		return
	}
	if in.lostConn {
		if in.skipping {
			in.skipping = !whole
			return
		}
		_, _ = in.sink.Write(piece) // a closed pipe: the local session is over
		return
	}
	// A failed write means the connection is lost: the piece is gone with
	// it, and Relay hands over from the next whole line.
	_, _ = in.sink.Write(piece)
	in.atLineStart = whole
}

// copyOut copies c to the app's stdout, watching its lines until the
// answer to the app's initialize has passed (kept.answered) or the app
// began with something else; then it copies without looking.
func (in *input) copyOut(stdout io.Writer, c io.Reader) error {
	buf := make([]byte, 32<<10)
	var w lineWatch
	for !in.watched() {
		n, err := c.Read(buf)
		if n > 0 {
			if _, err := stdout.Write(buf[:n]); err != nil {
				return err
			}
			w.feed(buf[:n], in.sawLine)
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
	_, err := io.Copy(stdout, c)
	return err
}

// watched reports whether the answer to the app's initialize has passed,
// or there is none to wait for.
func (in *input) watched() bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.answered || in.lines == 2 && in.initID == nil
}

// sawLine notes a whole line from the running Switchboard to the app: is
// it the answer to the app's initialize?
func (in *input) sawLine(line []byte) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.initID != nil && answerTo(line, in.initID) {
		in.answered = true
	}
}

// lineWatch splits a stream into its lines; a line over maxKept is
// skipped (no answer to an initialize is that long).
type lineWatch struct {
	line []byte
	skip bool // the rest of a line over maxKept
}

// feed gives each whole line in p, after what earlier calls held, to saw.
func (w *lineWatch) feed(p []byte, saw func(line []byte)) {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			if !w.skip {
				w.line = append(w.line, p...)
				if len(w.line) > maxKept {
					w.line, w.skip = nil, true
				}
			}
			return
		}
		if !w.skip && len(w.line)+i+1 <= maxKept {
			saw(append(w.line, p[:i+1]...))
		}
		w.line, w.skip, p = w.line[:0], false, p[i+1:]
	}
}

// answerTo reports whether msg is the answer (a result or an error) to the
// request whose JSON-RPC id is id.
func answerTo(msg []byte, id json.RawMessage) bool {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	return json.Unmarshal(msg, &m) == nil && m.Method == "" && (m.Result != nil || m.Error != nil) &&
		bytes.Equal(bytes.TrimSpace(m.ID), bytes.TrimSpace(id))
}

// kept is the app's initialize and notifications/initialized, as a Lost
// replays them: add is given the app's first lines, each whole, in order;
// answered is set once the app has the running Switchboard's answer to
// that initialize.
type kept struct {
	lines    int
	replay   []byte
	initID   json.RawMessage
	answered bool
}

func (k *kept) add(line []byte) {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(line, &m) != nil {
		k.lines = 2 // not a handshake we could replay
		return
	}
	switch {
	case k.lines == 0 && m.Method == "initialize" && len(m.ID) > 0:
		k.replay = append([]byte{}, line...)
		k.initID = append(json.RawMessage{}, m.ID...)
		k.lines++
	case k.lines == 1 && k.initID != nil && m.Method == "notifications/initialized":
		k.replay = append(k.replay, line...)
		k.lines++
	default:
		k.lines = 2
	}
}

// handOver switches the sink from the lost connection to w (nil: discard)
// and returns the handshake to replay.
func (in *input) handOver(w io.Writer) kept {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.sink, in.lostConn = w, true
	in.skipping = !in.atLineStart
	if in.eof {
		if pw, ok := w.(*io.PipeWriter); ok {
			pw.Close()
		}
	}
	return in.kept
}

// DropAnswer wraps w (the app's stdout, written one message per Write, as
// the gateway's writer does) so the first response to the request id is
// not passed on: the app already has its answer to the initialize that
// Lost.Replay sends again (Lost.Out).
func DropAnswer(w io.Writer, id json.RawMessage) io.Writer {
	if id == nil {
		return w
	}
	return &dropAnswer{w: w, id: id}
}

type dropAnswer struct {
	w       io.Writer
	id      json.RawMessage
	mu      sync.Mutex
	dropped bool
}

func (d *dropAnswer) Write(p []byte) (int, error) {
	d.mu.Lock()
	if !d.dropped && bytes.Contains(p, []byte(`"result"`)) && answerTo(p, d.id) {
		d.dropped = true
		d.mu.Unlock()
		return len(p), nil
	}
	d.mu.Unlock()
	return d.w.Write(p)
}
