package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/switchboard-app/switchboard/app/host"
)

// Progress on the terminal. While a tool call runs, `switchboard chat`
// shows on stderr how far its server says it is (host.EventProgress). On
// a terminal that is one status line, written over in place (carriage
// return, erase line) and erased before anything else is written, so the
// →/← lines, the questions and the answer never run into it; it is not
// drawn while a question waits for its answer on the line. Without a
// terminal (a pipe, a log file) it is a line of its own, a call's first
// report at once and then at most one every progressLineEvery, so a log
// shows the call is alive without a line per report.

// progressLineEvery is the least time between two progress lines of one
// call without a terminal.
const progressLineEvery = 5 * time.Second

// statusShower shows one status line on a terminal (lockedWriter does).
type statusShower interface {
	// Status draws line in place of the status line shown.
	Status(line string)
	// ClearStatus erases the status line, if one is shown.
	ClearStatus()
}

// terminalStatus is errOut as a status line's writer, with the
// terminal's width, when stderr is a terminal; nil otherwise.
func terminalStatus(stderr io.Writer, errOut *lockedWriter) (statusShower, int) {
	f, ok := stderr.(*os.File)
	if !ok || !isTerminal(f) {
		return nil, 0
	}
	width := 80
	if rc, err := f.SyscallConn(); err == nil {
		_ = rc.Control(func(fd uintptr) {
			if w, _, err := term.GetSize(int(fd)); err == nil && w > 20 {
				width = w
			}
		})
	}
	return errOut, width
}

// progress prints a progress event: the status line on a terminal, else
// an occasional line.
func (s *streamPrinter) progress(ev host.ChatEvent) {
	c, p := ev.Call, ev.Progress
	if c == nil || p == nil {
		return
	}
	indent := ""
	if c.Parent != "" {
		indent = "    " // a script's (or a specialist's) call, under its card
	}
	line := termSafe(strings.ReplaceAll(fmt.Sprintf("%s… %s: %s", indent, c.Name, progressText(p.Progress, p.Total, p.Message)), "\n", " "))
	if s.status != nil {
		s.newline()
		s.status.Status(cutRunes(line, s.width-1)) // a line that wraps could not be written over
		return
	}
	now := time.Now
	if s.now != nil {
		now = s.now
	}
	t := now()
	if last, ok := s.progressAt[c.ID]; ok && t.Sub(last) < progressLineEvery {
		return
	}
	if s.progressAt == nil {
		s.progressAt = map[string]time.Time{}
	}
	s.progressAt[c.ID] = t
	s.newline()
	fmt.Fprintln(s.errOut, line)
}

// clearStatus erases the status line before the answer goes on.
func (s *streamPrinter) clearStatus() {
	if s.status != nil {
		s.status.ClearStatus()
	}
}

// progressText says how far a call is: "step 7 (7 of 20)", "40%",
// "3 so far".
func progressText(progress, total float64, message string) string {
	n := func(v float64) string { return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.2f", v), "0"), ".") }
	var amount string
	switch {
	case total > 1 && total == float64(int64(total)):
		amount = n(progress) + " of " + n(total)
	case total > 0:
		amount = fmt.Sprintf("%.0f%%", min(progress/total, 1)*100)
	default:
		amount = n(progress) + " so far"
	}
	if message == "" {
		return amount
	}
	return message + " (" + amount + ")"
}

// cutRunes is s cut to at most n characters, "…" marking the cut.
func cutRunes(s string, n int) string {
	r := []rune(s)
	if n <= 0 || len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// Status draws line as the terminal's status line: after a carriage
// return and an erase, with no newline, so the next one is drawn over it.
// Nothing is drawn while the last write left the line open (a question
// waits for its answer there).
func (l *lockedWriter) Status(line string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open {
		return
	}
	_, _ = io.WriteString(l.w, "\r\x1b[K"+line)
	l.status = true
}

// ClearStatus erases the status line, if one is drawn.
func (l *lockedWriter) ClearStatus() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.clearLocked()
}

func (l *lockedWriter) clearLocked() {
	if l.status {
		_, _ = io.WriteString(l.w, "\r\x1b[K")
		l.status = false
	}
}
