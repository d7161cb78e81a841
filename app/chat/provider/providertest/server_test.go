package providertest_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/anthropics/anthropic-sdk-go"
	aoption "github.com/anthropics/anthropic-sdk-go/option"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
)

func TestReplyJSON(t *testing.T) {
	cases := []struct {
		name string
		json string
		want providertest.Reply
	}{
		{"delay string", `{"text":"a","delay":"250ms"}`, providertest.Reply{Text: "a", Delay: 250 * time.Millisecond}},
		{"delay milliseconds", `{"delay":40}`, providertest.Reply{Delay: 40 * time.Millisecond}},
		{"arguments object", `{"toolCalls":[{"name":"s__t","arguments":{"a": [1, 2]}}]}`, providertest.Reply{ToolCalls: []providertest.ToolCall{{Name: "s__t", Arguments: `{"a":[1,2]}`}}}},
		{"arguments string", `{"toolCalls":[{"id":"x","name":"s__t","arguments":"not json"}]}`, providertest.Reply{ToolCalls: []providertest.ToolCall{{ID: "x", Name: "s__t", Arguments: "not json"}}}},
		{"rule", `{"when":"weather","status":429,"retryAfter":"3","dropAfter":2,"malformed":true,"usage":{"inputTokens":1,"outputTokens":2}}`,
			providertest.Reply{When: "weather", Status: 429, RetryAfter: "3", DropAfter: 2, Malformed: true, Usage: &providertest.Usage{InputTokens: 1, OutputTokens: 2}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got providertest.Reply
			if err := json.Unmarshal([]byte(tc.json), &got); err != nil {
				t.Fatal(err)
			}
			if js(t, got) != js(t, tc.want) {
				t.Fatalf("got %s, want %s", js(t, got), js(t, tc.want))
			}
			var back providertest.Reply
			if err := json.Unmarshal([]byte(js(t, got)), &back); err != nil || js(t, back) != js(t, got) {
				t.Fatalf("round trip: %s, %v", js(t, back), err)
			}
		})
	}
	var r providertest.Reply
	if err := json.Unmarshal([]byte(`{"delay":"soon"}`), &r); err == nil {
		t.Fatal("a bad delay was accepted")
	}
}

