package chat_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/app/history"
	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/mcpmanager"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
)

// formsSeen answers every form with accept and records it; safe for
// concurrent use.
type formsSeen struct {
	mu  sync.Mutex
	got []chat.ElicitRequest
}

func (f *formsSeen) Elicit(_ context.Context, req chat.ElicitRequest) (chat.ElicitAnswer, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.got = append(f.got, req)
	return chat.ElicitAnswer{Action: "accept", Content: map[string]any{"ok": true}}, nil
}

func (f *formsSeen) seen() []chat.ElicitRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]chat.ElicitRequest(nil), f.got...)
}

// waitForFile returns once path exists.
func waitForFile(t *testing.T, path string) {
	t.Helper()
	mcptest.Within(t, 30*time.Second, path, func() error {
		_, err := os.Stat(path)
		return err
	})
}

// chatOn is a chat of its own model (a fake provider of its own) on eng.
type chatOn struct {
	id  string
	llm *providertest.Server
	p   provider.Provider
}

func newChatOn(t *testing.T, hist *history.Store, title string) chatOn {
	t.Helper()
	row, err := hist.CreateChat(t.Context(), history.Chat{Title: title})
	if err != nil {
		t.Fatal(err)
	}
	c := chatOn{id: row.ID, llm: providertest.NewServer(t)}
	if c.p, err = provider.New(provider.Config{Kind: provider.KindOpenAI, Name: title, BaseURL: c.llm.URL(provider.KindOpenAI), APIKey: "k"}); err != nil {
		t.Fatal(err)
	}
	return c
}

// turn runs one turn of c on its own goroutine in which the model calls
// tool with args, then answers.
func (c chatOn) turn(ctx context.Context, eng *chat.Engine, model, tool, args string, replies ...providertest.Reply) <-chan chat.Result {
	c.llm.Enqueue(append([]providertest.Reply{{ToolCalls: []providertest.ToolCall{call("c-"+model, tool, args)}}}, replies...)...)
	out := make(chan chat.Result, 1)
	go func() {
		res, err := eng.Send(ctx, chat.Turn{ChatID: c.id, Provider: c.p, Model: model, Text: "go"})
		if err != nil {
			res.Message.Error = err.Error()
		}
		out <- res
	}()
	return out
}

// read reports whether llm was sent text.
func read(llm *providertest.Server, text string) bool {
	for _, body := range llm.Requests() {
		if strings.Contains(string(body), text) {
			return true
		}
	}
	return false
}

// TestQuestionsStayInTheirChat: two chats of the window call one stdio
// server (the testserver in mode askserver, whose questions name no
// call). Chat A's call asks while chat B's call, made after A's, runs
// there: the question is refused, neither shown in chat B nor sampled
// with B's model (nor shown in A, as whose it is cannot be told). Asked
// while A's call runs alone, it is shown in chat A and sampled with A's
// model.
func TestQuestionsStayInTheirChat(t *testing.T) {
	bin := proctest.Server(t, "askserver")
	for _, kind := range []string{"sampling", "form"} {
		for _, tc := range []struct {
			name      string
			otherRuns bool
			want      string
		}{
			{"while chat B's call runs", true, "refused: "},
			{"alone", false, "answered: "},
		} {
			t.Run(kind+" "+tc.name, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
				defer cancel()
				hist, err := history.Open(ctx, filepath.Join(t.TempDir(), "history.db"))
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { hist.Close() })
				a, b := newChatOn(t, hist, "A"), newChatOn(t, hist, "B")
				m := mcpmanager.New(mcpmanager.Options{})
				t.Cleanup(func() { m.Close(context.Background()) })
				appr, forms := &approver{answer: chat.ApproveOnce}, &formsSeen{}
				eng := chat.New(chat.Options{Tools: m.Router(), History: hist, Approver: appr})
				m.SetRequestHandler(&chat.Requests{Engine: eng, Approver: appr, Elicitor: forms})
				m.Apply([]mcpmanager.ServerConfig{{Name: "ask", Command: bin}})
				m.WaitSettled(ctx)

				dir := t.TempDir()
				gateA, gateB := filepath.Join(dir, "a"), filepath.Join(dir, "b")
				doneA := a.turn(ctx, eng, "model-A", "ask__ask", fmt.Sprintf(`{"who":"alice","kind":%q,"gate":%q}`, kind, gateA),
					providertest.Reply{Text: "A's model answers"}, providertest.Reply{Text: "done"})
				waitForFile(t, gateA+".started")
				var doneB <-chan chat.Result
				if tc.otherRuns {
					doneB = b.turn(ctx, eng, "model-B", "ask__hold", fmt.Sprintf(`{"gate":%q}`, gateB),
						providertest.Reply{Text: "B's model answers"}, providertest.Reply{Text: "done"})
					waitForFile(t, gateB+".started")
				}
				if err := os.WriteFile(gateA, nil, 0o600); err != nil {
					t.Fatal(err)
				}
				resA := <-doneA
				if err := os.WriteFile(gateB, nil, 0o600); err != nil {
					t.Fatal(err)
				}
				if doneB != nil {
					<-doneB
				}

				if len(resA.ToolCalls) == 0 || !strings.Contains(string(resA.ToolCalls[0].Result), tc.want) {
					var got []string
					for _, c := range resA.ToolCalls {
						got = append(got, string(c.Result))
					}
					t.Fatalf("chat A's calls: %q (%s); want its question %s…", got, resA.Message.Error, tc.want)
				}
				var cards []string
				for _, r := range appr.asked() {
					if r.Kind == chat.KindSampling {
						cards = append(cards, r.ChatID)
					}
				}
				for _, f := range forms.seen() {
					cards = append(cards, f.ChatID)
				}
				if tc.otherRuns && len(cards) != 0 || !tc.otherRuns && (len(cards) != 1 || cards[0] != a.id) {
					t.Errorf("the question was shown in chats %q; want %s", cards, map[bool]string{true: "none", false: "chat A alone (" + a.id + ")"}[tc.otherRuns])
				}
				if read(b.llm, "PRIVATE for alice") {
					t.Error("chat B's model got chat A's question")
				}
				if sampled := read(a.llm, "PRIVATE for alice"); sampled != (kind == "sampling" && !tc.otherRuns) {
					t.Errorf("chat A's model sampled: %v", sampled)
				}
			})
		}
	}
}
