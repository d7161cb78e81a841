package chat

import (
	"testing"
	"time"
)

// TestSamplingMeterWindow: the per-minute cap counts a server's requests
// of the last minute only, per server; refused requests do not count, and
// only those sent unasked count against the chat's allowance.
func TestSamplingMeterWindow(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	m := &samplingMeter{now: func() time.Time { return now }}
	s := SamplingSettings{Mode: SamplingAllow, PerChat: 100, PerMinute: 3}
	verdicts := func(server, chatID string, n int) (out []Verdict) {
		for range n {
			out = append(out, m.decide(s, server, chatID, true).Verdict)
		}
		return out
	}
	if got := verdicts("a", "c1", 5); got[2] != Run || got[3] != Refuse || got[4] != Refuse {
		t.Fatalf("first minute: %v; want 3 runs, then refusals", got)
	}
	if got := verdicts("b", "c1", 1); got[0] != Run {
		t.Fatalf("another server has its own cap: %v", got)
	}
	now = now.Add(59 * time.Second)
	if got := verdicts("a", "c1", 1); got[0] != Refuse {
		t.Fatalf("59 s later: %v", got)
	}
	now = now.Add(time.Second)
	if got := verdicts("a", "c1", 4); got[2] != Run || got[3] != Refuse {
		t.Fatalf("a minute later: %v; want 3 runs again (refusals never counted)", got)
	}
	if m.sent["c1"] != 7 {
		t.Fatalf("sent in c1: %d; want 7", m.sent["c1"])
	}

	// Past the chat's allowance requests ask; asked ones count toward the cap.
	m = &samplingMeter{now: func() time.Time { return now }}
	s = SamplingSettings{Mode: SamplingAllow, PerChat: 1, PerMinute: 3}
	if got := verdicts("a", "c2", 4); got[0] != Run || got[1] != Ask || got[2] != Ask || got[3] != Refuse {
		t.Fatalf("allowance then cap: %v", got)
	}
}
