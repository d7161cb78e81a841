//go:build llama && bench

// The prompt cache's row of 'make bench' (make bench-llama runs it beside
// the local model's rows): a 10-turn chat with tools through the engine,
// each request also read by the built-in runtime (llama-server started by
// localmodel.Start as the app starts it, on a Qwen3-0.6B-shaped model with
// random Q4_0 weights), which says in its timings how many prompt tokens
// it processed and how many it took from its cache.
//
//	make bench-llama
package chat_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/app/history"
	"github.com/switchboard-app/switchboard/app/localmodel"
	"github.com/switchboard-app/switchboard/app/localmodel/gguf"
	"github.com/switchboard-app/switchboard/app/localmodel/testmodel"
)

// cacheRead is one request as llama-server processed it.
type cacheRead struct {
	promptN, cacheN int           // prompt tokens processed, and taken from the cache
	firstToken      time.Duration // request sent → first streamed token
}

// TestBenchTableLlamaCache: random weights cannot call tools, so the
// engine's requests go to a proxy that has llama-server read each one as
// sent (its messages and tools; the answer cut to a few tokens) and then
// answers with the scripted turn (a call to echo, then a reply) from the
// fake model. What a turn adds is the growth of the prompt from the last
// request of the turn before; what llama-server processed is its own
// timings.prompt_n over the turn's requests (the rest it read from its
// cache: timings.cache_n). The two agree when the engine keeps the
// requests' prefix byte-stable and the server reuses its cache.
func TestBenchTableLlamaCache(t *testing.T) {
	bin, src := os.Getenv("SWITCHBOARD_LLAMA_SERVER"), os.Getenv("SWITCHBOARD_LLAMA_SRC")
	if bin == "" || src == "" {
		t.Fatal("SWITCHBOARD_LLAMA_SERVER and SWITCHBOARD_LLAMA_SRC must be set: run 'make bench-llama'")
	}
	load, _ := os.ReadFile("/proc/loadavg")
	shape := testmodel.Qwen3_06B
	model := filepath.Join(t.TempDir(), shape.Name+".gguf")
	if err := testmodel.WriteType(model, src, shape, 1, gguf.Q4_0); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(t.TempDir(), "llama-server.log")
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Minute)
	defer cancel()
	const window = 8192
	srv, err := localmodel.Start(ctx, localmodel.Options{Binary: bin, Model: model, Alias: shape.Name, Context: window, Threads: runtime.NumCPU(), LogPath: log})
	if err != nil {
		out, _ := os.ReadFile(log)
		t.Fatalf("start: %v\n%s", err, out)
	}
	t.Cleanup(func() {
		_ = srv.Close(context.Background())
		if t.Failed() {
			out, _ := os.ReadFile(log)
			t.Logf("llama-server's log (end):\n%s", out[max(0, len(out)-4000):])
		}
	})

	f := newFixture(t, provider.KindOpenAI, nil)
	var mu sync.Mutex
	var reads []cacheRead
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if strings.HasSuffix(r.URL.Path, "/chat/completions") {
			cr, err := readOnLlama(r.Context(), srv, body)
			if err != nil {
				http.Error(w, "llama-server: "+err.Error(), http.StatusBadGateway)
				return
			}
			mu.Lock()
			reads = append(reads, cr)
			mu.Unlock()
		}
		req, _ := http.NewRequestWithContext(r.Context(), r.Method, f.llm.BaseURL()+r.URL.Path, bytes.NewReader(body))
		req.Header = r.Header.Clone()
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer res.Body.Close()
		for k, v := range res.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(res.StatusCode)
		_, _ = io.Copy(flushWriter{w}, res.Body)
	}))
	t.Cleanup(proxy.Close)
	f.p, err = provider.New(provider.Config{Kind: provider.KindOpenAI, Name: "local", BaseURL: proxy.URL + "/v1", APIKey: "sk-test"})
	if err != nil {
		t.Fatal(err)
	}

	const turns = 10
	result := strings.Repeat("a line the tool returned, ", 12) // ~80 tokens a result
	var perTurn [][]cacheRead
	for i := range turns {
		f.llm.Enqueue(
			providertest.Reply{ToolCalls: []providertest.ToolCall{call(fmt.Sprintf("c%d", i), "files__echo", fmt.Sprintf(`{"text":"turn %d: %s"}`, i+1, result))}},
			providertest.Reply{Text: fmt.Sprintf("Turn %d is done: the tool said what it was asked to say.", i+1)},
		)
		before := len(reads)
		res, err := f.send(ctx, fmt.Sprintf("Question %d: echo the line for this turn, then say it is done.", i+1), func(tu *chat.Turn) { tu.ContextWindow = window })
		if err != nil || res.Message.Status != history.StatusComplete {
			t.Fatalf("turn %d: %v %s", i+1, err, res.Message.Error)
		}
		mu.Lock()
		perTurn = append(perTurn, append([]cacheRead(nil), reads[before:]...))
		mu.Unlock()
	}

	// Per turn: tokens processed against the prompt's growth since the
	// last request of the turn before.
	var processed, added, worst float64
	var lines []string
	prevTotal := 0
	for i, rs := range perTurn {
		p := 0
		for _, r := range rs {
			p += r.promptN
		}
		last := rs[len(rs)-1]
		total := last.promptN + last.cacheN
		grew := total - prevTotal
		lines = append(lines, fmt.Sprintf("turn %d: %d requests, processed %d, prompt %d (grew %d)", i+1, len(rs), p, total, grew))
		if i > 0 { // turn 1 reads the system prompt and tools once
			processed += float64(p)
			added += float64(grew)
			worst = max(worst, float64(p)/float64(grew))
		}
		prevTotal = total
	}
	t.Log(strings.Join(lines, "\n"))
	t2, t10 := perTurn[1][0].firstToken, perTurn[turns-1][0].firstToken
	label := fmt.Sprintf("local model, %s shape (Q4_0, random weights), %d threads, a %d-turn chat with a tool call a turn through the engine", shape.Name, runtime.NumCPU(), turns)
	rows := [][5]string{
		{label + ": prompt tokens llama-server processed (its timings.prompt_n) vs tokens the turns added, turns 2–10 (worst turn " + fmt.Sprintf("%.2f×", worst) + ")",
			fmt.Sprintf("%.0f", processed), fmt.Sprintf("%.0f", added), fmt.Sprintf("%.2f×", processed/added), "≤ 1.3×"},
		{label + fmt.Sprintf(": first token of turn 10 (prompt %d tokens) vs turn 2 (%d)", perTurn[turns-1][0].promptN+perTurn[turns-1][0].cacheN, perTurn[1][0].promptN+perTurn[1][0].cacheN),
			secs(t10.Seconds()), secs(t2.Seconds()), fmt.Sprintf("%.2f×", t10.Seconds()/t2.Seconds()), "reported"},
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n| measure | switchboard | baseline | ratio | target |\n|---|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", r[0], r[1], r[2], r[3], r[4])
	}
	fmt.Fprintf(&b, "\nprompt cache rows: load average at the start %s; %s/%s, %d CPUs, %s\n",
		strings.Join(strings.Fields(string(load))[:3], " "), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version())
	fmt.Print(b.String())
	if path := os.Getenv("BENCH_OUT"); path != "" {
		out, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		defer out.Close()
		if _, err := out.WriteString(b.String()); err != nil {
			t.Fatal(err)
		}
	}
	if processed/added > 1.3 {
		t.Errorf("llama-server processed %.2f× the tokens the turns added: its cache was not reused (see the turns above)", processed/added)
	}
}

