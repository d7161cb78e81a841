package chat

import (
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// fakeTimer is a timer the test fires by hand.
type fakeTimer struct {
	fn      func()
	stopped bool
}

func (t *fakeTimer) Stop() bool { t.stopped = true; return true }

// TestProgressFeedThrottles: a call's progress reports go out at most once
// every progressEvery — the first at once, then the latest of those that
// came sooner when the interval is over — and none after the call ended.
func TestProgressFeedThrottles(t *testing.T) {
	type step struct {
		at     time.Duration // when the report comes (0: none)
		report float64
		fire   bool // fire the pending timer instead of reporting
		stop   bool // the call returns
	}
	for _, tc := range []struct {
		name  string
		steps []step
		want  []float64
	}{
		{"the first goes out at once", []step{{at: 1, report: 1}}, []float64{1}},
		{"one every interval", []step{{at: 1, report: 1}, {at: 300 * time.Millisecond, report: 2}, {at: 600 * time.Millisecond, report: 3}}, []float64{1, 2, 3}},
		{"a burst sends its latest when the interval is over", []step{
			{at: 1, report: 1}, {at: 10 * time.Millisecond, report: 2}, {at: 20 * time.Millisecond, report: 3}, {fire: true},
		}, []float64{1, 3}},
		{"a held report is dropped when the call ends", []step{
			{at: 1, report: 1}, {at: 10 * time.Millisecond, report: 2}, {stop: true}, {fire: true},
		}, []float64{1}},
		{"nothing after the call ended", []step{{at: 1, report: 1}, {stop: true}, {at: time.Second, report: 2}}, []float64{1}},
		{"a hundred reports in a second are four events", func() []step {
			var s []step
			for i := 1; i <= 100; i++ {
				s = append(s, step{at: time.Duration(i) * 10 * time.Millisecond, report: float64(i)})
				if i%25 == 0 {
					s = append(s, step{fire: true})
				}
			}
			return s
		}(), []float64{1, 25, 50, 75, 100}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var sent []float64
			var timer *fakeTimer
			start := time.Unix(1_000_000, 0)
			now := start
			f := newProgressFeed(func(p Progress) { sent = append(sent, p.Progress) })
			f.now = func() time.Time { return now }
			f.after = func(_ time.Duration, fn func()) stopper { timer = &fakeTimer{fn: fn}; return timer }
			for _, s := range tc.steps {
				switch {
				case s.fire:
					if timer != nil && !timer.stopped {
						tm := timer
						timer = nil
						if now.Sub(f.last) < f.every {
							now = f.last.Add(f.every)
						}
						tm.fn()
					}
				case s.stop:
					f.stop()
				default:
					now = start.Add(s.at)
					f.report(router.Progress{Progress: s.report, Total: 100})
				}
			}
			if len(sent) != len(tc.want) {
				t.Fatalf("sent %v, want %v", sent, tc.want)
			}
			for i := range sent {
				if sent[i] != tc.want[i] {
					t.Fatalf("sent %v, want %v", sent, tc.want)
				}
			}
		})
	}
}

// TestStatusLine: a progress message is one line of bounded length.
func TestStatusLine(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"step 7 of 20", "step 7 of 20"},
		{"  copying\n\tfile.txt\r\n ", "copying file.txt"},
		{strings.Repeat("é", 400), strings.Repeat("é", maxProgressMessage-1) + "…"},
	} {
		if got := statusLine(tc.in); got != tc.want {
			t.Errorf("statusLine(%.20q) = %.40q, want %.40q", tc.in, got, tc.want)
		}
	}
}
