package host

import (
	"testing"

	"github.com/switchboard-app/switchboard/app/chat"
)

// TestRequestsFollowTheSavedSettings: what SetSampling saves is what the
// next sampling request of either door is decided by (Chats.Requests reads
// it each time), a bad setting is refused, and a call of the Tools page or
// an MCP App counts as the server's call while it runs.
func TestRequestsFollowTheSavedSettings(t *testing.T) {
	h := open(t)
	q := h.Chats.Requests(&chat.Requests{})
	if got := q.Sampling(); got != (chat.SamplingSettings{}) {
		t.Fatalf("defaults: %+v", got)
	}
	if err := h.Settings.SetSampling(chat.SamplingSettings{Mode: "sometimes"}); err == nil {
		t.Fatal("a bad mode was saved")
	}
	want := chat.SamplingSettings{Mode: chat.SamplingAllow, PerChat: 2, PerMinute: 4, OutsideCalls: true}
	if err := h.Settings.SetSampling(want); err != nil {
		t.Fatal(err)
	}
	if got := q.Sampling(); got != want {
		t.Fatalf("after saving: %+v; want %+v", got, want)
	}

	if q.InCall("maps") {
		t.Fatal("a call before any ran")
	}
	end := h.calls.begin("maps")
	end2 := h.calls.begin("maps")
	end()
	if !q.InCall("maps") || q.InCall("weather") {
		t.Fatal("the running call is not seen, or seen for another server")
	}
	end2()
	if q.InCall("maps") {
		t.Fatal("a finished call still counts")
	}
}
