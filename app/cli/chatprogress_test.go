package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/app/host"
)

// TestChatShowsProgress: a running call's progress events are one status
// line on a terminal, written over in place and erased before the next
// line (and not drawn over a question waiting on its line); without a
// terminal, a call's first report and then one every progressLineEvery.
func TestChatShowsProgress(t *testing.T) {
	start := time.Unix(1_000_000, 0)
	running := host.ChatEvent{Type: host.EventToolCall, Call: &host.TurnCall{ID: "c1", Name: "odd__slow", Args: `{"seconds":20}`, Status: host.CallRunning}}
	done := host.ChatEvent{Type: host.EventToolCall, Call: &host.TurnCall{ID: "c1", Name: "odd__slow", Status: host.CallDone, DurationMs: 5}}
	progress := func(at time.Duration, p, total float64, msg string) func(*streamPrinter) {
		return func(s *streamPrinter) {
			s.now = func() time.Time { return start.Add(at) }
			s.event(host.ChatEvent{Type: host.EventProgress, Call: &host.TurnCall{ID: "c1", Name: "odd__slow", Status: host.CallRunning},
				Progress: &host.TurnProgress{Progress: p, Total: total, Message: msg}})
		}
	}
	event := func(ev host.ChatEvent) func(*streamPrinter) { return func(s *streamPrinter) { s.event(ev) } }
	const erase = "\r\x1b[K"
	for _, tc := range []struct {
		name  string
		tty   bool
		steps []func(*streamPrinter)
		want  string
	}{
		{"a terminal: one line, written over", true, []func(*streamPrinter){
			event(running), progress(0, 1, 20, "step 1"), progress(time.Second, 2, 20, "step 2"), event(done),
		}, "→ odd__slow {\"seconds\":20}\n" + erase + "… odd__slow: step 1 (1 of 20)" + erase + "… odd__slow: step 2 (2 of 20)" + erase + "← odd__slow done (5 ms)\n"},
		{"a terminal: cut to its width, a fraction as percent", true, []func(*streamPrinter){
			progress(0, 0.25, 1, strings.Repeat("x", 60)),
		}, erase + "… odd__slow: " + strings.Repeat("x", 25) + "…"},
		{"a terminal: no total, a count", true, []func(*streamPrinter){progress(0, 3, 0, "")}, erase + "… odd__slow: 3 so far"},
		{"no terminal: the first report, then one every few seconds", false, []func(*streamPrinter){
			event(running), progress(0, 1, 20, "step 1"), progress(time.Second, 2, 20, "step 2"), progress(progressLineEvery+time.Second, 6, 20, "step 6"), event(done),
		}, "→ odd__slow {\"seconds\":20}\n… odd__slow: step 1 (1 of 20)\n… odd__slow: step 6 (6 of 20)\n← odd__slow done (5 ms)\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stderr, stdout bytes.Buffer
			lw := &lockedWriter{w: &stderr}
			s := &streamPrinter{out: &stdout, errOut: lw}
			if tc.tty {
				s.status, s.width = lw, 40
			}
			for _, step := range tc.steps {
				step(s)
			}
			s.finish()
			if tc.tty && !strings.HasSuffix(tc.want, "\n") {
				tc.want += erase // finish erases a line left drawn
			}
			if got := stderr.String(); got != tc.want {
				t.Errorf("stderr\n got %q\nwant %q", got, tc.want)
			}
		})
	}

	t.Run("a terminal: not over a question waiting on its line", func(t *testing.T) {
		var stderr bytes.Buffer
		lw := &lockedWriter{w: &stderr}
		s := &streamPrinter{out: &bytes.Buffer{}, errOut: lw, status: lw, width: 80}
		_, _ = lw.Write([]byte("Allow? [y]es / [a]lways in this chat / [N]o: "))
		progress(0, 1, 20, "step 1")(s)
		if got := stderr.String(); got != "Allow? [y]es / [a]lways in this chat / [N]o: " {
			t.Errorf("stderr %q: the status line was drawn over the question", got)
		}
	})
}
