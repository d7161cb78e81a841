package shell

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
)

// OutputBuffer keeps what a command printed within a bound: the first and
// the last limit/2 bytes, counting what falls between. It is an io.Writer
// safe for concurrent use.
type OutputBuffer struct {
	mu    sync.Mutex
	limit int
	head  []byte
	tail  []byte // ring of the latest bytes once head is full
	pos   int    // next write position in tail once it is full
	total int64
}

// NewOutputBuffer returns a buffer keeping at most limit bytes.
func NewOutputBuffer(limit int) *OutputBuffer {
	return &OutputBuffer{limit: max(limit, 2)}
}

func (o *OutputBuffer) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	n := len(p)
	o.total += int64(n)
	headCap := o.limit / 2
	if room := headCap - len(o.head); room > 0 {
		k := min(room, len(p))
		o.head = append(o.head, p[:k]...)
		p = p[k:]
	}
	tailCap := o.limit - headCap
	if len(p) >= tailCap {
		o.tail = append(o.tail[:0], p[len(p)-tailCap:]...)
		o.pos = 0
		return n, nil
	}
	for len(p) > 0 {
		if len(o.tail) < tailCap {
			k := min(tailCap-len(o.tail), len(p))
			o.tail = append(o.tail, p[:k]...)
			p = p[k:]
			continue
		}
		k := copy(o.tail[o.pos:], p)
		o.pos = (o.pos + k) % tailCap
		p = p[k:]
	}
	return n, nil
}

// Text returns the output as plain text (see Strip) and how many bytes
// were left out of the middle; when some were, a notice saying so stands
// where they were.
func (o *OutputBuffer) Text() (text string, omitted int64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	tail := append(append([]byte(nil), o.tail[o.pos:]...), o.tail[:o.pos]...)
	omitted = o.total - int64(len(o.head)) - int64(len(tail))
	if omitted == 0 {
		return Strip(append(append([]byte(nil), o.head...), tail...)), 0
	}
	notice := fmt.Sprintf("\n[... %d bytes of output omitted; redirect the output to a file and read parts of it with read_file or search_files ...]\n", omitted)
	return Strip(o.head) + notice + Strip(tail), omitted
}

// Markers: the shell prints them with printf around each command, as OSC
// sequences terminals ignore, so a terminal attached to the session shows
// nothing of them:
//
//	ESC ] 7770 ; S ; <id> BEL                    the command starts
//	ESC ] 7770 ; E ; <id> ; <status> BEL  it ended (the ID.pwd file holds $PWD)
//	ESC ] 7770 ; P BEL                    the prompt (PS1) starts
//
// The typed line only names <id>; the escape bytes exist only in printf's
// output, so the terminal's echo of the line never matches. A prompt
// between the start and end markers of a command that was interrupted
// means the shell abandoned it and is back at its prompt (a command could
// print PS1 itself, so the prompt marker counts only after an interrupt).
const (
	markerPrefix = "\x1b]7770;"
	promptMarker = markerPrefix + "P\x07"
)

// capture follows the output of one command from its start marker to its
// end marker.
type capture struct {
	p       *proc
	id      string
	start   []byte
	end     []byte
	started bool
	pending []byte // unconsumed bytes that may begin a marker
	out     *OutputBuffer
	exit    int
	done    chan struct{} // closed when the end marker (or, once interrupted, a prompt) has been read
	// interrupted: the shell was sent SIGINT, so a prompt ends the command.
	interrupted bool
	old         int // how many bytes of pending were read before the interrupt
	// abandoned: the shell gave the command up and printed its prompt.
	abandoned bool
	// typed is the line typed to run the command, until the terminal's
	// echo of it was seen; shown is what a person's terminal shows instead
	// (display).
	typed, shown []byte
	// fileRef is how the shell names the command's file in its messages
	// ("PATH: "), left out of what the model and the terminal get.
	fileRef []byte
}

func newCapture(p *proc, id string, limit int) *capture {
	return &capture{
		p:     p,
		id:    id,
		start: []byte(markerPrefix + "S;" + id + "\x07"),
		end:   []byte(markerPrefix + "E;" + id + ";"),
		out:   NewOutputBuffer(limit),
		done:  make(chan struct{}),
	}
}

func (c *capture) finished() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

// maxMarkerTail bounds how much is held back waiting for the BEL ending an
// end marker (after its status).
const maxMarkerTail = 8 << 10

// feed reads the next bytes of the terminal's output.
func (c *capture) feed(b []byte) {
	if c.finished() {
		return
	}
	data, old := append(c.pending, b...), c.old
	c.pending, c.old = nil, 0
	if !c.started {
		i := bytes.Index(data, c.start)
		if i < 0 {
			c.hold(data, len(c.start)-1)
			return
		}
		c.started = true
		data, old = data[i+len(c.start):], max(0, old-i-len(c.start))
	}
	j := bytes.Index(data, c.end)
	if c.interrupted && c.abandon(data, old, j) {
		return
	}
	if j < 0 {
		k := max(0, len(data)-(len(c.end)-1))
		c.out.Write(data[:k])
		c.keep(data, k, old)
		return
	}
	c.out.Write(data[:j])
	rest := data[j+len(c.end):]
	bel := bytes.IndexByte(rest, 0x07)
	if bel < 0 {
		if len(rest) > maxMarkerTail { // not a marker after all
			c.out.Write(data[j:])
			return
		}
		c.keep(data, j, old)
		return
	}
	c.exit, _ = strconv.Atoi(string(rest[:bel]))
	close(c.done)
}

// pwd is the working directory the command left the shell in, which __sb
// wrote before the end marker ("" if it could not be read).
func (c *capture) pwd() string {
	b, err := os.ReadFile(filepath.Join(c.p.dir, c.id+".pwd"))
	if err != nil {
		return ""
	}
	return string(b)
}

// keep holds data[from:] back for the next feed; its first old bytes
// were read before the interrupt.
func (c *capture) keep(data []byte, from, old int) {
	c.pending = append([]byte(nil), data[from:]...)
	c.old = max(0, old-from)
}

// interrupt notes that the shell is being interrupted: from now on its
// prompt means it gave the command up.
func (c *capture) interrupt() {
	c.interrupted, c.old = true, len(c.pending)
}

// abandon ends an interrupted command at the shell's prompt when one
// comes before the end marker (at end, -1 if none), and after the first
// old bytes of data, read before the interrupt: the shell gave the command
// up. It reports whether it did.
func (c *capture) abandon(data []byte, old, end int) bool {
	k := bytes.Index(data[old:], []byte(promptMarker))
	if k < 0 || (end >= 0 && end < old+k) {
		return false
	}
	k += old
	c.out.Write(data[:k])
	c.exit, c.abandoned = -1, true
	close(c.done)
	return true
}

// flush passes on what was held back looking for the end marker; for a
// capture that will be fed no more (the command was stopped).
func (c *capture) flush() {
	if c.started && !c.finished() {
		c.out.Write(c.pending)
	}
	c.pending = nil
}

// hold keeps the last n bytes of data for the next feed.
func (c *capture) hold(data []byte, n int) {
	if len(data) > n {
		data = data[len(data)-n:]
	}
	c.pending = append([]byte(nil), data...)
}
