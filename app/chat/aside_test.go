package chat_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/app/history"
	"github.com/switchboard-app/switchboard/mcpmanager"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
)

// fsServer is the real filesystem server serving a folder of its own.
func fsServer(t *testing.T) (*mcpmanager.Manager, string) {
	t.Helper()
	dir := t.TempDir()
	m := mcpmanager.New(mcpmanager.Options{})
	m.Apply([]mcpmanager.ServerConfig{{Name: "fs", Command: proctest.NPM(t, "mcp-server-filesystem"), Args: []string{dir}}})
	t.Cleanup(func() { m.Close(context.Background()) })
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	m.WaitSettled(ctx)
	return m, dir
}

// fsFixture is a chat over m's tools, keeping long results in store (nil:
// none).
func fsFixture(t *testing.T, m *mcpmanager.Manager, store chat.ResultStore) *fixture {
	t.Helper()
	f := &fixture{appr: &approver{answer: chat.ApproveOnce}}
	var err error
	if f.hist, err = history.Open(t.Context(), filepath.Join(t.TempDir(), "history.db")); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.hist.Close() })
	f.llm = providertest.NewServer(t)
	f.llm.SetModelList([]providertest.Model{{ID: "m1", ContextWindow: 100_000}}) // the turns set theirs
	if f.p, err = provider.New(provider.Config{Kind: provider.KindOpenAI, Name: "fake", BaseURL: f.llm.URL(provider.KindOpenAI), APIKey: "sk-test"}); err != nil {
		t.Fatal(err)
	}
	f.eng = chat.New(chat.Options{Tools: m.Router(), History: f.hist, Approver: f.appr, Results: store})
	if f.chat, err = f.hist.CreateChat(t.Context(), history.Chat{Title: "files"}); err != nil {
		t.Fatal(err)
	}
	return f
}

// readCalls writes n files of about 1,000 characters (each under its
// budget: none is capped) and returns the calls reading them, with IDs
// prefix0, prefix1… .
func readCalls(t *testing.T, dir, prefix string, n int) []providertest.ToolCall {
	t.Helper()
	var calls []providertest.ToolCall
	for i := range n {
		path := filepath.Join(dir, fmt.Sprintf("%s-%s%02d.txt", strings.ReplaceAll(t.Name(), "/", "-"), prefix, i))
		if err := os.WriteFile(path, []byte(fmt.Sprintf("FILE-%02d ", i)+strings.Repeat("some file text ", 70)), 0o600); err != nil {
			t.Fatal(err)
		}
		calls = append(calls, call(fmt.Sprintf("%s%d", prefix, i), "fs__read_text_file", fmt.Sprintf(`{"path":%q}`, path)))
	}
	return calls
}

// sentRequest is one request the fake model got: its tool results' texts and
// the names of the tools it offered.
type sentRequest struct {
	results []string
	tools   []string
}

