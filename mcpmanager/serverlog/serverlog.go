// Package serverlog owns what a server writes to stderr, and the log
// messages it sends over MCP (notifications/message, with their level and
// logger): the last entries in memory (shown in the UI and in error
// messages) and a size-capped, rotated file under the data dir's logs/.
//
//	l, err := serverlog.Open(filepath.Join(dir.Logs(), "github.log"), serverlog.Options{})
//	go l.Consume(proc.Stderr) // until EOF
//	l.AddMessage("warning", "db", "slow query") // an MCP log message
//	fmt.Println(l.Tail(20))
//	l.Close()
//
// A Log is safe for concurrent use. A server flooding stderr costs a bounded
// amount of memory and disk, never blocks the server, and never the app.
package serverlog

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// Options bound a Log; zero values take the defaults.
type Options struct {
	Lines    int   // lines kept in memory (default 200)
	MaxBytes int64 // file size before rotation to .1 (default 1 MiB)
	MaxLine  int   // longer lines are cut (default 4 KiB)
	// Redact, when set, is applied to every line before it is kept (secrets).
	Redact func(string) string
}

// Log is one server's stderr record.
type Log struct {
	opts Options
	path string

	mu   sync.Mutex
	ring []Entry
	next int
	full bool
	file *os.File
	size int64
}

// Open creates (or appends to) the log file at path; path "" keeps memory only.
func Open(path string, opts Options) (*Log, error) {
	if opts.Lines <= 0 {
		opts.Lines = 200
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = 1 << 20
	}
	if opts.MaxLine <= 0 {
		opts.MaxLine = 4 << 10
	}
	l := &Log{opts: opts, path: path, ring: make([]Entry, opts.Lines)}
	if path != "" {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return nil, fmt.Errorf("open server log: %w", err)
		}
		fi, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("open server log: %w", err)
		}
		l.file, l.size = f, fi.Size()
	}
	return l, nil
}

// Consume reads r line by line until EOF or error.
func (l *Log) Consume(r io.Reader) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := br.ReadSlice('\n')
		if len(line) > 0 {
			more := err == bufio.ErrBufferFull
			l.Add(string(bytes.TrimRight(line, "\r\n")))
			// Skip the rest of an over-long line rather than buffering it.
			for more {
				_, err = br.ReadSlice('\n')
				more = err == bufio.ErrBufferFull
			}
		}
		if err != nil && err != bufio.ErrBufferFull {
			return
		}
	}
}

// Entry is one line of the log: a stderr line (Level "") or an MCP log
// message (notifications/message) with its level and logger.
type Entry struct {
	Level  string `json:"level,omitempty"`  // debug … emergency (RFC 5424 names); "" for stderr
	Logger string `json:"logger,omitempty"` // the message's logger, when it named one
	Text   string `json:"text"`
}

// String is how the entry reads in a tail and the file: stderr lines as
// written, messages as "[level] logger: text".
func (e Entry) String() string {
	if e.Level == "" {
		return e.Text
	}
	if e.Logger != "" {
		return "[" + e.Level + "] " + e.Logger + ": " + e.Text
	}
	return "[" + e.Level + "] " + e.Text
}

// Levels are the MCP log levels (RFC 5424 severities), least severe first.
var Levels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// Rank is level's place in Levels (debug 0 … emergency 7), or -1 for ""
// and names it does not know.
func Rank(level string) int {
	for i, l := range Levels {
		if l == level {
			return i
		}
	}
	return -1
}

// Add records one stderr line.
func (l *Log) Add(line string) { l.add(Entry{Text: line}) }

// AddMessage records one MCP log message; an unknown level is kept as "info".
func (l *Log) AddMessage(level, logger, text string) {
	if Rank(level) < 0 {
		level = "info"
	}
	if l.opts.Redact != nil {
		logger = l.opts.Redact(logger)
	}
	l.add(Entry{Level: level, Logger: logger, Text: text})
}

func (l *Log) add(e Entry) {
	if len(e.Text) > l.opts.MaxLine {
		e.Text = e.Text[:l.opts.MaxLine] + " …[cut]"
	}
	if l.opts.Redact != nil {
		e.Text = l.opts.Redact(e.Text)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ring[l.next] = e
	l.next = (l.next + 1) % len(l.ring)
	if l.next == 0 {
		l.full = true
	}
	if l.file == nil {
		return
	}
	entry := time.Now().Format(time.RFC3339) + " " + e.String() + "\n"
	if l.size+int64(len(entry)) > l.opts.MaxBytes {
		l.rotate()
	}
	if l.file != nil {
		n, _ := l.file.WriteString(entry)
		l.size += int64(n)
	}
}

// rotate moves the file to path.1 (replacing an older one) and starts anew.
func (l *Log) rotate() {
	l.file.Close()
	_ = os.Rename(l.path, l.path+".1")
	f, err := os.OpenFile(l.path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		l.file = nil // disk trouble: keep memory only rather than fail the server
		return
	}
	l.file, l.size = f, 0
}

// Tail returns up to n of the most recent lines, oldest first (every
// entry, as Entry.String reads).
func (l *Log) Tail(n int) []string {
	es := l.Entries(n, "")
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.String()
	}
	return out
}

// Entries returns up to n of the most recent entries, oldest first. A
// minLevel other than "" keeps only messages at that level or above
// (stderr lines, which have none, are left out).
func (l *Log) Entries(n int, minLevel string) []Entry {
	l.mu.Lock()
	var all []Entry
	if l.full {
		all = append(all, l.ring[l.next:]...)
	}
	all = append(all, l.ring[:l.next]...)
	l.mu.Unlock()
	if min := Rank(minLevel); minLevel != "" {
		kept := all[:0]
		for _, e := range all {
			if Rank(e.Level) >= max(min, 0) {
				kept = append(kept, e)
			}
		}
		all = kept
	}
	if n > 0 && len(all) > n {
		all = all[len(all)-n:]
	}
	return all
}

// TailString joins the last n lines for an error message.
func (l *Log) TailString(n int) string {
	return strings.Join(l.Tail(n), "\n")
}

// Close closes the file; the in-memory lines stay readable.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.file == nil {
		return nil
	}
	err := l.file.Close()
	l.file = nil
	return err
}
