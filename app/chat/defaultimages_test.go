package chat_test

import (
	"testing"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
)

// TestDefaultImages: by default images go to the models that take them —
// every model of Anthropic, OpenAI's and Gemini's own APIs but their
// text-only ones, and elsewhere models named as today's vision families
// are, however a router or Ollama's library writes the name — and not to
// text-only models, which would refuse the request.
func TestDefaultImages(t *testing.T) {
	const (
		gemini     = "https://generativelanguage.googleapis.com/v1beta/openai/"
		openRouter = "https://openrouter.ai/api/v1"
		local      = "http://127.0.0.1:8080/v1"
	)
	for _, c := range []struct {
		kind    provider.Kind
		baseURL string
		models  []string
		want    bool
	}{
		{provider.KindAnthropic, "", []string{"claude-sonnet-4-5", "claude-3-haiku-20240307"}, true},
		{provider.KindOpenAI, "", []string{"gpt-4o", "gpt-4.1-mini", "gpt-5", "o3", "o4-mini", "chatgpt-4o-latest"}, true},
		{provider.KindOpenAI, "https://api.openai.com/v1", []string{"gpt-3.5-turbo", "o1-mini", "o3-mini", "o1-preview", "gpt-4", "gpt-4-0613", "gpt-4o-audio-preview", "gpt-4o-search-preview"}, false},
		{provider.KindOpenAI, gemini, []string{"gemini-2.5-flash", "gemini-2.0-flash-lite", "gemma-3-27b-it"}, true},
		{provider.KindOpenAI, gemini, []string{"gemma-3n-e4b-it", "gemma-3-1b-it"}, false},
		{provider.KindOpenAI, openRouter, []string{
			"google/gemini-2.5-pro", "openai/o4-mini", "openai/gpt-4.1", "x-ai/grok-4", "x-ai/grok-2-vision-1212",
			"qwen/qwen2.5-vl-72b-instruct", "qwen/qwen3-vl-235b-a22b-instruct", "mistralai/mistral-small-3.2-24b-instruct",
			"meta-llama/llama-4-scout", "meta-llama/llama-3.2-11b-vision-instruct", "z-ai/glm-4.5v",
			"microsoft/phi-4-multimodal-instruct", "opengvlab/internvl3-78b", "anthropic/claude-sonnet-4.5",
		}, true},
		{provider.KindOpenAI, openRouter, []string{"openai/gpt-oss-120b", "openai/o3-mini", "deepseek/deepseek-chat", "x-ai/grok-3", "meta-llama/llama-3.3-70b-instruct"}, false},
		{provider.KindOpenAI, "https://api.mistral.ai/v1", []string{"mistral-small-latest", "mistral-medium-latest", "pixtral-large-latest"}, true},
		{provider.KindOpenAI, "https://api.mistral.ai/v1", []string{"mistral-large-2411", "codestral-latest", "mistral-small-2501"}, false},
		{provider.KindOllama, "", []string{
			"qwen2.5vl", "qwen2.5vl:7b", "qwen3-vl:8b", "llama3.2-vision", "gemma3:4b", "gemma3:27b-it-qat", "llava:13b",
			"minicpm-v", "moondream", "granite3.2-vision", "mistral-small3.1", "mistral-small3.2:24b", "llama4:scout",
		}, true},
		{provider.KindOllama, "", []string{"gemma3:1b", "gemma3:270m", "gemma3n:e4b", "llama3.1:8b", "qwen3:8b", "mistral-small:24b", "gpt-oss:20b"}, false},
		{provider.KindOpenAI, local, []string{"Qwen2.5-VL-7B-Instruct-Q4_K_M.gguf", "gemma-3-12b-it", "SmolVLM-Instruct", "InternVL3-8B"}, true},
		{provider.KindOpenAI, local, []string{"gemma-3-1b-it", "Qwen3-8B-Q4_K_M.gguf"}, false},
	} {
		for _, m := range c.models {
			if got := chat.DefaultImages(c.kind, c.baseURL, m); got != c.want {
				t.Errorf("DefaultImages(%s, %q, %q) = %v, want %v", c.kind, c.baseURL, m, got, c.want)
			}
		}
	}
}
