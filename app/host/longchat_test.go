package host

import (
	"context"
	"encoding/json"
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
)

// longChat is a host with its built-ins, a 6 KB notes file in the
// workspace, a history and a fake model whose window is 8,192 tokens (in
// its model list; it refuses longer requests as OpenAI does).
type longChat struct {
	h    *Host
	hist *history.Store
	llm  *providertest.Server
	eng  *chat.Engine
	turn chat.Turn
	mu   sync.Mutex
	evs  []chat.Event
}

const (
	longWindow = 8192
	// Markers the fake model's rules answer by.
	sumMark = "SUMMARY-MARK"
)

func newLongChat(t *testing.T) *longChat {
	t.Helper()
	ctx := t.Context()
	h := open(t)
	h.Servers.StartBuiltins()
	var notes strings.Builder
	for i := 1; notes.Len() < 6_000; i++ {
		fmt.Fprintf(&notes, "line %03d: the quick brown fox jumps over the lazy dog, note %d\n", i, i)
	}
	if err := os.WriteFile(filepath.Join(WorkspaceRoot(h.dir), "notes.txt"), []byte(notes.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	hist, err := h.Chats.store() // the host's, so Chats.Delete finds its chats
	if err != nil {
		t.Fatal(err)
	}
	row, err := hist.CreateChat(ctx, history.Chat{Title: "long"})
	if err != nil {
		t.Fatal(err)
	}
	llm := providertest.NewServer(t)
	llm.SetModelList([]providertest.Model{{ID: "small", ContextWindow: longWindow}})
	s := chat.Settings{Providers: []chat.ProviderSettings{{Name: "fake", Kind: provider.KindOpenAI, BaseURL: llm.URL(provider.KindOpenAI), DefaultModel: "small"}}}
	m, name, err := h.Chats.Model(s, "", "")
	if err != nil {
		t.Fatal(err)
	}
	lc := &longChat{h: h, hist: hist, llm: llm}
	lc.eng = h.Chats.newEngine(hist, chat.ApproveAll{})
	lc.turn = h.Chats.Turn(ctx, s, TurnRequest{ChatID: row.ID, Provider: name, Model: m})
	if lc.turn.ContextWindow != longWindow {
		t.Fatalf("context window %d, want %d from the model list", lc.turn.ContextWindow, longWindow)
	}
	lc.turn.OnEvent = func(ev chat.Event) {
		lc.mu.Lock()
		defer lc.mu.Unlock()
		lc.evs = append(lc.evs, ev)
	}
	return lc
}

func (lc *longChat) send(t *testing.T, text string) chat.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	tu := lc.turn
	tu.Text = text
	res, err := lc.eng.Send(ctx, tu)
	if err != nil {
		t.Fatalf("send %q: %v", text, err)
	}
	return res
}

func (lc *longChat) events(typ chat.EventType) []chat.Event {
	lc.mu.Lock()
	defer lc.mu.Unlock()
	var out []chat.Event
	for _, e := range lc.evs {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

// TestLongChatStaysWithinTheWindow: 25 turns, each reading a 6 KB file,
// with a model of 8,192 tokens. Every turn is answered, no request is over
// the window, results are capped with a handle, old results become stubs
// and the chat is summarised (a summary message in the history, the
// originals kept); the meter never shows more than the window.
func TestLongChatStaysWithinTheWindow(t *testing.T) {
	lc := newLongChat(t)
	lc.llm.Enqueue(
		providertest.Reply{When: "Write the summary now.", Text: "Notes: the user keeps asking to read notes.txt; every read worked. " + sumMark},
		providertest.Reply{When: "line 001:", Text: "Read it."},
		providertest.Reply{When: "please read notes.txt", ToolCalls: []providertest.ToolCall{{Name: "workspace__read_file", Arguments: `{"path":"notes.txt"}`}}},
		providertest.Reply{When: sumMark, Text: "Read it."},
	)
	const turns = 25
	for i := 1; i <= turns; i++ {
		// A paragraph of the user's own with each question: old results
		// shrink to stubs, the user's words do not, so the chat is
		// summarised too.
		res := lc.send(t, fmt.Sprintf("Turn %d: please read notes.txt. %s", i, strings.Repeat("Some context of mine for this turn. ", 30)))
		if res.Message.Status != history.StatusComplete || res.Message.Text != "Read it." {
			t.Fatalf("turn %d ended %s %q: %s", i, res.Message.Status, res.Message.Text, res.Message.Error)
		}
	}
	for i, b := range lc.llm.Requests() {
		if n := len(b) / 4; n > longWindow {
			t.Fatalf("request %d took %d tokens, over the window", i, n)
		}
	}
	msgs, err := lc.hist.Messages(t.Context(), lc.turn.ChatID)
	if err != nil {
		t.Fatal(err)
	}
	var summaries, users, capped int
	for _, m := range msgs {
		switch m.Role {
		case history.RoleSummary:
			summaries++
		case history.RoleUser:
			users++
		}
		for _, c := range m.ToolCalls {
			if strings.Contains(string(c.Result), chat.MetaKept) && strings.Count(string(c.Result), "line ") > 80 {
				capped++ // the whole result stays in the history, with its handle
			}
		}
	}
	if summaries == 0 || users != turns || capped != turns {
		t.Fatalf("%d summaries, %d user messages, %d capped results kept whole; want summaries, %d and %d", summaries, users, capped, turns, turns)
	}
	t.Logf("%d turns: %d model requests, %d summaries, %d messages in the history", turns, len(lc.llm.Requests()), summaries, len(msgs))
	if evs := lc.events(chat.EventMessage); !hasRole(evs, history.RoleSummary) {
		t.Fatal("no summary message event")
	}
	meters := lc.events(chat.EventContext)
	if len(meters) < turns*2 {
		t.Fatalf("%d meter events for %d turns", len(meters), turns)
	}
	for _, m := range meters {
		if v := m.Context; !v.Compacting && (v.Window != longWindow || v.Used > v.Window || v.Used <= 0) {
			t.Fatalf("meter %+v", *v)
		}
	}
	// What the model got: capped heads with their handle, and stubs for
	// older results.
	var sawCap, sawStub bool
	for _, b := range lc.llm.Requests() {
		sawCap = sawCap || strings.Contains(string(b), "[capped: showing lines 1")
		sawStub = sawStub || strings.Contains(string(b), "left out to save context")
	}
	if !sawCap || !sawStub {
		t.Fatalf("capped head seen %v, stub seen %v", sawCap, sawStub)
	}
}

func hasRole(evs []chat.Event, role string) bool {
	for _, e := range evs {
		if e.Role == role {
			return true
		}
	}
	return false
}

// TestModelReadsACappedResultOnByItsHandle: the model reads the rest of a
// capped result with read_result and the handle it was given, and
// gets the lines that follow what it saw.
func TestModelReadsACappedResultOnByItsHandle(t *testing.T) {
	lc := newLongChat(t)
	// The first turn runs alone so the test can read the handle the model
	// was given, as a model would, and script the next call with it.
	lc.llm.Enqueue(
		providertest.Reply{ToolCalls: []providertest.ToolCall{{Name: "workspace__read_file", Arguments: `{"path":"notes.txt"}`}}},
		providertest.Reply{Text: "I saw the start."},
	)
	lc.send(t, "read notes.txt")
	seen := string(lc.llm.Requests()[1])
	var head struct {
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal([]byte(seen), &head); err != nil {
		t.Fatal(err)
	}
	tool := head.Messages[len(head.Messages)-1].Content
	var shown, total, from int
	var id, read string
	i := strings.Index(tool, "[capped: showing lines 1–")
	if i < 0 {
		t.Fatalf("the result was not capped:\n%.500s", tool)
	}
	if _, err := fmt.Sscanf(strings.ReplaceAll(tool[i:], "–", " "), "[capped: showing lines 1 %d of %d", &shown, &total); err != nil {
		t.Fatalf("%v in %q", err, tool[i:])
	}
	rest := tool[i:]
	if _, err := fmt.Sscanf(rest[strings.Index(rest, "call ")+5:], "%s with id %q and fromLine %d", &read, &id, &from); err != nil {
		t.Fatalf("no handle in %q: %v", rest, err)
	}
	if strings.Contains(tool, fmt.Sprintf("line %03d:", shown+1)) || from != shown+1 || read != chat.ReadResultName {
		t.Fatalf("saw %d of %d lines, told to read %s from %d", shown, total, read, from)
	}

	lc.llm.Enqueue(
		providertest.Reply{ToolCalls: []providertest.ToolCall{{Name: read, Arguments: fmt.Sprintf(`{"id":%q,"fromLine":%d,"toLine":%d}`, id, from, from+4)}}},
		providertest.Reply{Text: "Now I have the rest."},
	)
	res := lc.send(t, "read on")
	if len(res.ToolCalls) != 1 || res.ToolCalls[0].IsError {
		t.Fatalf("read on: %+v", res.ToolCalls)
	}
	got := string(res.ToolCalls[0].Result)
	for l := from; l <= from+4; l++ {
		if !strings.Contains(got, fmt.Sprintf("line %03d:", l)) {
			t.Fatalf("line %d missing from what the model read: %.600s", l, got)
		}
	}
	if strings.Contains(got, fmt.Sprintf("line %03d:", from-1)) {
		t.Fatalf("read on repeated line %d: %.600s", from-1, got)
	}
}
