package chat

import (
	"errors"
	"testing"
)

// TestStatedSize: the model's context size is read from each provider's
// context-length error, as the provider words it (OpenAI's was missed: a
// window set larger than the model's was then never corrected).
func TestStatedSize(t *testing.T) {
	for _, tc := range []struct {
		name, msg       string
		stated, refused int
	}{
		{"OpenAI", `provider "x" refused to stream (HTTP 400: This model's maximum context length is 8192 tokens. However, your messages resulted in 9701 tokens.)`, 8192, 9701},
		{"Anthropic", `invalid_request_error: prompt is too long: 210000 tokens > 200000 maximum`, 200000, 210000},
		{"llama.cpp", `the request exceeds the available context size (4096 tokens), try increasing it`, 4096, 0},
		{"Ollama (the provider's own)", `the request (about 9701 tokens, and 1024 for the answer) does not fit the model's context window of 8192 tokens`, 8192, 9701},
		{"no number", `prompt is too long`, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := errors.New(tc.msg)
			if got := statedSize(err); got != tc.stated {
				t.Errorf("stated %d, want %d", got, tc.stated)
			}
			if got := refusedTokens(err); got != tc.refused {
				t.Errorf("refused %d, want %d", got, tc.refused)
			}
		})
	}
}
