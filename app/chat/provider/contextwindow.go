package provider

import (
	"context"
	"strings"
)

// WindowOf is the context window of model at p, in tokens, as the
// provider tells it: Ollama's /api/show (the context length it runs the
// model with, and the largest num_ctx a request names), else the model
// list (OpenRouter, vLLM, Anthropic; LM Studio's loaded context; a
// llama.cpp server's n_ctx from /props); 0 when p cannot tell. It is for a
// provider the settings do not hold (one named on the command line), whose
// window nothing else knows.
func WindowOf(ctx context.Context, p Provider, model string) int {
	if o, ok := p.(*ollamaProvider); ok {
		return o.contextSize(ctx, model)
	}
	ms, err := p.Models(ctx)
	if err != nil {
		return 0
	}
	for _, m := range ms {
		if m.ID == model && m.ContextWindow > 0 {
			return m.ContextWindow
		}
	}
	for _, m := range ms { // "claude-sonnet-4-5" listed as "claude-sonnet-4-5-20250929"
		if m.ContextWindow > 0 && strings.HasPrefix(m.ID, model+"-") {
			return m.ContextWindow
		}
	}
	return 0
}

// llamaCppWindows fills the windows the list left out from a llama.cpp
// server's GET /props: the context each of its slots runs (n_ctx, under
// default_generation_settings; newer builds also at the top). A
// llama-server runs one model, so every model it lists gets it; it
// refuses a longer request. Other servers answer 404; api.openai.com is
// not asked.
func (p *openAIProvider) llamaCppWindows(ctx context.Context, ms []Model) {
	var props struct {
		NCtx     int `json:"n_ctx"`
		Defaults struct {
			NCtx int `json:"n_ctx"`
		} `json:"default_generation_settings"`
	}
	if !p.windowsFrom(ctx, ms, "/props", &props) {
		return
	}
	n := props.Defaults.NCtx
	if n <= 0 {
		n = props.NCtx
	}
	if n <= 0 {
		return
	}
	for i := range ms {
		if ms[i].ContextWindow == 0 {
			ms[i].ContextWindow = n
		}
	}
}
