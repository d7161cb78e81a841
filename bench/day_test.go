//go:build bench

package bench_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/app/webkit"
)

// dayTurns is how many turns the day of use types (BENCH_DAY_TURNS
// shortens it while working on the row; the table's row is 1,000).
func dayTurns(t *testing.T) int {
	if s := os.Getenv("BENCH_DAY_TURNS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 100 || n%50 != 0 {
			t.Fatalf("BENCH_DAY_TURNS=%q: want a multiple of 50, at least 100", s)
		}
		return n
	}
	return 1000
}

// dayReply is the fake model's answer once the tool result is in: the kind
// of Markdown a model streams (a heading, a list, a table, a code block).
const dayReply = "## What the echo said\n\nThe tool answered with **ping**, as asked. Here is how to do the same from a script:\n\n" +
	"- it takes one `message` argument\n- it returns it unchanged\n- nothing is stored\n\n" +
	"| step | what happens |\n|---|---|\n| 1 | the host sends `tools/call` |\n| 2 | the server echoes |\n\n" +
	"```python\nimport json, sys\n\ndef echo(message: str) -> str:\n    \"\"\"Return the message unchanged.\"\"\"\n    return message\n\nif __name__ == \"__main__\":\n    print(json.dumps({\"echo\": echo(sys.argv[1])}))\n```\n\n" +
	"That is all there is to it. End of reply."

