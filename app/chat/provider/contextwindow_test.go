package provider_test

import (
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
