//go:build bench

package chat_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/app/history"
)

// seedLong writes a chat of n messages: user questions and answers, every
// fourth answer with a tool call and its 2 KB result, as a real chat has.
func seedLong(t *testing.T, hist *history.Store, n int) string {
	t.Helper()
	c, err := hist.CreateChat(t.Context(), history.Chat{Title: fmt.Sprintf("%d messages", n)})
	if err != nil {
		t.Fatal(err)
	}
	result := `{"content":[{"type":"text","text":"` + strings.Repeat("a line of a tool's result, as JSON text\\n", 50) + `"}]}`
	for i := range n {
		m := history.Message{ChatID: c.ID, Role: history.RoleUser, Text: fmt.Sprintf("Question %d: what does the file say about item %d?", i, i)}
		if i%2 == 1 {
			m = history.Message{ChatID: c.ID, Role: history.RoleAssistant, Model: "m1", Text: fmt.Sprintf("Item %d is described on line %d of the file.", i, i)}
			if i%4 == 1 {
				m.ToolCalls = []history.ToolCall{{ID: fmt.Sprintf("c%d", i), Tool: "files__echo", Server: "files", Arguments: []byte(`{"text":"x"}`), Result: []byte(result), Status: history.CallDone}}
			}
		}
		if _, err := hist.AppendMessage(t.Context(), m); err != nil {
			t.Fatal(err)
		}
	}
	return c.ID
}

// TestBenchTableLongChat is the long-chat rows of 'make bench': host time
// per step at message 1,000 against message 10 (the model answers at once,
// so the step is the host's own work plus one local request), and what one
// compaction of the 1,000-message chat costs.
func TestBenchTableLongChat(t *testing.T) {
	ctx := t.Context()
	hist, err := history.Open(ctx, filepath.Join(t.TempDir(), "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { hist.Close() })
	llm := providertest.NewServer(t)
	p, err := provider.New(provider.Config{Kind: provider.KindOpenAI, Name: "fake", BaseURL: llm.URL(provider.KindOpenAI), APIKey: "sk-test"})
	if err != nil {
		t.Fatal(err)
	}
	eng := chat.New(chat.Options{Tools: testServer(t, nil), History: hist, Approver: chat.ApproveAll{}})
	long, short := seedLong(t, hist, 1000), seedLong(t, hist, 10)
	anthropic, err := provider.New(provider.Config{Kind: provider.KindAnthropic, Name: "fake", BaseURL: llm.URL(provider.KindAnthropic), APIKey: "sk-test"})
	if err != nil {
		t.Fatal(err)
	}
	turnOn := func(p provider.Provider, chatID string, contextSize int) time.Duration {
		llm.Enqueue(providertest.Reply{Text: "Item 7 is on line 7."})
		start := time.Now()
		res, err := eng.Send(ctx, chat.Turn{ChatID: chatID, Provider: p, Model: "m1", Text: "And item 7?", ContextWindow: contextSize, OnEvent: func(chat.Event) {}})
		took := time.Since(start)
		if err != nil || res.Steps != 1 {
			t.Fatalf("turn: %v, %d steps", err, res.Steps)
		}
		return took
	}
	turn := func(chatID string, contextSize int) time.Duration { return turnOn(p, chatID, contextSize) }
	// A model of 32k tokens: the long chat is summarised at its first turn
	// (not counted, like each chat's first read), then its steps send what
	// fits the window, as the short chat's do.
	const rounds, contextSize = 60, 32_000
	llm.Enqueue(providertest.Reply{When: "Write the summary now.", Text: "Notes: the user asked about many items; each is on its line of the file."})
	var atLong, atShort []time.Duration
	for i := range rounds + 5 {
		l, s := turn(long, contextSize), turn(short, contextSize)
		if i >= 5 { // the first turns load each chat once, compact the long one and warm connections
			atLong, atShort = append(atLong, l), append(atShort, s)
		}
	}
	// The same 1,000 messages with a window they all fit in: every step
	// sends them all, and the SDK's JSON encoding of the request grows
	// with it (reported, not a target).
	grown := seedLong(t, hist, 1000)
	var atGrown []time.Duration
	for i := range 15 {
		if g := turn(grown, 1_000_000); i >= 5 {
			atGrown = append(atGrown, g)
		}
	}
	grownKB := len(llm.Requests()[len(llm.Requests())-1]) >> 10
	// The same on the Anthropic Messages wire, whose request the provider
	// writes apart from the OpenAI-compatible one.
	grownA := seedLong(t, hist, 1000)
	var atGrownA []time.Duration
	for i := range 15 {
		if g := turnOn(anthropic, grownA, 1_000_000); i >= 5 {
			atGrownA = append(atGrownA, g)
		}
	}
	grownAKB := len(llm.Requests()[len(llm.Requests())-1]) >> 10
	p50 := func(d []time.Duration) time.Duration {
		s := slices.Clone(d)
		slices.Sort(s)
		return s[len(s)/2]
	}
	l, s := p50(atLong), p50(atShort)

	// One compaction of the long chat, by a model of 32k tokens: the
	// summary is written in pieces that fit its window.
	before := len(llm.Requests())
	start := time.Now()
	if err := eng.Compact(ctx, chat.Turn{ChatID: grown, Provider: p, Model: "m1", ContextWindow: 32_000, OnEvent: func(chat.Event) {}}); err != nil {
		t.Fatal(err)
	}
	compact := time.Since(start)
	pieces := len(llm.Requests()) - before
	after := turn(grown, 32_000)

	var out strings.Builder
	fmt.Fprintf(&out, "\n| measure | switchboard | baseline | ratio | target |\n|---|---|---|---|---|\n")
	fmt.Fprintf(&out, "| chat step p50 at message 1,000 vs message 10, 32k-token model (history read once per chat, then kept; the long chat summarised at its first turn) | %s | %s | %.2f× | ≤ 1.2× |\n",
		l.Round(time.Microsecond), s.Round(time.Microsecond), float64(l)/float64(s))
	fmt.Fprintf(&out, "| the same step when all 1,000 messages fit the window and are sent (request ~%d KB, written whole at every step) | %s | %s | %.2f× | reported |\n",
		grownKB, p50(atGrown).Round(time.Microsecond), s.Round(time.Microsecond), float64(p50(atGrown))/float64(s))
	fmt.Fprintf(&out, "| the same on the Anthropic Messages wire (request ~%d KB) | %s | %s | %.2f× | reported |\n",
		grownAKB, p50(atGrownA).Round(time.Microsecond), s.Round(time.Microsecond), float64(p50(atGrownA))/float64(s))
	fmt.Fprintf(&out, "| compacting a 1,000-message chat for a 32k-token model (%d summary requests to a local fake model), then the next step | %s | %s (step) | – | reported |\n",
		pieces, compact.Round(time.Millisecond), after.Round(time.Microsecond))
	fmt.Fprintf(&out, "\nlong chat rows: %d rounds; %s/%s, %d CPUs, %s\n", rounds, runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version())
	fmt.Print(out.String())
	if f := float64(l) / float64(s); f > 1.2 {
		t.Errorf("a step at message 1,000 takes %.2f× as long as at message 10", f)
	}
	if path := os.Getenv("BENCH_OUT"); path != "" {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteString(out.String()); err != nil {
			t.Fatal(err)
		}
	}
}
