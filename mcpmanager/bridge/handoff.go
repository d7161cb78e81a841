package bridge

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
)

// Stdio returns the app's stdin and stdout as files when both can be
// handed to the running Switchboard (HandOff): pipes or sockets, on Unix.
// ok is false otherwise (a terminal, a file, Windows), and 'serve' relays.
func Stdio(in io.Reader, out io.Writer) (inF, outF *os.File, ok bool) {
	inF, _ = in.(*os.File)
	outF, _ = out.(*os.File)
	if !handsOff(inF) || !handsOff(outF) {
		return nil, nil, false
	}
	return inF, outF, true
}

// note is what the running Switchboard tells a 'serve' that handed it the
// app's stdio, one JSON line each: the app's first two lines as it reads
// them (the handshake a Lost replays), Answered once its answer to the
// app's initialize is written, and End once the app's stream has ended and
// every answer to it is written.
type note struct {
	Line     []byte `json:"line,omitempty"`
	Answered bool   `json:"answered,omitempty"`
	End      bool   `json:"end,omitempty"`
}

// HandOff passes the app's stdin and stdout (from Stdio) to the running
// Switchboard at c, which serves them itself, so no process copies the
// app's bytes in between; 'serve' only waits. It returns as Relay does:
// (nil, nil) when the app's stream ended and the running Switchboard
// answered all of it, (nil, ctx.Err()) when ctx ends (the running
// Switchboard then ends the session), and a *Lost when c ends first. The
// Lost's Rest reads stdin from its next whole line: what the running
// Switchboard had read and not answered is gone with it, as in a relay.
// c must be a Dial whose Hello asked for the hand-off and whose Peer
// accepted it.
func HandOff(ctx context.Context, c net.Conn, stdin, stdout *os.File) (*Lost, error) {
	if err := sendFiles(c, stdin, stdout); err != nil {
		c.Close()
		return &Lost{Err: fmt.Errorf("handing the app's stdio to the running Switchboard: %w", err), Rest: stdin}, nil
	}
	var k kept
	ended := make(chan error, 1)
	go func() {
		dec := json.NewDecoder(c)
		for {
			var n note
			if err := dec.Decode(&n); err != nil {
				ended <- err
				return
			}
			switch {
			case n.End:
				ended <- nil
				return
			case n.Answered:
				k.answered = true
			case k.lines < 2:
				k.add(n.Line)
			}
		}
	}()
	var err error
	select {
	case err = <-ended:
	case <-ctx.Done():
		c.Close() // the running Switchboard ends the session
		if <-ended != nil {
			err = ctx.Err()
		}
	}
	c.Close()
	takeBack(stdin)
	takeBack(stdout)
	if err == nil || ctx.Err() != nil {
		return nil, err
	}
	return &Lost{Err: fmt.Errorf("the connection to the running Switchboard ended: %w", err),
		Replay: k.replay, InitID: k.initID, Answered: k.answered, Rest: &wholeLines{r: bufio.NewReaderSize(stdin, 64<<10)}}, nil
}

// HandedOver reports whether the attached 'serve' handed over the app's
// stdio (HandOff): Serve serves those, not the connection.
func (c *Conn) HandedOver() bool { return c.in != nil }

// Serve runs serve on the attached app's MCP stream until serve returns,
// then closes c: the app's own stdin and stdout when its 'serve' handed
// them over (HandOff), else the connection (Relay). The ctx serve gets
// ends when the attached 'serve' goes away.
func (c *Conn) Serve(ctx context.Context, serve func(ctx context.Context, rw io.ReadWriter) error) error {
	if c.in == nil {
		defer c.Close()
		return serve(ctx, c.Conn)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	gone := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, c.Conn) // 'serve' sends nothing more: this ends when it does
		cancel()
		close(gone)
	}()
	rec := &recorder{r: c.in, c: c.Conn}
	err := serve(ctx, struct {
		io.Reader
		io.Writer
	}{rec, answers{w: c.out, rec: rec}})
	// The app sees its stdout end only once 'serve' has exited too.
	c.in.Close()
	c.out.Close()
	rec.end()
	c.Close()
	<-gone
	return err
}

// recorder reads the app's stdin for the running Switchboard and sends
// 'serve' the first two lines (before they are handled, so a Lost can
// always replay an answered initialize), Answered once the answer to the
// initialize is written (answers), and End once the stream ended.
type recorder struct {
	r io.Reader
	c net.Conn

	mu      sync.Mutex
	lines   int
	partial []byte
	k       kept // the first two lines, for the initialize's id
	eof     bool
	over    bool // End sent, or the connection failed: nothing more goes to c
}

// answers is the app's stdout as the running Switchboard writes it, one
// message per Write: once the answer to the app's initialize is written
// it tells 'serve' (Answered), so that a Lost after it drops the replayed
// initialize's answer and one before it does not. The app may get two
// answers to its initialize when the running Switchboard goes away
// between writing its answer and that note, never none.
type answers struct {
	w   io.Writer
	rec *recorder
}

func (a answers) Write(p []byte) (int, error) {
	n, err := a.w.Write(p)
	if err != nil {
		return n, err
	}
	r := a.rec
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.k.answered && r.k.initID != nil && answerTo(p, r.k.initID) {
		r.k.answered = true
		r.send(note{Answered: true})
	}
	return n, nil
}

// maxKept bounds a line the recorder keeps for a replay: an initialize is
// a few KB; a longer first line is not one 'serve' could replay.
const maxKept = 1 << 20

func (r *recorder) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	r.mu.Lock()
	defer r.mu.Unlock()
	if errors.Is(err, io.EOF) {
		r.eof = true
	}
	for rest := p[:n]; r.lines < 2 && len(rest) > 0; {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			r.partial = append(r.partial, rest...)
			if len(r.partial) > maxKept {
				r.lines, r.partial = 2, nil
			}
			break
		}
		line := append(r.partial, rest[:i+1]...)
		r.partial, rest = nil, rest[i+1:]
		r.lines++
		if r.k.lines < 2 {
			r.k.add(line)
		}
		r.send(note{Line: line})
	}
	return n, err
}

// end sends End when the app's stream ended (not when the running
// Switchboard stopped serving it: then 'serve' goes on without it).
func (r *recorder) end() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.eof {
		r.send(note{End: true})
	}
	r.over = true
}

func (r *recorder) send(n note) {
	if r.over {
		return
	}
	b, _ := json.Marshal(n)
	if _, err := r.c.Write(append(b, '\n')); err != nil {
		r.over = true
	}
}

// wholeLines reads r from its first whole line: a first line that is not
// JSON is the end of a message the running Switchboard read the start of
// before it went away, and is dropped.
type wholeLines struct {
	r       *bufio.Reader
	checked bool
	first   []byte
}

func (w *wholeLines) Read(p []byte) (int, error) {
	if !w.checked {
		w.checked = true
		line, err := w.r.ReadBytes('\n')
		if json.Valid(bytes.TrimSpace(line)) {
			w.first = line
		}
		if err != nil && len(w.first) == 0 {
			return 0, err
		}
	}
	if len(w.first) > 0 {
		n := copy(p, w.first)
		w.first = w.first[n:]
		return n, nil
	}
	return w.r.Read(p)
}
