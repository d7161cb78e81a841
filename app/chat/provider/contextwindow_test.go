package provider_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
)

// TestOllamaNeverSendsARequestOverTheModelsContext: Ollama cuts a prompt
// longer than the model's context silently, so the provider refuses one
// itself, as a context-length error the engine compacts on, and sends
// nothing.
func TestOllamaNeverSendsARequestOverTheModelsContext(t *testing.T) {
	s, p := newProvider(t, provider.KindOllama)
	s.SetModelList([]providertest.Model{{ID: "m1", ContextWindow: 8192}})
	if w := provider.WindowOf(t.Context(), p, "m1"); w != 8192 {
		t.Fatalf("WindowOf = %d, want the 8192 /api/show tells", w)
	}
	s.Enqueue(providertest.Reply{Text: "never"})
	_, err := p.Stream(t.Context(), userTurn(strings.Repeat("lorem ipsum ", 3000)), nil) // ~9,000 tokens at 4 bytes
	if !errors.Is(err, provider.ErrContextLength) {
		t.Fatalf("err %v, want ErrContextLength", err)
	}
	if n := len(chatCalls(s.Calls())); n != 0 {
		t.Fatalf("%d chat requests sent; want none", n)
	}
}

// TestWindowOfALlamaCppServer: llama-server's /v1/models says nothing of
// the context it runs; its /props does (n_ctx per slot), and that is the
// window.
func TestWindowOfALlamaCppServer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/v1/models":
			fmt.Fprint(w, `{"object":"list","data":[{"id":"qwen3-4b.gguf","object":"model","owned_by":"llamacpp","meta":{"n_ctx_train":40960,"n_vocab":151936}}]}`)
		case "/props":
			fmt.Fprint(w, `{"default_generation_settings":{"n_ctx":6144,"params":{}},"total_slots":1,"model_path":"qwen3-4b.gguf"}`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	p, err := provider.New(provider.Config{Kind: provider.KindOpenAI, Name: "llama", BaseURL: srv.URL + "/v1"})
	if err != nil {
		t.Fatal(err)
	}
	if w := provider.WindowOf(t.Context(), p, "qwen3-4b.gguf"); w != 6144 {
		t.Fatalf("WindowOf = %d, want the 6144 of /props (not the 40960 it was trained on)", w)
	}
}

// TestCountTokensOnALlamaCppServer: llama-server renders the request's
// messages with the model's template (/apply-template) and tokenizes the
// prompt (/tokenize): the count is its number of tokens. A server
// without those endpoints is ErrNoCount.
func TestCountTokensOnALlamaCppServer(t *testing.T) {
	var templated map[string]json.RawMessage // what /apply-template was given
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]json.RawMessage
		_ = json.NewDecoder(r.Body).Decode(&body)
		if r.Header.Get("Authorization") != "Bearer k1" {
			http.Error(w, "no key", http.StatusUnauthorized)
			return
		}
		switch r.URL.Path {
		case "/apply-template":
			templated = body
			var msgs []struct{ Role, Content string }
			_ = json.Unmarshal(body["messages"], &msgs)
			var b strings.Builder
			for _, m := range msgs {
				fmt.Fprintf(&b, "<|im_start|>%s %s<|im_end|> ", m.Role, m.Content)
			}
			_ = json.NewEncoder(w).Encode(map[string]string{"prompt": b.String()})
		case "/tokenize":
			var content string
			var special bool // the template's special tokens counted as such
			_ = json.Unmarshal(body["content"], &content)
			_ = json.Unmarshal(body["add_special"], &special)
			if !special {
				http.Error(w, "want add_special", http.StatusBadRequest)
				return
			}
			toks := make([]int, len(strings.Fields(content)))
			_ = json.NewEncoder(w).Encode(map[string]any{"tokens": toks})
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	p, err := provider.New(provider.Config{Kind: provider.KindOpenAI, Name: "llama", BaseURL: srv.URL + "/v1", APIKey: "k1"})
	if err != nil {
		t.Fatal(err)
	}
	req := provider.Request{Model: "m", System: "be brief", Messages: []provider.Message{{Role: provider.RoleUser, Text: "one two three"}},
		Tools: []provider.Tool{{Name: "files__read_file", Description: "Read a file.", InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)}}}
	n, err := p.(provider.Counter).CountTokens(t.Context(), req)
	// "<|im_start|>system be brief<|im_end|> <|im_start|>user one two three<|im_end|>": 7 words.
	if err != nil || n != 7 {
		t.Fatalf("CountTokens = %d, %v; want the 7 tokens the server counted", n, err)
	}
	// The template renders the tools too (they take the model's context):
	// the request's, as a step sends them, and nothing else of the request.
	var tools []struct {
		Type     string
		Function struct{ Name, Description string }
	}
	if err := json.Unmarshal(templated["tools"], &tools); err != nil || len(tools) != 1 || tools[0].Type != "function" ||
		tools[0].Function.Name != "files__read_file" || tools[0].Function.Description != "Read a file." {
		t.Errorf("/apply-template was given the tools %s (%v), want the request's one", templated["tools"], err)
	}
	if len(templated) != 2 {
		t.Errorf("/apply-template was given %d members, want messages and tools", len(templated))
	}

	other := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(other.Close)
	q, _ := provider.New(provider.Config{Kind: provider.KindOpenAI, Name: "vllm", BaseURL: other.URL + "/v1"})
	if _, err := q.(provider.Counter).CountTokens(t.Context(), req); !errors.Is(err, provider.ErrNoCount) {
		t.Fatalf("a server without /apply-template: %v, want ErrNoCount", err)
	}
}

