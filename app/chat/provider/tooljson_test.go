package provider_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"

	"github.com/switchboard-app/switchboard/app/chat/provider"
)

// TestToolsAsTheSDKWritesThem checks a tool built from its schema's kept
// JSON (OpenAITool) is sent byte for byte as the SDK writes the same tool
// from the schema's map, for every real and hostile schema in each dialect
// an OpenAI-compatible server may take, with names and descriptions that
// need escaping.
func TestToolsAsTheSDKWritesThem(t *testing.T) {
	real, hostile := loadCases(t)
	texts := []struct{ name, description string }{
		{"files__read_file", "Read a file <b>as text</b> & say \"why\"."},
		{"ünï__cödé", ""},
		{"x\u2028y", "line\u2028separator, \x01 control, invalid \xff UTF-8, tab\t"},
	}
	// sdk is the tool as the SDK writes it in a request body (what the
	// params' MarshalJSON returns), its bytes as they are.
	sdk := func(tool openai.ChatCompletionToolUnionParam) []byte {
		t.Helper()
		b, err := openai.ChatCompletionNewParams{Model: "m", Tools: []openai.ChatCompletionToolUnionParam{tool}}.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		var body struct{ Tools []json.RawMessage }
		if err := json.Unmarshal(b, &body); err != nil || len(body.Tools) != 1 {
			t.Fatalf("%s: %v", b, err)
		}
		return body.Tools[0]
	}
	n := 0
	for _, d := range []provider.Dialect{provider.DialectOpenAI, provider.DialectLocal, provider.DialectGemini} {
		for i, c := range append(real, hostile...) {
			tx := texts[i%len(texts)]
			fn := shared.FunctionDefinitionParam{Name: tx.name, Parameters: provider.ToolSchema(c.Schema, d)}
			if tx.description != "" {
				fn.Description = openai.String(tx.description)
			}
			want := sdk(openai.ChatCompletionFunctionTool(fn))
			got := provider.OpenAITool(tx.name, tx.description, provider.ToolSchemaJSON(c.Schema, d))
			if !bytes.Equal(got, want) {
				t.Fatalf("%s in dialect %s:\n got %.600s\nwant %.600s", c.Name, d, got, want)
			}
			n++
		}
	}
	if n < 900 {
		t.Errorf("compared %d tools, want the corpus's 300+ in three dialects", n)
	}
}

// benchChat is the request of the benchmarks below: 40 tools of real
// servers (the count above which tool search starts) and a chat of 100
// messages (25 rounds of a question, a call, its 600-byte result and an
// answer).
func benchChat(b *testing.B) ([]provider.Tool, []provider.Message) {
	raw, err := os.ReadFile(realSchemas)
	if err != nil {
		b.Fatal(err)
	}
	var tools []provider.Tool
	if err := json.Unmarshal(raw, &tools); err != nil {
		b.Fatal(err)
	}
	long := []provider.Message{{Role: provider.RoleUser, Text: "hello"}}
	for i := range 25 {
		id := fmt.Sprintf("call_%d", i)
		long = append(long,
			provider.Message{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: id, Name: tools[i].Name, Arguments: json.RawMessage(`{"path":"notes/today.md","limit":20}`)}}},
			provider.Message{Role: provider.RoleTool, ToolCallID: id, ToolName: tools[i].Name, Text: strings.Repeat("line of a result <with> \"quotes\"\n", 20)},
			provider.Message{Role: provider.RoleAssistant, Text: "Here is what the file says, in short: it lists the day's work."},
			provider.Message{Role: provider.RoleUser, Text: fmt.Sprintf("And the next one, number %d?", i)},
		)
	}
	return tools[:40], long[:100]
}

// BenchmarkRequestBody times what a step spends building its request
// (benchChat's, with its first message or all 100) for each wire: the
// provider's request, written and sent to a local server that answers one
// word.
func BenchmarkRequestBody(b *testing.B) {
	tools, long := benchChat(b)
	answers := map[provider.Kind]string{
		provider.KindOpenAI: "data: {\"id\":\"1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n",
		provider.KindAnthropic: "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"m\",\"content\":[],\"usage\":{\"input_tokens\":1,\"output_tokens\":0}}}\n\n" +
			"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n" +
			"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"hi\"}}\n\n" +
			"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n" +
			"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":1}}\n\n" +
			"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
		provider.KindOllama: `{"message":{"role":"assistant","content":"hi"},"done":true,"done_reason":"stop","prompt_eval_count":1,"eval_count":1}` + "\n",
	}
	for _, kind := range []provider.Kind{provider.KindOpenAI, provider.KindAnthropic, provider.KindOllama} {
		for _, msgs := range [][]provider.Message{long[:1], long} {
			b.Run(fmt.Sprintf("%s/%d-messages", kind, len(msgs)), func(b *testing.B) {
				req := provider.Request{Model: "m", System: "Be brief.", Tools: tools, Messages: msgs}
				var size atomic.Int64
				srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if r.URL.Path == "/api/show" { // Ollama's model's context length, asked once
						fmt.Fprint(w, `{"model_info":{"llama.context_length":131072}}`)
						return
					}
					var buf bytes.Buffer
					n, _ := buf.ReadFrom(r.Body)
					size.Store(n)
					w.Header().Set("Content-Type", "text/event-stream")
					fmt.Fprint(w, answers[kind])
				}))
				b.Cleanup(srv.Close)
				base := srv.URL + "/v1"
				if kind != provider.KindOpenAI {
					base = srv.URL
				}
				p, err := provider.New(provider.Config{Kind: kind, Name: "fake", BaseURL: base, APIKey: "sk-test"})
				if err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				for b.Loop() {
					if r, err := p.Stream(b.Context(), req, func(provider.Event) {}); err != nil || r.Text != "hi" {
						b.Fatalf("%+v, %v", r, err)
					}
				}
				b.ReportMetric(float64(size.Load()), "request-bytes")
			})
		}
	}
}

// BenchmarkCountTokens times an exact count on a llama.cpp server near the
// context limit, where the engine asks at every step (benchChat's request;
// a local server answering /apply-template and /tokenize at once).
func BenchmarkCountTokens(b *testing.B) {
	tools, long := benchChat(b)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		if r.URL.Path == "/apply-template" {
			fmt.Fprint(w, `{"prompt":"a prompt"}`)
			return
		}
		fmt.Fprint(w, `{"tokens":[1,2]}`)
	}))
	b.Cleanup(srv.Close)
	p, err := provider.New(provider.Config{Kind: provider.KindOpenAI, Name: "llama", BaseURL: srv.URL + "/v1"})
	if err != nil {
		b.Fatal(err)
	}
	req := provider.Request{Model: "m", System: "Be brief.", Tools: tools, Messages: long}
	b.ReportAllocs()
	for b.Loop() {
		if n, err := p.(provider.Counter).CountTokens(b.Context(), req); err != nil || n != 2 {
			b.Fatalf("%d, %v", n, err)
		}
	}
}