// benchDay: a day of use in the real window. The automation script
// (testdata/automation/day.js) types turns into the composer as a person
// would, a new chat every 20; the fake model answers each with a call to
// server-everything's echo (its tool card) and then streamed Markdown with
// a code block. The fake model holds turn 51's and turn N+1's requests
// while the window's memory is read, so both readings are of a window at
// rest with the same turn in flight, read (as the idle row is) once the app
// has settled after the turns.
func benchDay(t *testing.T, tb *table, everything, bin string) {
	turns := dayTurns(t)
	fake, err := providertest.New("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if reqs := fake.Requests(); t.Failed() && len(reqs) > 0 {
			last := reqs[len(reqs)-1]
			if i := bytes.Index(last, []byte(`"tools":`)); i > 0 {
				last = last[:i] // the messages
			}
			t.Logf("the fake model's %d requests; the last one's messages: …%s", len(reqs), last[max(0, len(last)-3000):])
		}
		fake.Close()
	})
	fake.Enqueue(
		providertest.Reply{When: "day turn", ToolCalls: []providertest.ToolCall{{Name: "everything__echo", Arguments: `{"message":"ping"}`}}},
		providertest.Reply{When: "Echo: ping", Text: dayReply},
	)
	g := newGate(fake, 51, turns+1)
	model := httptest.NewServer(g)
	t.Cleanup(model.Close)

	dataDir := filepath.Join(t.TempDir(), "data")
	writeConfig(t, dataDir, map[string]any{
		"mcpServers": map[string]any{"everything": map[string]any{"command": everything}},
		"settings": map[string]any{"chat": map[string]any{
			"providers":       []map[string]any{{"name": "Fake", "kind": "openai", "baseUrl": model.URL + "/v1", "defaultModel": "fake-model"}},
			"defaultProvider": "Fake",
			"policies":        map[string]string{"everything__echo": "allow"},
		}},
	})
	script := automation(t, "day.js", "__TURNS__", strconv.Itoa(turns+1))
	w := startWindow(t, bin, dataDir, "SWITCHBOARD_AUTOMATION="+script)

	at := func(turn int) mem {
		t.Helper()
		select {
		case <-g.held[turn]:
		case <-w.exited:
			t.Fatalf("the app exited before turn %d:\n%s", turn, w.log())
		case <-w.failed:
			t.Fatalf("the automation script failed before turn %d:\n%s", turn, w.log())
		case <-time.After(time.Duration(turn)*2*time.Second + 90*time.Second): // the script gives up on a turn after 60 s
			t.Fatalf("turn %d was not sent in time:\n%s", turn, w.log())
		}
		// Read as the idle row reads the window: once the app, quiet again
		// after the turns, gave back what they used (its "memory settled").
		w.skipLog()
		waitIdle(t, w.app, everything, 1)
		w.await("\"memory settled\" after the turns", func(l string) bool {
			return strings.Contains(l, "memory settled") && strings.Contains(l, "after=\"chat turns\"")
		}, 60*time.Second)
		// With SWITCHBOARD_WEBKIT_MEMORY set (app/webkit; off by default),
		// the web process gives back what the turns made it use on its own
		// clock: it checks its memory every webkit.Lean.Poll (15 s), and the
		// pages its collection frees go back at the check after the one
		// that collected, so the reading waits two checks more (under
		// the automation script's 60 s for a turn). No event of the web
		// process's says when a check ran, so this is a wait, not a sync.
		if v := os.Getenv("SWITCHBOARD_WEBKIT_MEMORY"); v != "" && v != "off" {
			time.Sleep(2*webkit.Lean.Poll + time.Second)
		}
		m, parts := appMem(w.app, everything)
		t.Logf("before turn %d: %s", turn, parts)
		close(g.release[turn])
		return m
	}
	t0 := time.Now()
	after50 := at(51)
	afterAll := at(turns + 1)
	var done struct {
		Turns, MS int
		Every10   []int // ms since the first turn, at turns 10, 20, …
	}
	w.awaitReport("done", &done, 2*time.Minute)
	t.Logf("%d turns typed in %s (%s per turn, the two pauses for readings included: %s)", done.Turns, time.Duration(done.MS)*time.Millisecond,
		(time.Duration(done.MS) * time.Millisecond / time.Duration(done.Turns)).Round(time.Millisecond), time.Since(t0).Round(time.Second))
	if n := len(fake.Requests()); n < 2*(turns+1) {
		t.Fatalf("the fake model answered %d requests for %d turns (a tool call and a reply each)", n, turns+1)
	}
	// Time per turn, early and late, over two whole chats each: a turn
	// must not cost more because a thousand came before it.
	if done.Turns != turns+1 || len(done.Every10) < turns/10 {
		t.Fatalf("the script typed %d turns and timed %d tens, want %d and %d", done.Turns, len(done.Every10), turns+1, turns/10)
	}
	at10 := func(turn int) time.Duration {
		if turn == 0 {
			return 0
		}
		return time.Duration(done.Every10[turn/10-1]) * time.Millisecond
	}
	early, late := at10(40)-at10(0), at10(turns)-at10(turns-40)
	tb.dur(fmt.Sprintf("a day of use: time per turn in the window (typed, tool call, streamed reply shown), turns %d–%d vs turns 1–40 (two whole chats each)", turns-39, turns),
		late/40, early/40, "")
	tb.add(fmt.Sprintf("a day of use: window PSS (Go + WebKit processes) after %d chat turns vs after 50 (typed in the real window; each a tool card and streamed Markdown with a code block; a new chat every 20 turns)", turns),
		afterAll.String(), after50.String(), float64(afterAll.pss)/float64(after50.pss), "≤ 1.15×")
}