func parseRequest(t *testing.T, body []byte) sentRequest {
	t.Helper()
	var req struct {
		Messages []struct {
			Role    string `json:"role"`
			Content any    `json:"content"`
		} `json:"messages"`
		Tools []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	var s sentRequest
	for _, m := range req.Messages {
		if text, _ := m.Content.(string); m.Role == "tool" {
			s.results = append(s.results, text)
		}
	}
	for _, tl := range req.Tools {
		s.tools = append(s.tools, tl.Function.Name)
	}
	return s
}

// Stubs as the model reads them: of a result it never saw (set aside),
// with the handle that reads it, and of one it saw.
var (
	asideStub  = regexp.MustCompile(`^\[result of fs__read_text_file, \d+ characters, left out to save context before you saw it; the tool ran already: do not call it again`)
	handleStub = regexp.MustCompile(`read_result with id "([^"]+)" reads it\]$`)
	againStub  = regexp.MustCompile(`^\[earlier result of fs__read_text_file, \d+ characters, left out to save context; call the tool again if you need it\]$`)
)

// TestResultsTheModelNeverSawAreSetAside: a result stubbed before the
// model ever saw it (the turn's own results on a small window; a step a
// turn ended after) is kept for read_result, and its stub says that the
// tool ran already and not to call it again, naming the handle: not
// "call the tool again", which would have the model run a tool that may
// delete, send or pay a second time only to see what it did. A result the
// model saw keeps that wording. The stored result records it.
func TestResultsTheModelNeverSawAreSetAside(t *testing.T) {
	m, dir := fsServer(t)
	type turn struct {
		window, files, maxSteps int
		read                    bool // the model reads the first result with read_result
	}
	for _, tc := range []struct {
		name                 string
		store                bool
		turns                []turn
		aside, handle, again bool // stubs of each kind in the last request
	}{
		// The results the model saw whole, and then read_result's, are stubbed as seen ones.
		{"the turn's own results, kept aside and read back", true, []turn{{window: 3000, files: 10, read: true}}, true, true, true},
		{"without a store: said, not kept", false, []turn{{window: 3000, files: 10}}, true, false, false},
		// Turn 2's first request has turn 1's results whole; its next, over the limit, stubs them.
		{"results the model saw keep their wording", true, []turn{{window: 100_000, files: 10}, {window: 4500, files: 4}}, false, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store := &memResults{}
			var rs chat.ResultStore
			if tc.store {
				rs = store
			}
			f := fsFixture(t, m, rs)
			var res chat.Result
			for ti, tu := range tc.turns {
				if tu.files > 0 {
					f.llm.Enqueue(providertest.Reply{ToolCalls: readCalls(t, dir, fmt.Sprintf("t%dc", ti), tu.files)})
				}
				if tu.read {
					f.llm.Enqueue(providertest.Reply{ToolCalls: []providertest.ToolCall{call("r1", chat.ReadResultName, fmt.Sprintf(`{"id":%q}`, f.chat.ID+":t0c0"))}})
				}
				if tu.maxSteps == 0 {
					f.llm.Enqueue(providertest.Reply{Text: "answered"})
				}
				var err error
				res, err = f.send(t.Context(), "QUESTION: read them all", func(t *chat.Turn) {
					t.ContextWindow, t.MaxSteps, t.Tools = tu.window, tu.maxSteps, chat.ToolsDirect
				})
				if err != nil {
					t.Fatalf("%v %s", err, res.Message.Error)
				}
			}
			reqs := f.llm.Requests()
			last := parseRequest(t, reqs[len(reqs)-1])
			var aside, handle, again int
			for _, text := range last.results {
				switch {
				case asideStub.MatchString(text):
					aside++
					if h := handleStub.FindStringSubmatch(text); h != nil {
						handle++
						if got := store.text(f.chat.ID); len(got) == 0 {
							t.Errorf("the stub names %s, but nothing is kept", h[1])
						}
					}
				case againStub.MatchString(text):
					again++
				case strings.Contains(text, "left out to save context"):
					t.Errorf("a stub of neither kind: %s", text)
				}
			}
			t.Logf("%d stubs set aside (%d with a handle), %d to call again, of %d results", aside, handle, again, len(last.results))
			if aside > 0 != tc.aside || (handle > 0) != tc.handle || handle > 0 && handle != aside || again > 0 != tc.again {
				t.Fatalf("set aside %d (with a handle %d), to call again %d; want set aside %v, handles %v, to call again %v",
					aside, handle, again, tc.aside, tc.handle, tc.again)
			}
			// The history records each result set aside (what another engine
			// reads back: TestSetAsideRecordsAStoredResult), and only those.
			msgs, err := f.hist.Messages(t.Context(), f.chat.ID)
			if err != nil {
				t.Fatal(err)
			}
			records := 0
			for _, m := range msgs {
				for _, c := range m.ToolCalls {
					if strings.Contains(string(c.Result), `"io.switchboard/aside"`) {
						records++
					}
				}
			}
			if records < aside || records > 0 != tc.aside {
				t.Errorf("%d stored results record being set aside; %d stubs in the last request say so", records, aside)
			}
			if offered := slices.Contains(last.tools, chat.ReadResultName); offered != tc.handle {
				t.Errorf("read_result offered: %v, tools %v", offered, last.tools)
			}
			if tc.turns[0].read {
				r := res.ToolCalls[len(res.ToolCalls)-1]
				if r.Tool != chat.ReadResultName || r.IsError || !strings.Contains(string(r.Result), "FILE-00 some file text") {
					t.Errorf("read_result of the first file: %s %s", r.Tool, r.Result)
				}
			}
			for i, b := range reqs {
				if len(b)/4 > 3000 && i > 0 && tc.turns[0].window == 3000 {
					t.Fatalf("request %d over the window: %d tokens", i, len(b)/4)
				}
			}
		})
	}
}

// TestTheMeterCountsResultsNotSteps: one step of ten results, some of
// them stubbed: the meter says how many results (not "1 step").
func TestTheMeterCountsResultsNotSteps(t *testing.T) {
	m, dir := fsServer(t)
	f := fsFixture(t, m, &memResults{})
	f.llm.Enqueue(providertest.Reply{ToolCalls: readCalls(t, dir, "c", 10)}, providertest.Reply{Text: "answered"})
	if _, err := f.send(t.Context(), "QUESTION: read them all", func(t *chat.Turn) { t.ContextWindow, t.Tools = 3000, chat.ToolsDirect }); err != nil {
		t.Fatal(err)
	}
	stubs := 0
	for _, text := range parseRequest(t, f.llm.Requests()[1]).results {
		if strings.Contains(text, "left out to save context") {
			stubs++
		}
	}
	var v *chat.ContextView
	for _, ev := range f.events(chat.EventContext) {
		if ev.Context.TurnStubbed > 0 {
			v = ev.Context
		}
	}
	if v == nil || stubs < 2 || v.TurnStubbed != 1 || v.TurnStubbedResults != stubs {
		t.Fatalf("meter %+v; the request had %d of 10 results as stubs, of one step", v, stubs)
	}
}
