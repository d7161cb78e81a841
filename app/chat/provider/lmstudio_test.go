package provider_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/switchboard-app/switchboard/app/chat/provider"
)

// TestLMStudioLoadedContext: LM Studio's /v1/models says nothing of
// context; its /api/v0/models gives the loaded context (used) and the
// maximum (for a model not loaded).
func TestLMStudioLoadedContext(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/models", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"object":"list","data":[{"id":"qwen3-8b","object":"model","owned_by":"organization_owner"},{"id":"gemma-3-4b","object":"model","owned_by":"organization_owner"}]}`))
	})
	mux.HandleFunc("GET /api/v0/models", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"object":"list","data":[
			{"id":"qwen3-8b","object":"model","type":"llm","state":"loaded","max_context_length":40960,"loaded_context_length":8192},
			{"id":"gemma-3-4b","object":"model","type":"vlm","state":"not-loaded","max_context_length":131072}]}`))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	p, err := provider.New(provider.Config{Kind: provider.KindOpenAI, Name: "lms", BaseURL: srv.URL + "/v1"})
	if err != nil {
		t.Fatal(err)
	}
	ms, err := p.Models(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, m := range ms {
		got[m.ID] = m.ContextWindow
	}
	if got["qwen3-8b"] != 8192 || got["gemma-3-4b"] != 131072 {
		t.Fatalf("windows %v, want the loaded 8192 and the maximum 131072", got)
	}
}