// benchShow: a chat of 1,000 stored messages vs one of 10, opened from the
// chat list in the real window (testdata/automation/show.js): time from the
// click until the last message is on screen, median of 7 after a warm-up.
func benchShow(t *testing.T, tb *table, bin string) {
	dataDir := filepath.Join(t.TempDir(), "data")
	writeConfig(t, dataDir, map[string]any{"mcpServers": map[string]any{}, "settings": map[string]any{"chat": map[string]any{
		"providers":       []map[string]any{{"name": "Fake", "kind": "openai", "baseUrl": "http://127.0.0.1:9/v1", "defaultModel": "fake-model"}},
		"defaultProvider": "Fake",
	}}})
	seedChat(t, filepath.Join(dataDir, "history.db"), "Long chat", 1000)
	seedChat(t, filepath.Join(dataDir, "history.db"), "Short chat", 10)
	const runs = 7
	w := startWindow(t, bin, dataDir, "SWITCHBOARD_AUTOMATION="+automation(t, "show.js", "__RUNS__", strconv.Itoa(runs)))
	var ms struct{ Long, Short []float64 }
	w.awaitReport("done", &ms, 2*time.Minute)
	if len(ms.Long) != runs || len(ms.Short) != runs {
		t.Fatalf("the script timed %d and %d opens, want %d of each", len(ms.Long), len(ms.Short), runs)
	}
	times := map[string][]time.Duration{}
	for kind, xs := range map[string][]float64{"long": ms.Long, "short": ms.Short} {
		for _, x := range xs {
			times[kind] = append(times[kind], time.Duration(x*float64(time.Millisecond)))
		}
		slices.Sort(times[kind])
	}
	t.Logf("open to last message shown: 1,000 messages %v; 10 messages %v", times["long"], times["short"])
	tb.dur("time to show a chat in the window, click to its last message on screen: 1,000 messages vs 10 (virtualised, opened at its last page)",
		median(times["long"]), median(times["short"]), "≤ 2×")
}

// gate passes requests to the fake model, holding the first request of
// each listed turn ("day turn N." in its last user message) until released.
type gate struct {
	fake    http.Handler
	held    map[int]chan struct{} // closed when turn N's request arrives
	release map[int]chan struct{} // closed by the bench to let it through

	mu sync.Mutex // guards closing held
}

func newGate(fake http.Handler, turns ...int) *gate {
	g := &gate{fake: fake, held: map[int]chan struct{}{}, release: map[int]chan struct{}{}}
	for _, n := range turns {
		g.held[n], g.release[n] = make(chan struct{}), make(chan struct{})
	}
	return g
}

var dayTurn = regexp.MustCompile(`day turn (\d+)\.`)

func (g *gate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/chat/completions") {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		var req struct{ Messages []json.RawMessage }
		_ = json.Unmarshal(body, &req)
		var wait chan struct{}
		if len(req.Messages) > 0 {
			last := req.Messages[len(req.Messages)-1]
			var m struct{ Role string }
			_ = json.Unmarshal(last, &m)
			if turn := dayTurn.FindSubmatch(last); m.Role == "user" && turn != nil {
				n, _ := strconv.Atoi(string(turn[1]))
				g.mu.Lock()
				if held, ok := g.held[n]; ok {
					select {
					case <-held: // held once already: a retry goes through
					default:
						close(held)
						wait = g.release[n]
					}
				}
				g.mu.Unlock()
			}
		}
		if wait != nil {
			select {
			case <-wait:
			case <-r.Context().Done():
				return
			}
		}
	}
	g.fake.ServeHTTP(w, r)
}

// writeConfig writes dataDir/config.json.
func writeConfig(t *testing.T, dataDir string, cfg map[string]any) {
	t.Helper()
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		t.Fatal(err)
	}
	b, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dataDir, "config.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// automation writes testdata/automation/NAME with placeholder replaced by
// value to a temporary file, for SWITCHBOARD_AUTOMATION.
func automation(t *testing.T, name, placeholder, value string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "automation", name))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, bytes.ReplaceAll(b, []byte(placeholder), []byte(value)), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// seedChat stores a chat of n messages with the long-chat e2e's seeder
// (app/history/testdata/seedchat): "Message i of TITLE:" starts each.
func seedChat(t *testing.T, db, title string, n int) {
	t.Helper()
	cmd := exec.Command("go", "run", "./app/history/testdata/seedchat", "-db", db, "-title", title, "-messages", strconv.Itoa(n))
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("seed %s: %v\n%s", title, err, out)
	}
}
