package provider_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
)

// TestOllamaNumCtxCoversEveryRequest: Ollama cuts a prompt longer than the
// num_ctx it runs it in, silently; the fake refuses one instead. Requests
// from a few hundred bytes to most of an 8,192-token window all get through,
// each naming a num_ctx that covers it — a power of two from 4,096, never
// above the length /api/show gives — and the model list reports that
// length.
func TestOllamaNumCtxCoversEveryRequest(t *testing.T) {
	s, p := newProvider(t, provider.KindOllama)
	s.SetModelList([]providertest.Model{{ID: "m1", ContextWindow: 8192}})
	models, err := p.Models(t.Context())
	if err != nil || len(models) != 1 || models[0].ContextWindow != 8192 {
		t.Fatalf("models %+v, %v; want m1 with its 8192-token window", models, err)
	}
	tool := provider.Tool{Name: "files__read", Description: "Read a file", InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)}
	for _, kb := range []int{1, 6, 12, 18} {
		req := userTurn(strings.Repeat("lorem ipsum ", kb*1024/12))
		req.Tools = []provider.Tool{tool}
		req.MaxTokens = 1024
		s.Enqueue(providertest.Reply{Text: "ok"})
		if _, err := p.Stream(t.Context(), req, nil); err != nil {
			t.Fatalf("%d KB: %v", kb, err)
		}
	}
	var seen []int
	for _, c := range chatCalls(s.Calls()) {
		if c.Path != "/api/chat" {
			continue
		}
		var body struct {
			Options struct {
				NumCtx int `json:"num_ctx"`
			} `json:"options"`
		}
		if err := json.Unmarshal(c.Body, &body); err != nil {
			t.Fatal(err)
		}
		n := body.Options.NumCtx
		if n < 4096 || n > 8192 || n&(n-1) != 0 {
			t.Errorf("num_ctx %d: want a power of two from 4096 to the model's 8192", n)
		}
		seen = append(seen, n)
	}
	if len(seen) != 4 || seen[0] != 4096 || seen[3] != 8192 {
		t.Errorf("num_ctx per request %v: want 4096 for the small one, 8192 for the large", seen)
	}
}
