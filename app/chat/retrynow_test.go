package chat_test

import (
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
)

// TestRetryNowEndsTheTurnsWait: RetryNow during a rate limit's 50 s wait
// asks the model again at once, and the answer is stored; with no turn
// waiting (another chat, the turn over) it does nothing.
func TestRetryNowEndsTheTurnsWait(t *testing.T) {
	f := newFixture(t, provider.KindOpenAI, nil)
	if f.eng.RetryNow(f.chat.ID) {
		t.Fatal("RetryNow before any turn reported a wait")
	}
	f.llm.Enqueue(providertest.Reply{Status: 429, RetryAfter: "50"}, providertest.Reply{Text: "after the wait"})
	waiting := make(chan struct{}, 1)
	done := make(chan error, 1)
	go func() {
		_, err := f.send(t.Context(), "hi", func(turn *chat.Turn) {
			on := turn.OnEvent
			turn.OnEvent = func(ev chat.Event) {
				on(ev)
				if ev.Type == chat.EventRetry {
					waiting <- struct{}{}
				}
			}
		})
		done <- err
	}()
	<-waiting
	if f.eng.RetryNow("another chat") {
		t.Error("RetryNow of another chat woke this one's wait")
	}
	woken := time.Now()
	if !f.eng.RetryNow(f.chat.ID) {
		t.Fatal("RetryNow found no wait in the running turn")
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if d := time.Since(woken); d > 25*time.Second {
		t.Fatalf("the model was asked again %v after RetryNow; want at once", d)
	}
	ms, err := f.hist.Messages(t.Context(), f.chat.ID)
	if err != nil {
		t.Fatal(err)
	}
	if last := ms[len(ms)-1]; last.Text != "after the wait" || last.Status != "complete" {
		t.Fatalf("stored answer %q (%s); want the retried one", last.Text, last.Status)
	}
	if f.eng.RetryNow(f.chat.ID) {
		t.Error("RetryNow after the turn reported a wait")
	}
}
