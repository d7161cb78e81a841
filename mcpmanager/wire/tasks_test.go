package wire

import (
	"testing"
	"time"
)

// TestPollWait: a server's pollInterval is kept within bounds, so a task
// that says 1 ms is not polled a thousand times a second.
func TestPollWait(t *testing.T) {
	ms := func(v int64) *int64 { return &v }
	for _, c := range []struct {
		in   *int64
		want time.Duration
	}{
		{nil, TaskPoll},
		{ms(0), TaskPoll},
		{ms(-5), TaskPoll},
		{ms(1), MinTaskPoll},
		{ms(2000), 2 * time.Second},
		{ms(1 << 40), MaxTaskPoll},
	} {
		if got := PollWait(c.in); got != c.want {
			t.Errorf("PollWait(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}
