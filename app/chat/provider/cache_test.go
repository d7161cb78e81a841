package provider_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
)

// Anthropic gets the stable prefix of a chat (its tools and system prompt)
// marked for the prompt cache, and the usage says what the cache held: the
// first step writes the prefix, the next reads it.
func TestAnthropicCachesToolsAndSystemPrompt(t *testing.T) {
	s, p := newProvider(t, provider.KindAnthropic)
	req := userTurn("hello")
	req.System = "You are helpful. " + strings.Repeat("Use the tools well. ", 50)
	req.Tools = []provider.Tool{
		{Name: "files__read", Description: "Read a file", InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)},
		{Name: "files__write", Description: "Write a file", InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"},"text":{"type":"string"}}}`)},
	}
	s.Enqueue(providertest.Reply{Text: "one"}, providertest.Reply{Text: "two"})
	first, err := p.Stream(t.Context(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Messages = append(req.Messages, provider.Message{Role: provider.RoleAssistant, Text: "one"}, provider.Message{Role: provider.RoleUser, Text: "again"})
	second, err := p.Stream(t.Context(), req, nil)
	if err != nil {
		t.Fatal(err)
	}

	var body struct {
		System []struct {
			CacheControl *struct{ Type string } `json:"cache_control"`
		} `json:"system"`
		Tools []struct {
			Name         string
			CacheControl *struct{ Type string } `json:"cache_control"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(s.Requests()[0], &body); err != nil {
		t.Fatal(err)
	}
	if len(body.System) != 1 || body.System[0].CacheControl == nil || body.System[0].CacheControl.Type != "ephemeral" {
		t.Errorf("the system prompt is not marked for the cache: %s", s.Requests()[0])
	}
	if len(body.Tools) != 2 || body.Tools[0].CacheControl != nil || body.Tools[1].CacheControl == nil || body.Tools[1].CacheControl.Type != "ephemeral" {
		t.Errorf("want only the last tool marked for the cache: %s", s.Requests()[0])
	}

	if first.Usage.CacheCreationTokens == 0 || first.Usage.CacheReadTokens != 0 {
		t.Errorf("first step usage %+v: want the prefix written to the cache", first.Usage)
	}
	if second.Usage.CacheReadTokens != first.Usage.CacheCreationTokens || second.Usage.CacheCreationTokens != 0 {
		t.Errorf("second step usage %+v: want the %d cached tokens read", second.Usage, first.Usage.CacheCreationTokens)
	}
	if second.Usage.InputTokens <= second.Usage.CacheReadTokens {
		t.Errorf("second step usage %+v: InputTokens must count the cached input too", second.Usage)
	}
}

// A chat without tools or system prompt marks nothing.
func TestAnthropicMarksNothingWithoutAPrefix(t *testing.T) {
	s, p := newProvider(t, provider.KindAnthropic)
	s.Enqueue(providertest.Reply{Text: "hi"})
	resp, err := p.Stream(t.Context(), userTurn("hello"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(s.Requests()[0]), "cache_control") {
		t.Errorf("marked with nothing to cache: %s", s.Requests()[0])
	}
	if resp.Usage.CacheCreationTokens != 0 || resp.Usage.CacheReadTokens != 0 {
		t.Errorf("usage %+v", resp.Usage)
	}
}

// OpenAI reports the cached part of the prompt too.
func TestOpenAICachedTokensAreRead(t *testing.T) {
	s, p := newProvider(t, provider.KindOpenAI)
	s.Enqueue(providertest.Reply{Text: "hi", Usage: &providertest.Usage{InputTokens: 2000, OutputTokens: 3, CacheReadTokens: 1536}})
	resp, err := p.Stream(t.Context(), userTurn("hello"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := (provider.Usage{InputTokens: 2000, OutputTokens: 3, CacheReadTokens: 1536}); resp.Usage != want {
		t.Errorf("usage %+v, want %+v", resp.Usage, want)
	}
}

// The schema each provider receives is its dialect's translation: a tool
// whose schema is a top-level anyOf keeps its properties on every wire.
func TestToolSchemasAreTranslatedOnTheWire(t *testing.T) {
	schema := json.RawMessage(`{"anyOf":[{"type":"object","properties":{"id":{"type":"integer"}},"required":["id"]},{"type":"object","properties":{"name":{"$ref":"#/$defs/Name"}},"required":["name"]}],"$defs":{"Name":{"type":"string","minLength":1}}}`)
	forEachKind(t, func(t *testing.T, kind provider.Kind) {
		s, p := newProvider(t, kind)
		req := userTurn("find")
		req.Tools = []provider.Tool{{Name: "db__find", InputSchema: schema}}
		s.Enqueue(providertest.Reply{Text: "ok"})
		if _, err := p.Stream(t.Context(), req, nil); err != nil {
			t.Fatal(err)
		}
		sent := string(s.Requests()[0])
		for _, want := range []string{`"id":{"type":"integer"}`, `"name":{`, "Give the arguments of any of these forms"} {
			if !strings.Contains(sent, want) {
				t.Errorf("the tool's schema lost %s: %s", want, sent)
			}
		}
		// The fake is on 127.0.0.1: OpenAI-compatible there is a local
		// server (llama.cpp's dialect), which follows no $ref; nor does
		// Ollama. Anthropic follows them.
		if strings.Contains(sent, "anyOf") || kind != provider.KindAnthropic && strings.Contains(sent, "$ref") {
			t.Errorf("a keyword the provider refuses was sent: %s", sent)
		}
	})
}
