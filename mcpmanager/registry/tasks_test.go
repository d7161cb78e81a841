package registry

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
		{nil, TaskPollInterval},
		{ms(0), TaskPollInterval},
		{ms(-5), TaskPollInterval},
		{ms(1), MinTaskPollInterval},
		{ms(2000), 2 * time.Second},
		{ms(1 << 40), MaxTaskPollInterval},
	} {
		if got := pollWait(c.in); got != c.want {
			t.Errorf("pollWait(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}