// readOnLlama has llama-server read the engine's request body as sent
// (messages, tools; the answer cut to 4 tokens), streamed, and returns
// its timings and the time to the first token.
func readOnLlama(ctx context.Context, srv *localmodel.Server, body []byte) (cacheRead, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		return cacheRead{}, err
	}
	m["model"], _ = json.Marshal(srv.Model())
	m["max_tokens"] = json.RawMessage("4")
	m["stream"] = json.RawMessage("true")
	delete(m, "max_completion_tokens")
	b, _ := json.Marshal(m)
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.BaseURL()+"/chat/completions", bytes.NewReader(b))
	req.Header.Set("Authorization", "Bearer "+srv.APIKey())
	req.Header.Set("Content-Type", "application/json")
	start := time.Now()
	res, err := srv.HTTPClient().Do(req)
	if err != nil {
		return cacheRead{}, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(res.Body, 4096))
		return cacheRead{}, fmt.Errorf("%s: %s", res.Status, msg)
	}
	var cr cacheRead
	got := false
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok || data == "[DONE]" {
			continue
		}
		var chunk struct {
			Choices []struct {
				Delta json.RawMessage `json:"delta"`
			} `json:"choices"`
			Timings *struct {
				PromptN int `json:"prompt_n"`
				CacheN  int `json:"cache_n"`
			} `json:"timings"`
		}
		if err := json.Unmarshal([]byte(data), &chunk); err != nil {
			return cacheRead{}, err
		}
		if cr.firstToken == 0 && len(chunk.Choices) > 0 && len(chunk.Choices[0].Delta) > 2 {
			cr.firstToken = time.Since(start)
		}
		if chunk.Timings != nil {
			cr.promptN, cr.cacheN, got = chunk.Timings.PromptN, chunk.Timings.CacheN, true
		}
	}
	if err := sc.Err(); err != nil {
		return cacheRead{}, err
	}
	if !got {
		return cacheRead{}, fmt.Errorf("no timings in the stream")
	}
	return cr, nil
}

// flushWriter flushes each write, so the engine sees the fake's stream as
// it comes.
type flushWriter struct{ w http.ResponseWriter }

func (f flushWriter) Write(p []byte) (int, error) {
	n, err := f.w.Write(p)
	if fl, ok := f.w.(http.Flusher); ok {
		fl.Flush()
	}
	return n, err
}

func secs(s float64) string { return fmt.Sprintf("%.2fs", s) }
