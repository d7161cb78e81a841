package cli

import (
	"bytes"
	"testing"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/host"
)

// TestChatSaysHowManyResultsAreStubs: when the turn alone does not fit,
// switchboard chat says how many of its results the model sees as stubs,
// not how many steps: one step of fifteen results may have six stubbed
// and the rest whole, which "1 earlier step" misstated. Said once a run.
func TestChatSaysHowManyResultsAreStubs(t *testing.T) {
	const head = "switchboard: this turn's tool results no longer fit the model's context together; the model sees "
	for _, tc := range []struct {
		name   string
		meters []chat.ContextView
		want   string
	}{
		{"six results of one step", []chat.ContextView{{TurnStubbed: 1, TurnStubbedResults: 6}, {TurnStubbed: 1, TurnStubbedResults: 9}},
			head + "6 of them as stubs, the oldest first\n"},
		{"one result", []chat.ContextView{{TurnStubbed: 1, TurnStubbedResults: 1}}, head + "1 of them as a stub, the oldest\n"},
		{"a step of short results, none shortened", []chat.ContextView{{TurnStubbed: 1}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stderr bytes.Buffer
			s := &streamPrinter{out: &bytes.Buffer{}, errOut: &stderr}
			for _, m := range tc.meters {
				s.event(host.ChatEvent{Type: host.EventContext, Context: &m})
			}
			if got := stderr.String(); got != tc.want {
				t.Errorf("stderr\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}