func js(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func do(t *testing.T, method, url, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

func TestControlAPI(t *testing.T) {
	s := providertest.NewServer(t)
	base := s.BaseURL()
	cases := []struct {
		method, path, body string
		status             int
		contains           string
	}{
		{"POST", "/__fake/enqueue", `[{"text":"a"},{"when":"x","text":"b"}]`, 200, `"enqueued":2`},
		{"POST", "/__fake/enqueue", `{"text":"c"}`, 200, `"enqueued":1`},
		{"POST", "/__fake/enqueue", `nonsense`, 400, "JSON array of replies"},
		{"POST", "/__fake/models", `[{"id":"m-a","contextWindow":100}]`, 200, `"models":1`},
		{"GET", "/v1/models", "", 200, `"max_input_tokens":100`},
		{"GET", "/api/tags", "", 200, `"name":"m-a"`},
		{"GET", "/__fake/requests", "", 200, `"path":"/api/tags"`},
		{"GET", "/__fake/nope", "", 404, "POST /__fake/enqueue"},
		{"POST", "/__fake/reset", "", 200, `"reset":true`},
		{"GET", "/__fake/requests", "", 200, `[]`},
		{"GET", "/v1/models", "", 200, `"id":"fake-model"`},
		{"GET", "/v1/unknown", "", 404, "no route"},
	}
	for _, tc := range cases {
		status, body := do(t, tc.method, base+tc.path, tc.body)
		if status != tc.status || !strings.Contains(body, tc.contains) {
			t.Fatalf("%s %s = %d %s; want %d containing %q", tc.method, tc.path, status, body, tc.status, tc.contains)
		}
	}
}

func TestRequireKey(t *testing.T) {
	s := providertest.NewServer(t)
	s.RequireKey("k1")
	s.Enqueue(providertest.Reply{Text: "in"})
	cases := []struct {
		header, value string
		status        int
	}{
		{"Authorization", "Bearer wrong", 401},
		{"x-api-key", "k1", 200},
	}
	for _, tc := range cases {
		req, _ := http.NewRequestWithContext(t.Context(), "POST", s.URL(provider.KindOpenAI)+"/chat/completions", strings.NewReader(`{"model":"m","messages":[]}`))
		req.Header.Set(tc.header, tc.value)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != tc.status {
			t.Fatalf("%s: %s → %d, want %d", tc.header, tc.value, res.StatusCode, tc.status)
		}
	}
}

// The non-streamed answers parse with the real SDKs too.
func TestWholeAnswersThroughTheSDKs(t *testing.T) {
	s := providertest.NewServer(t)
	call := providertest.ToolCall{ID: "c9", Name: "s__t", Arguments: `{"n":1}`}
	s.Enqueue(providertest.Reply{Text: "whole", ToolCalls: []providertest.ToolCall{call}}, providertest.Reply{Text: "whole", ToolCalls: []providertest.ToolCall{call}})

	oc := openai.NewClient(option.WithBaseURL(s.URL(provider.KindOpenAI)), option.WithAPIKey("k"), option.WithMaxRetries(0))
	oresp, err := oc.Chat.Completions.New(t.Context(), openai.ChatCompletionNewParams{
		Model: "m", Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hi")},
	})
	if err != nil {
		t.Fatal(err)
	}
	msg := oresp.Choices[0].Message
	if msg.Content != "whole" || len(msg.ToolCalls) != 1 || msg.ToolCalls[0].Function.Arguments != `{"n":1}` || oresp.Choices[0].FinishReason != "tool_calls" {
		t.Fatalf("openai %+v", oresp.Choices[0])
	}

	ac := anthropic.NewClient(aoption.WithoutEnvironmentDefaults(), aoption.WithBaseURL(s.URL(provider.KindAnthropic)), aoption.WithAPIKey("k"), aoption.WithMaxRetries(0))
	aresp, err := ac.Messages.New(t.Context(), anthropic.MessageNewParams{
		Model: "m", MaxTokens: 10, Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("hi"))},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(aresp.Content) != 2 || aresp.Content[0].Text != "whole" || aresp.Content[1].ID != "c9" || string(aresp.Content[1].Input) != `{"n":1}` || aresp.StopReason != "tool_use" {
		t.Fatalf("anthropic %+v", aresp)
	}
}

// Ollama's /api/chat answers in its own shapes: streamed lines when the
// request does not say (its default), one object with "stream": false, and
// errors as {"error": "..."}.
func TestOllamaChat(t *testing.T) {
	s := providertest.NewServer(t)
	call := providertest.ToolCall{ID: "c9", Name: "s__t", Arguments: `{"n":1}`}
	s.Enqueue(
		providertest.Reply{Text: "two words", ToolCalls: []providertest.ToolCall{call}, Usage: &providertest.Usage{InputTokens: 5, OutputTokens: 7}},
		providertest.Reply{Text: "whole", ToolCalls: []providertest.ToolCall{call}},
		providertest.Reply{Status: http.StatusNotFound, Error: `model "m" not found, try pulling it first`},
	)
	chat := s.URL(provider.KindOllama) + "/api/chat"
	type line struct {
		Message struct {
			Content   string `json:"content"`
			ToolCalls []struct {
				ID       string `json:"id"`
				Function struct {
					Name      string          `json:"name"`
					Arguments json.RawMessage `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"message"`
		Done            bool   `json:"done"`
		DoneReason      string `json:"done_reason"`
		PromptEvalCount int    `json:"prompt_eval_count"`
		EvalCount       int    `json:"eval_count"`
	}

	status, body := do(t, "POST", chat, `{"model":"m","messages":[{"role":"user","content":"hi"}]}`)
	var lines []line
	for _, l := range strings.Split(strings.TrimSpace(body), "\n") {
		var v line
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("not a JSON line: %q", l)
		}
		lines = append(lines, v)
	}
	if status != 200 || len(lines) != 4 || lines[0].Message.Content != "two " || lines[1].Message.Content != "words" {
		t.Fatalf("streamed %d %s", status, body)
	}
	tc := lines[2].Message.ToolCalls
	if len(tc) != 1 || tc[0].ID != "c9" || tc[0].Function.Name != "s__t" || string(tc[0].Function.Arguments) != `{"n":1}` {
		t.Fatalf("tool call line %s", body)
	}
	if last := lines[3]; !last.Done || last.DoneReason != "stop" || last.PromptEvalCount != 5 || last.EvalCount != 7 {
		t.Fatalf("done line %s", body)
	}

	status, body = do(t, "POST", chat, `{"model":"m","stream":false,"messages":[{"role":"user","content":"hi"}]}`)
	var whole line
	if err := json.Unmarshal([]byte(body), &whole); err != nil || status != 200 || !whole.Done || whole.Message.Content != "whole" || len(whole.Message.ToolCalls) != 1 {
		t.Fatalf("whole %d %s", status, body)
	}

	status, body = do(t, "POST", chat, `{"model":"m","messages":[]}`)
	if status != http.StatusNotFound || strings.TrimSpace(body) != `{"error":"model \"m\" not found, try pulling it first"}` {
		t.Fatalf("error %d %s", status, body)
	}
}
