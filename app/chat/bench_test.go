//go:build bench

// The chat engine's row of 'make bench': the host's own time per model step
// with 320 active tools, against the bare provider SDK sending the same
// requests to the same fake model. Run through make (it merges the table):
//
//	make bench
//
// or alone:
//
//	go test -tags bench -run TestBenchTable -v ./app/chat/
package chat_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/anthropics/anthropic-sdk-go"
	aoption "github.com/anthropics/anthropic-sdk-go/option"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/app/history"
	"github.com/switchboard-app/switchboard/mcpmanager/pins"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// benchServers × benchToolsPerServer tools are active in every step.
const (
	benchServers        = 16
	benchToolsPerServer = 20
	benchRounds         = 150
)

// manyTools is a router of servers × perServer tools shaped like real
// ones (a sentence or two of description, a few typed properties, some
// required), half of them read-only (allowed) and half asking first. Its
// gate is the app's: the pin file (every listing and call is screened
// against it).
func manyTools(t *testing.T, servers, perServer int) *router.Router {
	t.Helper()
	reg := router.New(router.Options{Gate: pins.Open(filepath.Join(t.TempDir(), "pins.json"), pins.Options{})})
	verbs := []string{"list", "get", "create", "update", "delete", "search", "read", "write", "move", "sync"}
	nouns := []string{"issue", "file", "page", "record", "message", "branch", "ticket", "event", "note", "image"}
	for s := range servers {
		srv := server.NewMCPServer(fmt.Sprintf("svc%d", s), "1.0.0")
		for i := range perServer {
			verb, noun := verbs[i%len(verbs)], nouns[(i/2+s)%len(nouns)]
			name := fmt.Sprintf("%s_%s_%d", verb, noun, i)
			opts := []mcp.ToolOption{
				mcp.WithDescription(fmt.Sprintf("%s a %s in the %d-th workspace of service %d. Returns the %s as JSON with its id, title, "+
					"owner and timestamps; use the cursor to page through long results.", strings.ToUpper(verb[:1])+verb[1:], noun, i, s, noun)),
				mcp.WithString("id", mcp.Required(), mcp.Description("The "+noun+"'s identifier, as returned by list_"+noun)),
				mcp.WithString("cursor", mcp.Description("Opaque cursor from a previous page")),
				mcp.WithNumber("limit", mcp.Description("How many items to return (1-100)"), mcp.Min(1), mcp.Max(100)),
				mcp.WithBoolean("verbose", mcp.Description("Include every field")),
				mcp.WithReadOnlyHintAnnotation(i%2 == 0),
			}
			srv.AddTool(mcp.NewTool(name, opts...), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return mcp.NewToolResultText(`{"id":"` + req.GetString("id", "") + `","title":"a ` + noun + `","owner":"me"}`), nil
			})
		}
		addInProcess(t, reg, fmt.Sprintf("svc%d", s), srv)
	}
	return reg
}

// countingHistory counts the engine's durable writes (each one commit).
type countingHistory struct {
	*history.Store
	writes atomic.Int64
}

func (c *countingHistory) AppendMessage(ctx context.Context, m history.Message) (history.Message, error) {
	c.writes.Add(1)
	return c.Store.AppendMessage(ctx, m)
}

func (c *countingHistory) AppendMessageAfter(ctx context.Context, m history.Message, done []history.ToolCall) (history.Message, error) {
	c.writes.Add(1)
	return c.Store.AppendMessageAfter(ctx, m, done)
}

func (c *countingHistory) SaveToolCalls(ctx context.Context, calls []history.ToolCall) error {
	c.writes.Add(1)
	return c.Store.SaveToolCalls(ctx, calls)
}

func (c *countingHistory) UpdateMessage(ctx context.Context, m history.Message) error {
	c.writes.Add(1)
	return c.Store.UpdateMessage(ctx, m)
}

var foundTool = regexp.MustCompile(`- (svc\d+__\w+):`)

