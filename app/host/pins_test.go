package host

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/app/history"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
)

// TestRugPullIsWithheldFromChatUntilTrusted runs the rug-pull server under
// a host and chats with it: after its first call the server changes the
// weather tool's description and sends tools/list_changed. The next turn
// does not offer the tool, a call of it fails saying the definition
// changed and how to review it, the Servers page's change shows both
// definitions, and after Trust (what 'tools trust' and Accept do) the tool
// is offered and answers again.
func TestRugPullIsWithheldFromChatUntilTrusted(t *testing.T) {
	h := open(t)
	h.Servers.Run([]config.Server{{Name: "rug", Transport: config.Stdio, Command: proctest.RugPullServer(t)}})
	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()
	h.mgr.WaitSettled(ctx)
	changes, stop := h.router().Subscribe()
	defer stop()

	hist, err := history.Open(ctx, filepath.Join(t.TempDir(), "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { hist.Close() })
	row, err := hist.CreateChat(ctx, history.Chat{Title: "rug"})
	if err != nil {
		t.Fatal(err)
	}
	llm := providertest.NewServer(t)
	p, err := provider.New(provider.Config{Kind: provider.KindOpenAI, Name: "fake", BaseURL: llm.URL(provider.KindOpenAI), APIKey: "sk-test"})
	if err != nil {
		t.Fatal(err)
	}
	eng := h.Chats.newEngine(hist, chat.ApproveAll{})

	// turn asks the model once; it calls weather with city, then answers.
	// It returns the call as it ended and the tools the model was offered.
	turn := func(city string) (chat.ToolCallView, []string) {
		t.Helper()
		llm.Reset()
		llm.Enqueue(providertest.Reply{ToolCalls: []providertest.ToolCall{{ID: "c-" + city, Name: "rug__weather", Arguments: `{"city":"` + city + `"}`}}},
			providertest.Reply{Text: "done"})
		var mu sync.Mutex
		var last chat.ToolCallView
		_, err := eng.Send(ctx, chat.Turn{ChatID: row.ID, Provider: p, Model: "m", Text: "weather in " + city, OnEvent: func(ev chat.Event) {
			if ev.Type == chat.EventToolCall && ev.Call != nil && ev.Call.ID == "c-"+city {
				mu.Lock()
				last = *ev.Call
				mu.Unlock()
			}
		}})
		if err != nil {
			t.Fatal(err)
		}
		reqs := llm.Requests()
		if len(reqs) == 0 {
			t.Fatal("the model was never asked")
		}
		var req struct {
			Tools []struct {
				Function struct{ Name string } `json:"function"`
			} `json:"tools"`
		}
		if err := json.Unmarshal(reqs[0], &req); err != nil {
			t.Fatal(err)
		}
		var offered []string
		for _, tl := range req.Tools {
			offered = append(offered, tl.Function.Name)
		}
		mu.Lock()
		defer mu.Unlock()
		return last, offered
	}

	call, offered := turn("Paris")
	if call.Status != chat.CallDone || !strings.Contains(string(call.Result), "sunny in Paris") || !slices.Contains(offered, "rug__weather") {
		t.Fatalf("first call = %+v, offered %v; want it to run", call, offered)
	}
	// The server changed the tool and said so: wait until the router withholds it.
	for withheld := false; !withheld; {
		_, errs := h.router().Tools(ctx)
		for _, e := range errs {
			withheld = withheld || e.Tool == "rug__weather"
		}
		if !withheld {
			select {
			case <-changes:
			case <-ctx.Done():
				t.Fatal("the changed tool was never withheld")
			}
		}
	}

	call, offered = turn("Oslo")
	if slices.Contains(offered, "rug__weather") || !slices.Contains(offered, "rug__echo") {
		t.Fatalf("offered after the change = %v; want rug__echo without rug__weather", offered)
	}
	for _, want := range []string{"definition changed", "switchboard tools trust weather --server rug"} {
		if call.Status != chat.CallError || !strings.Contains(call.Error, want) {
			t.Fatalf("call of the changed tool = %+v; want an error saying %q", call, want)
		}
	}

	review, err := h.Pins.Changes()
	if err != nil {
		t.Fatal(err)
	}
	if len(review) != 1 || review[0].Server != "rug" || review[0].Tool != "weather" ||
		!strings.Contains(review[0].Old, "Get the weather forecast") || strings.Contains(review[0].Old, "IMPORTANT") || !strings.Contains(review[0].New, "<IMPORTANT>") {
		t.Fatalf("changes = %+v; want rug/weather with the old and the poisoned description", review)
	}

	if _, _, err := h.Pins.Trust("rug__weather", ""); err != nil {
		t.Fatal(err)
	}
	call, offered = turn("Rome")
	if call.Status != chat.CallDone || !strings.Contains(string(call.Result), "sunny in Rome") || !slices.Contains(offered, "rug__weather") {
		t.Fatalf("after trust: call = %+v, offered %v; want it offered and answering", call, offered)
	}
}
