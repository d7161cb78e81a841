package chat_test

import (
	"testing"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
)

// TestProgressReachesTheTurn: the progress server-everything reports
// during a chat's call (notifications/progress, under the token the router
// sends) comes out as progress events naming the call, while it runs and
// before its end, with how far it is and of how much.
func TestProgressReachesTheTurn(t *testing.T) {
	reg := everything(t)
	f := newFixture(t, provider.KindOpenAI, nil)
	f.eng.SetTools(reg)
	f.llm.Enqueue(
		providertest.Reply{ToolCalls: []providertest.ToolCall{call("c1", "everything__trigger-long-running-operation", `{"duration":1.5,"steps":3}`)}},
		providertest.Reply{Text: "It finished."},
	)
	if _, err := f.send(t.Context(), "run the long operation"); err != nil {
		t.Fatal(err)
	}
	var end int64
	for _, ev := range f.events(chat.EventToolCall) {
		if ev.Call.ID == "c1" && ev.Call.Status == chat.CallDone {
			end = ev.Seq
		}
	}
	progress := f.events(chat.EventProgress)
	if end == 0 || len(progress) == 0 {
		t.Fatalf("the call ended at event %d with %d progress events; want its steps reported before its end", end, len(progress))
	}
	last := 0.0
	for _, ev := range progress {
		c, p := ev.Call, ev.Progress
		if c == nil || p == nil || c.ID != "c1" || c.Name != "everything__trigger-long-running-operation" || c.Server != "everything" || c.Status != chat.CallRunning {
			t.Fatalf("progress event %+v names call %+v; want c1, running", p, c)
		}
		if ev.Seq > end || p.Total != 3 || p.Progress <= last || p.Progress > 3 {
			t.Errorf("progress %+v at event %d (the call ended at %d); want steps of 3, rising, before the end", *p, ev.Seq, end)
		}
		last = p.Progress
	}
}