// firstFound runs find_tools once and returns the first tool it attached:
// the one the benchmark's turns then call.
func firstFound(t *testing.T, eng *chat.Engine, hist *history.Store, p provider.Provider, llm *providertest.Server, find providertest.Reply) string {
	t.Helper()
	llm.Reset()
	llm.Enqueue(find, providertest.Reply{Text: "ok"})
	c, err := hist.CreateChat(t.Context(), history.Chat{Title: "bench"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Send(t.Context(), chat.Turn{ChatID: c.ID, Provider: p, Model: "m1", Text: "find", OnEvent: func(chat.Event) {}}); err != nil {
		t.Fatal(err)
	}
	reqs := llm.Requests()
	m := foundTool.FindSubmatch(reqs[len(reqs)-1])
	if m == nil {
		t.Fatalf("find_tools attached nothing:\n%.2000s", reqs[len(reqs)-1])
	}
	return string(m[1])
}

// stepBench is one row's setup: an engine with the router's tools, the
// fake model, and the bare SDK on the same model.
type stepBench struct {
	hist    *history.Store
	counted *countingHistory
	eng     *chat.Engine
	p       provider.Provider
	llm     *providertest.Server
	// bare sends a request body as the bare SDK of the provider's wire
	// does, reading the answer's stream to its end.
	bare func(ctx context.Context, body []byte) error
	// searchAbove is each turn's tool search rule (chat.Turn.SearchAbove).
	searchAbove int
}

func newStepBench(t *testing.T, reg *router.Router, searchAbove int, kind provider.Kind) *stepBench {
	t.Helper()
	hist, err := history.Open(t.Context(), filepath.Join(t.TempDir(), "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { hist.Close() })
	llm := providertest.NewServer(t)
	p, err := provider.New(provider.Config{Kind: kind, Name: "fake", BaseURL: llm.URL(kind), APIKey: "sk-test"})
	if err != nil {
		t.Fatal(err)
	}
	counted := &countingHistory{Store: hist}
	return &stepBench{
		hist: hist, counted: counted, p: p, llm: llm, searchAbove: searchAbove,
		eng:  chat.New(chat.Options{Tools: reg, History: counted, Approver: &approver{answer: chat.ApproveOnce}}),
		bare: bareSDK(kind, llm.URL(kind)),
	}
}

// bareSDK sends a request body through the kind's SDK, as an app that
// wrote its own requests would, and reads the answer's stream into the
// SDK's accumulator.
func bareSDK(kind provider.Kind, url string) func(ctx context.Context, body []byte) error {
	if kind == provider.KindOllama {
		return bareOllama(url)
	}
	if kind == provider.KindAnthropic {
		c := anthropic.NewClient(aoption.WithBaseURL(url), aoption.WithAPIKey("sk-test"), aoption.WithMaxRetries(0))
		return func(ctx context.Context, body []byte) error {
			stream := c.Messages.NewStreaming(ctx, anthropic.MessageNewParams{}, aoption.WithRequestBody("application/json", body))
			defer stream.Close()
			var acc anthropic.Message
			for stream.Next() {
				if err := acc.Accumulate(stream.Current()); err != nil {
					return err
				}
			}
			return stream.Err()
		}
	}
	c := openai.NewClient(option.WithBaseURL(url), option.WithAPIKey("sk-test"), option.WithMaxRetries(0))
	return func(ctx context.Context, body []byte) error {
		stream := c.Chat.Completions.NewStreaming(ctx, openai.ChatCompletionNewParams{}, option.WithRequestBody("application/json", body))
		defer stream.Close()
		var acc openai.ChatCompletionAccumulator
		for stream.Next() {
			acc.AddChunk(stream.Current())
		}
		return stream.Err()
	}
}

// bareOllama sends a request body to Ollama's /api/chat as its Go client
// (github.com/ollama/ollama/api, v0.17) does once it has encoded the
// request, and reads the answer as that client's Chat reads it: a line at a
// time through a bufio.Scanner with an 8 MB buffer, each line decoded once
// for an error and once into the client's response type (ollamaLine, its
// fields), whose text and calls an app keeps. Not the module itself: 23 MB
// to download for one function.
func bareOllama(url string) func(ctx context.Context, body []byte) error {
	hc := &http.Client{}
	return func(ctx context.Context, body []byte) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url+"/api/chat", bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/x-ndjson")
		res, err := hc.Do(req)
		if err != nil {
			return err
		}
		defer res.Body.Close()
		scanner := bufio.NewScanner(res.Body)
		scanner.Buffer(make([]byte, 0, 8<<20), 8<<20)
		var text strings.Builder
		var calls []ollamaToolCall
		for scanner.Scan() {
			var e struct {
				Error     string `json:"error,omitempty"`
				SigninURL string `json:"signin_url,omitempty"`
			}
			if err := json.Unmarshal(scanner.Bytes(), &e); err != nil || e.Error != "" || res.StatusCode >= http.StatusBadRequest {
				return fmt.Errorf("ollama: %d %s %v", res.StatusCode, scanner.Bytes(), err)
			}
			var line ollamaLine
			if err := json.Unmarshal(scanner.Bytes(), &line); err != nil {
				return err
			}
			text.WriteString(line.Message.Content)
			calls = append(calls, line.Message.ToolCalls...)
		}
		if err := scanner.Err(); err != nil {
			return err
		}
		if text.Len() == 0 && len(calls) == 0 {
			return fmt.Errorf("ollama: an answer with neither text nor calls")
		}
		return nil
	}
}

// ollamaLine is the fields of ollama/api's ChatResponse.
type ollamaLine struct {
	Model       string    `json:"model"`
	RemoteModel string    `json:"remote_model,omitempty"`
	RemoteHost  string    `json:"remote_host,omitempty"`
	CreatedAt   time.Time `json:"created_at"`
	Message     struct {
		Role       string           `json:"role"`
		Content    string           `json:"content"`
		Thinking   string           `json:"thinking,omitempty"`
		Images     [][]byte         `json:"images,omitempty"`
		ToolCalls  []ollamaToolCall `json:"tool_calls,omitempty"`
		ToolName   string           `json:"tool_name,omitempty"`
		ToolCallID string           `json:"tool_call_id,omitempty"`
	} `json:"message"`
	Done               bool          `json:"done"`
	DoneReason         string        `json:"done_reason,omitempty"`
	TotalDuration      time.Duration `json:"total_duration,omitempty"`
	LoadDuration       time.Duration `json:"load_duration,omitempty"`
	PromptEvalCount    int           `json:"prompt_eval_count,omitempty"`
	PromptEvalDuration time.Duration `json:"prompt_eval_duration,omitempty"`
	EvalCount          int           `json:"eval_count,omitempty"`
	EvalDuration       time.Duration `json:"eval_duration,omitempty"`
}

type ollamaToolCall struct {
	ID       string `json:"id,omitempty"`
	Function struct {
		Index     int            `json:"index"`
		Name      string         `json:"name"`
		Arguments map[string]any `json:"arguments"`
	} `json:"function"`
}

// run times benchRounds turns of steps model steps each (script queues
// the model's replies), through the engine and then the same requests
// through the bare SDK; it returns each's p50 per step and the durable
// writes per step. check looks at the first turn's requests.
func (b *stepBench) run(t *testing.T, steps int, script func(), check func(reqs []json.RawMessage)) (host, bare time.Duration, writes float64) {
	t.Helper()
	ctx := t.Context()
	var hosts, bares []time.Duration
	b.counted.writes.Store(0)
	for round := range benchRounds + 5 {
		b.llm.Reset()
		script()
		c, err := b.hist.CreateChat(ctx, history.Chat{Title: "bench"})
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		res, err := b.eng.Send(ctx, chat.Turn{ChatID: c.ID, Provider: b.p, Model: "m1", SearchAbove: b.searchAbove,
			Text: "Please update ticket T-1 in service 7.", OnEvent: func(chat.Event) {}})
		took := time.Since(start)
		if err != nil {
			t.Fatal(err)
		}
		if res.Steps != steps || len(res.Message.ToolCalls) != 0 && res.Message.Text == "" {
			t.Fatalf("turn took %d steps (want %d): %+v", res.Steps, steps, res.Message)
		}
		// The same request bodies, sent by the bare SDK.
		bodies := b.llm.Requests()
		if len(bodies) != steps {
			t.Fatalf("%d model requests, want %d", len(bodies), steps)
		}
		if round == 0 {
			check(bodies)
		}
		script()
		start = time.Now()
		for _, body := range bodies {
			if err := b.bare(ctx, body); err != nil {
				t.Fatal(err)
			}
		}
		direct := time.Since(start)
		if round >= 5 { // the first rounds warm caches and connections
			hosts, bares = append(hosts, took), append(bares, direct)
		}
	}
	p50 := func(d []time.Duration) time.Duration {
		s := slices.Clone(d)
		slices.Sort(s)
		return s[len(s)/2]
	}
	return p50(hosts) / time.Duration(steps), p50(bares) / time.Duration(steps), float64(b.counted.writes.Load()) / float64((benchRounds+5)*steps)
}

func TestBenchTable(t *testing.T) {
	ctx := t.Context()
	var out strings.Builder
	fmt.Fprintf(&out, "\n| measure | switchboard | baseline | ratio | target |\n|---|---|---|---|---|\n")
	row := func(what string, h, b time.Duration, target string) {
		fmt.Fprintf(&out, "| %s | %s | %s | %.2f× (+%s) | %s |\n", what,
			h.Round(time.Microsecond), b.Round(time.Microsecond), float64(h)/float64(b), (h - b).Round(time.Microsecond), target)
	}

	// 320 tools: the model searches them. One turn is three model steps:
	// find_tools, a tool that asks first (approved), then the answer.
	// Every step writes history.
	reg := manyTools(t, benchServers, benchToolsPerServer)
	if all, _ := reg.Tools(ctx); len(all) != benchServers*benchToolsPerServer {
		t.Fatalf("%d tools active, want %d", len(all), benchServers*benchToolsPerServer)
	}
	many := newStepBench(t, reg, 0, provider.KindOpenAI)
	find := providertest.Reply{ToolCalls: []providertest.ToolCall{{Name: chat.FindToolsName, Arguments: `{"query":"update a ticket"}`}}}
	target := firstFound(t, many.eng, many.hist, many.p, many.llm, find)
	h, b, writes := many.run(t, 3, func() {
		many.llm.Enqueue(
			find,
			providertest.Reply{ToolCalls: []providertest.ToolCall{{Name: target, Arguments: `{"id":"T-1","verbose":true}`}}},
			providertest.Reply{Text: "Ticket T-1 is updated: its title is \"a ticket\" and it belongs to you."},
		)
	}, func(reqs []json.RawMessage) {
		if !strings.Contains(string(reqs[2]), `"name":"`+target+`"`) {
			t.Fatalf("the third request does not show the call of %s:\n%.3000s", target, reqs[2])
		}
	})
	row(fmt.Sprintf("chat step p50 with %d active tools (find_tools, an approved call, history writes): engine vs bare openai-go SDK, same requests, same fake model", benchServers*benchToolsPerServer), h, b, "< 2 ms added")

	// 40 tools, the most the count rule sends without a search: every
	// step sends them all. Two steps: the call (approved), the answer.
	// Once on each wire: the Anthropic Messages API's and Ollama's
	// requests and streams are written and read by other code than the
	// OpenAI-compatible one's.
	const call = "svc1__update_event_3" // asks first (odd), see manyTools
	for _, w := range []struct {
		kind          provider.Kind
		label, marker string
	}{
		{provider.KindOpenAI, "the same with %d active tools, all sent (no tool search; an approved call, history writes)", `"type":"function"`},
		{provider.KindAnthropic, "the same with %d active tools on the Anthropic Messages wire: engine vs bare anthropic-sdk-go", `"input_schema"`},
		{provider.KindOllama, "the same with %d active tools on Ollama's /api/chat wire: engine vs a bare request read as Ollama's Go client reads it", `"type":"function"`},
	} {
		few := newStepBench(t, manyTools(t, 2, benchToolsPerServer), -1, w.kind)
		// Ollama's provider sizes each request's context from the model's
		// length, which /api/show tells once.
		few.llm.SetModelList([]providertest.Model{{ID: "m1", ContextWindow: 131072}})
		h40, b40, _ := few.run(t, 2, func() {
			few.llm.Enqueue(
				providertest.Reply{ToolCalls: []providertest.ToolCall{{Name: call, Arguments: `{"id":"T-1","verbose":true}`}}},
				providertest.Reply{Text: "Ticket T-1 is updated."},
			)
		}, func(reqs []json.RawMessage) {
			if n := strings.Count(string(reqs[0]), w.marker); n != 2*benchToolsPerServer {
				t.Fatalf("the first request offers %d tools, want %d:\n%.3000s", n, 2*benchToolsPerServer, reqs[0])
			}
		})
		row(fmt.Sprintf(w.label, 2*benchToolsPerServer), h40, b40, "reported")
	}

	fmt.Fprintf(&out, "\nchat step rows: %d turns of 3 steps (320 tools) and of 2 (40, each wire), %.1f durable history writes per step; %s/%s, %d CPUs, %s\n", benchRounds, writes, runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version())
	fmt.Print(out.String())
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
