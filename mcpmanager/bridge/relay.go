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
// the answer to the replayed initialize (DropAnswer), so the app sees one
// session go on. A request that was on its way to, or waiting in, the
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
	// Rest is the app's stdin from the next whole line on.
	Rest io.Reader
}

// Relay copies the app's stdin to c and c to the app's stdout, byte for
// byte, without decoding a message: only the first two lines (initialize
// and notifications/initialized) are read as such, and kept, in case c is
// lost. It returns (nil, nil) when stdin ends and the running Switchboard
// has closed its side of the session, (nil, ctx.Err()) when ctx ends, and
// a *Lost when c ends first (Switchboard quit, crashed or was killed).
// stdout gets nothing more from c after Relay returns.
func Relay(ctx context.Context, c net.Conn, stdin io.Reader, stdout io.Writer) (*Lost, error) {
	in := &input{r: bufio.NewReaderSize(stdin, 64<<10), sink: c, atLineStart: true}
	stdinDone := make(chan error, 1)
	go func() { stdinDone <- in.run(c) }()

	outDone := make(chan error, 1)
	go func() {
		_, err := io.Copy(stdout, c)
		outDone <- err
	}()

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
	replay, initID := in.handOver(pw)
	if replay == nil && initID == nil {
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
	return &Lost{Err: fmt.Errorf("the connection to the running Switchboard ended: %w", outErr), Replay: replay, InitID: initID, Rest: pr}, nil
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

// kept is the app's initialize and notifications/initialized, as a Lost
// replays them: add is given the app's first lines, each whole, in order.
type kept struct {
	lines  int
	replay []byte
	initID json.RawMessage
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
func (in *input) handOver(w io.Writer) ([]byte, json.RawMessage) {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.sink, in.lostConn = w, true
	in.skipping = !in.atLineStart
	if in.eof {
		if pw, ok := w.(*io.PipeWriter); ok {
			pw.Close()
		}
	}
	return in.replay, in.initID
}

// DropAnswer wraps w (the app's stdout, written one message per Write, as
// the gateway's writer does) so the first response to the request id is
// not passed on: the app already has its answer to the initialize that
// Lost.Replay sends again.
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
	if !d.dropped && bytes.Contains(p, []byte(`"result"`)) {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(p, &m) == nil && m.Method == "" && bytes.Equal(bytes.TrimSpace(m.ID), bytes.TrimSpace(d.id)) {
			d.dropped = true
			d.mu.Unlock()
			return len(p), nil
		}
	}
	d.mu.Unlock()
	return d.w.Write(p)
}
