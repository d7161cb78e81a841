package chat_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// audioServer starts the testserver in mode audioserver (its get-tone returns
// a WAV clip) and returns the router serving it as server "audio".
func audioServer(t *testing.T) *router.Router {
	t.Helper()
	return serving(t, "audio", proctest.Server(t, "audioserver"))
}

// TestToolAudioReachesTheModel: the WAV clip get-tone returns is in the
// next model request as an input_audio part (format wav, the exact base64)
// in the user message after the tool message, when the provider's setting
// says the model takes audio. A model that takes none, and Anthropic and
// Ollama whatever their setting says (their APIs take no audio), get only
// the description.
func TestToolAudioReachesTheModel(t *testing.T) {
	reg := audioServer(t)
	direct, err := reg.Call(t.Context(), "audio", "get-tone", nil, router.CallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tone, _ := mcptest.Content[mcp.AudioContent](direct)
	if tone.Data == "" || tone.MIMEType != "audio/wav" {
		t.Fatalf("get-tone returned no WAV: %+v", direct.Content)
	}
	on, off := true, false
	described := func(t *testing.T, body []byte) {
		t.Helper()
		if strings.Contains(string(body), tone.Data) || strings.Contains(string(body), "input_audio") ||
			!strings.Contains(string(body), "[audio audio/wav, ") {
			t.Errorf("the model got the audio, or no description of it: %s", body)
		}
	}

	for _, tc := range []struct {
		name  string
		ps    chat.ProviderSettings
		check func(t *testing.T, body []byte)
	}{
		{"openai", chat.ProviderSettings{Kind: provider.KindOpenAI, Audio: &on}, func(t *testing.T, body []byte) {
			var req struct {
				Messages []struct {
					Role    string          `json:"role"`
					Content json.RawMessage `json:"content"`
				} `json:"messages"`
			}
			mustJSON(t, body, &req)
			n := len(req.Messages)
			if n < 2 || req.Messages[n-2].Role != "tool" || req.Messages[n-1].Role != "user" {
				t.Fatalf("want a tool message then a user message last: %s", body)
			}
			var toolText string
			mustJSON(t, req.Messages[n-2].Content, &toolText)
			if toolText != "A 440 Hz tone, 0.1 s.\n[audio 1: wav, attached]" {
				t.Errorf("tool message content %q", toolText)
			}
			var parts []struct {
				Type       string `json:"type"`
				Text       string `json:"text"`
				InputAudio struct {
					Format string `json:"format"`
					Data   string `json:"data"`
				} `json:"input_audio"`
			}
			mustJSON(t, req.Messages[n-1].Content, &parts)
			if len(parts) != 2 || parts[0].Text != "Audio returned by audio__get-tone (call c1):" ||
				parts[1].Type != "input_audio" || parts[1].InputAudio.Format != "wav" || parts[1].InputAudio.Data != tone.Data {
				t.Errorf("the user message after the tool result has no input_audio with get-tone's clip: %s", req.Messages[n-1].Content)
			}
		}},
		{"openai without audio", chat.ProviderSettings{Kind: provider.KindOpenAI, Audio: &off}, described},
		{"anthropic set to on", chat.ProviderSettings{Kind: provider.KindAnthropic, Audio: &on}, described},
		{"ollama set to on", chat.ProviderSettings{Kind: provider.KindOllama, Audio: &on}, described},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, tc.ps.Kind, nil)
			f.eng.SetTools(reg)
			f.llm.Enqueue(
				providertest.Reply{ToolCalls: []providertest.ToolCall{call("c1", "audio__get-tone", `{}`)}},
				providertest.Reply{Text: "A beep."},
			)
			if _, err := f.send(t.Context(), "Play me a tone", func(turn *chat.Turn) { turn.Audio = tc.ps.AcceptsAudio("m1") }); err != nil {
				t.Fatal(err)
			}
			reqs := f.llm.Requests()
			if len(reqs) != 2 {
				t.Fatalf("%d model requests, want 2", len(reqs))
			}
			tc.check(t, reqs[1])
		})
	}
}

// TestDefaultAudio: only OpenAI-compatible models whose name says they take
// audio get it by default; a setting overrides that for OpenAI-compatible
// providers only.
func TestDefaultAudio(t *testing.T) {
	on, off := true, false
	for _, tc := range []struct {
		kind    provider.Kind
		baseURL string
		model   string
		setting *bool
		want    bool
	}{
		{provider.KindOpenAI, "", "gpt-4o-audio-preview", nil, true},
		{provider.KindOpenAI, "", "gpt-audio", nil, true},
		{provider.KindOpenAI, "", "gpt-4o", nil, false},
		{provider.KindOpenAI, "", "gpt-5", nil, false},
		{provider.KindOpenAI, "https://generativelanguage.googleapis.com/v1beta/openai", "gemini-2.5-flash", nil, true},
		{provider.KindOpenAI, "https://api.mistral.ai/v1", "voxtral-small-latest", nil, true},
		{provider.KindOpenAI, "http://127.0.0.1:8000/v1", "Qwen/Qwen2.5-Omni-7B", nil, true},
		{provider.KindOpenAI, "http://127.0.0.1:8000/v1", "llama3.1", nil, false},
		{provider.KindOpenAI, "http://127.0.0.1:8000/v1", "llama3.1", &on, true},
		{provider.KindOpenAI, "", "gpt-audio", &off, false},
		{provider.KindAnthropic, "", "claude-sonnet-4", nil, false},
		{provider.KindAnthropic, "", "claude-audio", &on, false},
		{provider.KindOllama, "", "qwen2.5-omni", nil, false},
		{provider.KindOllama, "", "qwen2.5-omni", &on, false},
	} {
		ps := chat.ProviderSettings{Name: "p", Kind: tc.kind, BaseURL: tc.baseURL, Audio: tc.setting, DefaultModel: tc.model}
		if got := ps.AcceptsAudio(tc.model); got != tc.want {
			t.Errorf("%s %s (setting %v): accepts audio %v, want %v", tc.kind, tc.model, tc.setting, got, tc.want)
		}
		if got := (chat.Settings{Providers: []chat.ProviderSettings{ps}}).Audio("p", ""); got != tc.want {
			t.Errorf("%s %s (setting %v): a turn gets audio %v, want %v", tc.kind, tc.model, tc.setting, got, tc.want)
		}
		if tc.setting == nil && chat.DefaultAudio(tc.kind, tc.baseURL, tc.model) != tc.want {
			t.Errorf("%s %s: DefaultAudio disagrees", tc.kind, tc.model)
		}
	}
}
