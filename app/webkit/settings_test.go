package webkit

import (
	"testing"
	"time"
)

func TestParseSettings(t *testing.T) {
	s, err := parseSettings(Lean, "limit=120, strict=0.7,poll=2.5")
	if err != nil {
		t.Fatal(err)
	}
	want := Lean
	want.LimitMB, want.Strict, want.Poll = 120, 0.7, 2500*time.Millisecond
	if s != want {
		t.Fatalf("got %+v, want %+v", s, want)
	}
	for _, bad := range []string{"limit", "kill=0.9", "poll=soon"} {
		if _, err := parseSettings(Lean, bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
