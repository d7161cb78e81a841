package provider

import (
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// wireOf is what a request body holds of the conversation, on either wire:
// each message's role, its calls' ids, its results' ids (with the text of
// each result) and its text blocks.
type wireOf struct {
	roles          []string
	calls, results []string
	resultTexts    []string
	texts          []string
	empty          int // messages with no content at all
}

func parseWire(t *testing.T, body []byte) wireOf {
	t.Helper()
	var req struct {
		Messages []struct {
			Role       string          `json:"role"`
			Content    json.RawMessage `json:"content"`
			ToolCallID string          `json:"tool_call_id"`
			ToolCalls  []struct {
				ID string `json:"id"`
			} `json:"tool_calls"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	var w wireOf
	for _, m := range req.Messages {
		w.roles = append(w.roles, m.Role)
		for _, c := range m.ToolCalls {
			w.calls = append(w.calls, c.ID)
		}
		var text string
		if json.Unmarshal(m.Content, &text) == nil {
			if m.Role == "tool" {
				w.results, w.resultTexts = append(w.results, m.ToolCallID), append(w.resultTexts, text)
			} else {
				w.texts = append(w.texts, text)
			}
			continue
		}
		var blocks []struct {
			Type      string `json:"type"`
			Text      string `json:"text"`
			ID        string `json:"id"`
			ToolUseID string `json:"tool_use_id"`
			Content   []struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"content"`
		}
		_ = json.Unmarshal(m.Content, &blocks)
		if len(blocks) == 0 && len(m.ToolCalls) == 0 {
			w.empty++
		}
		for _, b := range blocks {
			switch b.Type {
			case blockText:
				w.texts = append(w.texts, b.Text)
			case blockToolUse:
				w.calls = append(w.calls, b.ID)
			case blockToolResult:
				w.results = append(w.results, b.ToolUseID)
				var text []string
				for _, c := range b.Content {
					if c.Type == blockText {
						w.texts = append(w.texts, c.Text)
						text = append(text, c.Text)
					}
				}
				w.resultTexts = append(w.resultTexts, strings.Join(text, ""))
			}
		}
	}
	return w
}

// bodyOf is req's body as the provider of kind writes it.
func bodyOf(t *testing.T, kind Kind, req Request) []byte {
	t.Helper()
	base, _ := url.Parse("http://127.0.0.1:1")
	var (
		b   []byte
		err error
	)
	switch kind {
	case KindAnthropic:
		b, err = newAnthropic(Config{Name: "x"}, base).body(req, newToolNames(anthropicNameLimit, req))
	default:
		b, err = newOpenAI(Config{Name: "x"}, base).body(req, newToolNames(openAINameLimit, req))
	}
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// calling is an assistant message with calls of ids, of the tool t.
func calling(ids ...string) Message {
	m := Message{Role: RoleAssistant}
	for _, id := range ids {
		m.ToolCalls = append(m.ToolCalls, ToolCall{ID: id, Name: "t", Arguments: json.RawMessage(`{}`)})
	}
	return m
}

func result(id, text string) Message {
	return Message{Role: RoleTool, ToolCallID: id, ToolName: "t", Text: text}
}

// TestCallIDsOncePerRequest: the APIs refuse a request in which two tool
// calls share an id (Anthropic across the whole request; OpenAI-compatible
// servers a tool_call_id repeated). A repeated id is sent as an id of its
// own, the same in its call and its result; each result stays with its
// own call; ids that are unique go as they are.
func TestCallIDsOncePerRequest(t *testing.T) {
	tools := []Tool{{Name: "t", InputSchema: json.RawMessage(`{"type":"object"}`)}}
	user := Message{Role: RoleUser, Text: "go"}
	tests := []struct {
		name  string
		msgs  []Message
		calls []string // as sent, for Anthropic (OpenAI sends the same unless the id needs Anthropic's form)
	}{
		{"two calls of one step", []Message{user, calling("dup1", "dup1"), result("dup1", "first"), result("dup1", "second")},
			[]string{"dup1", "dup1_2"}},
		{"call_0 at every step", []Message{user, calling("call_0"), result("call_0", "first"), calling("call_0"), result("call_0", "second"), calling("call_0"), result("call_0", "third")},
			[]string{"call_0", "call_0_2", "call_0_3"}},
		{"a made-up id is taken by a repeat", []Message{user, calling("a"), result("a", "first"), calling("a_2", "a"), result("a_2", "second"), result("a", "third")},
			[]string{"a", "a_2", "a_3"}},
		{"unique ids as they are", []Message{user, calling("x", "y"), result("x", "first"), result("y", "second")},
			[]string{"x", "y"}},
	}
	for _, tc := range tests {
		for _, kind := range []Kind{KindOpenAI, KindAnthropic} {
			t.Run(tc.name+"/"+string(kind), func(t *testing.T) {
				w := parseWire(t, bodyOf(t, kind, Request{Model: "m", Tools: tools, Messages: tc.msgs}))
				if !slices.Equal(w.calls, tc.calls) {
					t.Fatalf("calls sent as %q, want %q", w.calls, tc.calls)
				}
				if !slices.Equal(w.results, tc.calls) {
					t.Fatalf("results sent for %q, want %q (each after its call)", w.results, tc.calls)
				}
				if want := []string{"first", "second", "third"}[:len(w.resultTexts)]; !slices.Equal(w.resultTexts, want) {
					t.Fatalf("results %q in the order %q", w.resultTexts, want)
				}
			})
		}
	}
	// An id Anthropic takes only rewritten stays apart from its repeat too.
	w := parseWire(t, bodyOf(t, KindAnthropic, Request{Model: "m", Tools: tools,
		Messages: []Message{user, calling("functions.t:0"), result("functions.t:0", "first"), calling("functions.t:0"), result("functions.t:0", "second")}}))
	if first := anthropicID("functions.t:0"); !slices.Equal(w.calls, []string{first, first + "_2"}) || !slices.Equal(w.results, w.calls) {
		t.Fatalf("calls %q, results %q", w.calls, w.results)
	}
}

// TestAnthropicLeavesOutWhitespaceText: the API refuses a text block that
// is whitespace only (a model's "   \n  " answer, sent back at every later
// step, failed the chat for good). Such text is left out, an answer of
// nothing else with it, and the messages around it still alternate.
func TestAnthropicLeavesOutWhitespaceText(t *testing.T) {
	blank := "   \n  "
	tools := []Tool{{Name: "t", InputSchema: json.RawMessage(`{"type":"object"}`)}}
	withCall := calling("c1")
	withCall.Text = blank
	tests := []struct {
		name  string
		msgs  []Message
		roles []string
	}{
		{"an answer of whitespace", []Message{{Role: RoleUser, Text: "hi"}, {Role: RoleAssistant, Text: blank}, {Role: RoleUser, Text: "and now?"}},
			[]string{"user"}},
		{"whitespace beside a call", []Message{{Role: RoleUser, Text: "hi"}, withCall, result("c1", "ok"), {Role: RoleAssistant, Text: "done"}},
			[]string{"user", "assistant", "user", "assistant"}},
		{"a user's whitespace", []Message{{Role: RoleUser, Text: "hi"}, {Role: RoleAssistant, Text: "yes?"}, {Role: RoleUser, Text: blank}, {Role: RoleAssistant, Text: "still here"}, {Role: RoleUser, Text: "ok"}},
			[]string{"user", "assistant", "user"}},
		{"a result of whitespace", []Message{{Role: RoleUser, Text: "hi"}, calling("c1"), result("c1", blank)},
			[]string{"user", "assistant", "user"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := parseWire(t, bodyOf(t, KindAnthropic, Request{Model: "m", Tools: tools, Messages: tc.msgs}))
			for _, text := range w.texts {
				if strings.TrimSpace(text) == "" {
					t.Fatalf("a text block %q is sent: %q", text, w.texts)
				}
			}
			if w.empty > 0 || !slices.Equal(w.roles, tc.roles) {
				t.Fatalf("roles %q (%d empty), want %q", w.roles, w.empty, tc.roles)
			}
		})
	}
}