// TestCountTokensOnAnthropic: an Anthropic provider counts a request with
// the API's /v1/messages/count_tokens — the request the chat sends (system
// prompt, tools, messages), without the fields the endpoint refuses — and
// its count is the input the chat request then reports as usage. A server
// that refuses the endpoint is ErrNoCount and is not asked again.
func TestCountTokensOnAnthropic(t *testing.T) {
	s, p := newProvider(t, provider.KindAnthropic)
	req := provider.Request{
		Model: "claude-test", System: "be brief",
		Messages: []provider.Message{
			{Role: provider.RoleUser, Text: "read the notes " + strings.Repeat("lorem ipsum ", 200)},
			{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "c1", Name: "read_file", Arguments: json.RawMessage(`{"path":"notes.md"}`)}}},
			{Role: provider.RoleTool, ToolCallID: "c1", Text: strings.Repeat("a note ", 300)},
		},
		Tools: []provider.Tool{{Name: "read_file", Description: "reads a file", InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)}},
	}
	n, err := p.(provider.Counter).CountTokens(t.Context(), req)
	if err != nil || n <= 0 {
		t.Fatalf("CountTokens = %d, %v; want the server's count", n, err)
	}
	calls := s.Calls()
	if len(calls) != 1 || calls[0].Path != "/v1/messages/count_tokens" {
		t.Fatalf("calls %+v, want one POST /v1/messages/count_tokens", calls)
	}
	if calls[0].Header.Get("x-api-key") != testKey || calls[0].Header.Get("anthropic-version") == "" {
		t.Fatalf("headers %v: want the key and anthropic-version", calls[0].Header)
	}
	var body map[string]json.RawMessage
	_ = json.Unmarshal(calls[0].Body, &body)
	for _, k := range []string{"model", "system", "messages", "tools"} {
		if _, ok := body[k]; !ok {
			t.Errorf("count_tokens body has no %q: %s", k, calls[0].Body)
		}
	}
	if n != len(calls[0].Body)/4 {
		t.Fatalf("count %d, want the server's %d", n, len(calls[0].Body)/4)
	}
	// The chat request's reported input is the count plus its own
	// max_tokens and stream fields: a few tokens.
	s.Enqueue(providertest.Reply{Text: "ok"})
	res, err := p.Stream(t.Context(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := res.Usage.InputTokens - n; d < 0 || d > 16 {
		t.Fatalf("usage %d vs count %d: the count is not of the request the chat sends", res.Usage.InputTokens, n)
	}

	refused, q := newProvider(t, provider.KindAnthropic)
	refused.RefuseCountTokens(true)
	for i := range 2 {
		if _, err := q.(provider.Counter).CountTokens(t.Context(), req); !errors.Is(err, provider.ErrNoCount) {
			t.Fatalf("count %d on a server that refuses it: %v, want ErrNoCount", i, err)
		}
	}
	if c := refused.Calls(); len(c) != 1 {
		t.Fatalf("%d calls to a server that refused count_tokens, want 1 (not asked again)", len(c))
	}
}
