package provider_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
)

var kinds = []provider.Kind{provider.KindOpenAI, provider.KindAnthropic, provider.KindOllama}

// forEachKind runs f as a subtest per wire format.
func forEachKind(t *testing.T, f func(t *testing.T, kind provider.Kind)) {
	t.Helper()
	for _, k := range kinds {
		t.Run(string(k), func(t *testing.T) { f(t, k) })
	}
}

const testKey = "sk-test-0123456789"

func newProvider(t *testing.T, kind provider.Kind) (*providertest.Server, provider.Provider) {
	t.Helper()
	s := providertest.NewServer(t)
	p, err := provider.New(provider.Config{Kind: kind, Name: "fake", BaseURL: s.URL(kind), APIKey: testKey})
	if err != nil {
		t.Fatal(err)
	}
	return s, p
}

// recorder collects the events of one Stream call.
type recorder struct{ events []provider.Event }

func (r *recorder) on(ev provider.Event) { r.events = append(r.events, ev) }

func (r *recorder) of(kind provider.EventKind) []provider.Event {
	var out []provider.Event
	for _, e := range r.events {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

func userTurn(text string) provider.Request {
	return provider.Request{Model: "m1", Messages: []provider.Message{{Role: provider.RoleUser, Text: text}}}
}

func TestStreamedTextArrivesInPieces(t *testing.T) {
	forEachKind(t, func(t *testing.T, kind provider.Kind) {
		s, p := newProvider(t, kind)
		const text = "Hello there, how can I help you today?"
		s.Enqueue(providertest.Reply{Text: text, Usage: &providertest.Usage{InputTokens: 31, OutputTokens: 9}})
		var rec recorder
		resp, err := p.Stream(t.Context(), userTurn("hi"), rec.on)
		if err != nil {
			t.Fatal(err)
		}
		texts := rec.of(provider.EventText)
		if len(texts) < 2 {
			t.Fatalf("got %d text events, want several", len(texts))
		}
		var joined strings.Builder
		for _, e := range texts {
			joined.WriteString(e.Text)
		}
		if joined.String() != text || resp.Text != text {
			t.Fatalf("events %q, response %q, want %q", joined.String(), resp.Text, text)
		}
		if resp.Stop != provider.StopEnd || len(resp.ToolCalls) != 0 {
			t.Fatalf("stop %q, calls %v", resp.Stop, resp.ToolCalls)
		}
		if resp.Usage != (provider.Usage{InputTokens: 31, OutputTokens: 9}) {
			t.Fatalf("usage %+v", resp.Usage)
		}
	})
}

func TestStopReasons(t *testing.T) {
	forEachKind(t, func(t *testing.T, kind provider.Kind) {
		s, p := newProvider(t, kind)
		s.Enqueue(providertest.Reply{Text: "cut off", Stop: "max_tokens"})
		resp, err := p.Stream(t.Context(), userTurn("long"), nil)
		if err != nil {
			t.Fatal(err)
		}
		if resp.Stop != provider.StopMaxTokens {
			t.Fatalf("stop %q, want %q", resp.Stop, provider.StopMaxTokens)
		}
	})
}

// wireName matches the tool names each API accepts.
var wireName = map[provider.Kind]*regexp.Regexp{
	provider.KindOpenAI:    regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`),
	provider.KindAnthropic: regexp.MustCompile(`^[a-zA-Z0-9_-]{1,128}$`),
	provider.KindOllama:    regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`),
}

func TestParallelToolCallsKeepOurNames(t *testing.T) {
	long := "a_server_with_a_rather_long_name__" + strings.Repeat("tool_", 20)
	tools := []provider.Tool{
		{Name: "files__read.file", Description: "Read a file", InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}`)},
		{Name: long, InputSchema: json.RawMessage(`{"type":"object"}`)},
		{Name: "plain__tool"},
	}
	args := []string{`{"path":"notes/a long name.md","lines":[1,2,3]}`, `{"q":"ünïcödé ✓","n":12345678}`}
	forEachKind(t, func(t *testing.T, kind provider.Kind) {
		s, p := newProvider(t, kind)
		req := userTurn("read both")
		req.Tools = tools

		// A first turn shows which aliases went on the wire.
		s.Enqueue(providertest.Reply{Text: "ok"})
		if _, err := p.Stream(t.Context(), req, nil); err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{`"required":["path"]`, `"additionalProperties":false`, `"description":"Read a file"`} {
			if kind == provider.KindOllama && strings.Contains(want, "additionalProperties") {
				continue // Ollama's tools have no such field (ToolSchema's DialectOllama)
			}
			if !strings.Contains(string(s.Requests()[0]), want) {
				t.Errorf("the tool's schema lost %s: %s", want, s.Requests()[0])
			}
		}
		sent := sentToolNames(t, kind, s.Requests()[0])
		if len(sent) != len(tools) {
			t.Fatalf("sent tools %v", sent)
		}
		seen := map[string]bool{}
		for i, n := range sent {
			if !wireName[kind].MatchString(n) || seen[n] {
				t.Fatalf("tool %d sent as %q: not a valid, distinct API name", i, n)
			}
			seen[n] = true
		}
		if sent[2] != "plain__tool" {
			t.Fatalf("a valid name was changed to %q", sent[2])
		}

		s.Enqueue(providertest.Reply{Text: "Reading.", ToolCalls: []providertest.ToolCall{
			{ID: "c1", Name: sent[0], Arguments: args[0]},
			{ID: "c2", Name: sent[1], Arguments: args[1]},
		}})
		var rec recorder
		resp, err := p.Stream(t.Context(), req, rec.on)
		if err != nil {
			t.Fatal(err)
		}
		if resp.Stop != provider.StopToolUse || len(resp.ToolCalls) != 2 {
			t.Fatalf("stop %q, calls %+v", resp.Stop, resp.ToolCalls)
		}
		want := []provider.ToolCall{{ID: "c1", Name: tools[0].Name}, {ID: "c2", Name: tools[1].Name}}
		for i, c := range resp.ToolCalls {
			if c.ID != want[i].ID || c.Name != want[i].Name || string(c.Arguments) != args[i] {
				t.Errorf("call %d = %s %s %s, want %s %s %s", i, c.ID, c.Name, c.Arguments, want[i].ID, want[i].Name, args[i])
			}
		}
		starts := rec.of(provider.EventToolCallStart)
		if len(starts) != 2 || starts[0].Index != 0 || starts[1].Index != 1 || starts[0].Name != tools[0].Name || starts[1].ID != "c2" {
			t.Fatalf("start events %+v", starts)
		}
		got := map[int]string{}
		pieces := map[int]int{}
		for _, e := range rec.of(provider.EventToolCallArgs) {
			got[e.Index] += e.ArgsDelta
			pieces[e.Index]++
			if e.ID != want[e.Index].ID {
				t.Errorf("args event for call %d has ID %q", e.Index, e.ID)
			}
		}
		for i := range args {
			// Ollama sends each call whole, so its arguments in one piece.
			if got[i] != args[i] || (pieces[i] < 2) != (kind == provider.KindOllama) {
				t.Errorf("call %d: args deltas %q in %d pieces, want %q in several (one for Ollama)", i, got[i], pieces[i], args[i])
			}
		}
	})
}

func TestEmptyArgumentsBecomeAnEmptyObject(t *testing.T) {
	forEachKind(t, func(t *testing.T, kind provider.Kind) {
		s, p := newProvider(t, kind)
		req := userTurn("now")
		req.Tools = []provider.Tool{{Name: "clock__now"}}
		s.Enqueue(providertest.Reply{ToolCalls: []providertest.ToolCall{{Name: "clock__now"}}})
		resp, err := p.Stream(t.Context(), req, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(resp.ToolCalls) != 1 || string(resp.ToolCalls[0].Arguments) != "{}" || resp.ToolCalls[0].ID == "" {
			t.Fatalf("calls %+v", resp.ToolCalls)
		}
	})
}

// sentToolNames reads the tool names out of a chat request body.
func sentToolNames(t *testing.T, kind provider.Kind, body json.RawMessage) []string {
	t.Helper()
	var v struct {
		Tools []struct {
			Name     string `json:"name"`
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, tl := range v.Tools {
		if kind != provider.KindAnthropic {
			out = append(out, tl.Function.Name)
		} else {
			out = append(out, tl.Name)
		}
	}
	return out
}

// followUp is a turn that carries the results of two tool calls.
func followUp() provider.Request {
	return provider.Request{
		Model:  "m1",
		System: "Be brief.",
		Tools:  []provider.Tool{{Name: "files__read.file"}, {Name: "files__list"}},
		Messages: []provider.Message{
			{Role: provider.RoleUser, Text: "read a and list"},
			{Role: provider.RoleAssistant, Text: "Sure.", ToolCalls: []provider.ToolCall{
				{ID: "c1", Name: "files__read.file", Arguments: json.RawMessage(`{"path":"a"}`)},
				{ID: "c2", Name: "files__list", Arguments: json.RawMessage(`{}`)},
			}},
			{Role: provider.RoleTool, ToolCallID: "c1", ToolName: "files__read.file", Text: "contents of a"},
			{Role: provider.RoleTool, ToolCallID: "c2", ToolName: "files__list", Text: "permission denied", IsError: true},
		},
	}
}

func TestToolResultsOpenAIFormat(t *testing.T) {
	s, p := newProvider(t, provider.KindOpenAI)
	s.Enqueue(providertest.Reply{Text: "a says hello"})
	resp, err := p.Stream(t.Context(), followUp(), nil)
	if err != nil || resp.Text != "a says hello" {
		t.Fatalf("%q, %v", resp.Text, err)
	}
	var body struct {
		Messages []struct {
			Role       string          `json:"role"`
			Content    json.RawMessage `json:"content"`
			ToolCallID string          `json:"tool_call_id"`
			ToolCalls  []struct {
				ID       string `json:"id"`
				Type     string `json:"type"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"messages"`
		Stream        bool `json:"stream"`
		StreamOptions struct {
			IncludeUsage bool `json:"include_usage"`
		} `json:"stream_options"`
	}
	raw := s.Requests()[0]
	if err := json.Unmarshal(raw, &body); err != nil {
		t.Fatal(err)
	}
	roles := []string{}
	for _, m := range body.Messages {
		roles = append(roles, m.Role)
	}
	if strings.Join(roles, ",") != "system,user,assistant,tool,tool" {
		t.Fatalf("roles %v in %s", roles, raw)
	}
	if !body.Stream || !body.StreamOptions.IncludeUsage {
		t.Errorf("stream %v, include_usage %v", body.Stream, body.StreamOptions.IncludeUsage)
	}
	if string(body.Messages[0].Content) != `"Be brief."` {
		t.Errorf("system %s", body.Messages[0].Content)
	}
	a := body.Messages[2]
	if string(a.Content) != `"Sure."` || len(a.ToolCalls) != 2 {
		t.Fatalf("assistant %+v", a)
	}
	alias := sentToolNames(t, provider.KindOpenAI, raw)[0]
	if c := a.ToolCalls[0]; c.ID != "c1" || c.Type != "function" || c.Function.Name != alias || c.Function.Arguments != `{"path":"a"}` {
		t.Errorf("first call %+v, want the alias %q", c, alias)
	}
	if c := a.ToolCalls[1]; c.ID != "c2" || c.Function.Name != "files__list" || c.Function.Arguments != `{}` {
		t.Errorf("second call %+v", c)
	}
	if m := body.Messages[3]; m.ToolCallID != "c1" || string(m.Content) != `"contents of a"` {
		t.Errorf("first result %+v", m)
	}
	if m := body.Messages[4]; m.ToolCallID != "c2" || string(m.Content) != `"Error: permission denied"` {
		t.Errorf("second result %s %s", m.ToolCallID, m.Content)
	}
}

// TestToolAudioOpenAIFormat: a tool's audio (after its images) follows the
// step's tool messages in one user message, as input_audio parts with the
// format and the base64 data, under the "returned by" line; a user turn's
// audio is among its parts.
func TestToolAudioOpenAIFormat(t *testing.T) {
	s, p := newProvider(t, provider.KindOpenAI)
	s.Enqueue(providertest.Reply{Text: "a beep"})
	req := followUp()
	png := provider.Image{MIMEType: "image/png", Data: "iVBORw0KGgo="}
	wav := provider.Audio{Format: "wav", Data: "UklGRiQAAABXQVZF"}
	mp3 := provider.Audio{Format: "mp3", Data: "SUQzBAAAAAAA"}
	req.Messages[2].Images = []provider.Image{png}
	req.Messages[2].Audio = []provider.Audio{wav}
	req.Messages = append(req.Messages, provider.Message{Role: provider.RoleUser, Text: "and this?", Audio: []provider.Audio{mp3}})
	if _, err := p.Stream(t.Context(), req, nil); err != nil {
		t.Fatal(err)
	}
	type part struct {
		Type     string `json:"type"`
		Text     string `json:"text"`
		ImageURL struct {
			URL string `json:"url"`
		} `json:"image_url"`
		InputAudio struct {
			Data   string `json:"data"`
			Format string `json:"format"`
		} `json:"input_audio"`
	}
	var body struct {
		Messages []struct {
			Role       string          `json:"role"`
			Content    json.RawMessage `json:"content"`
			ToolCallID string          `json:"tool_call_id"`
		} `json:"messages"`
	}
	raw := s.Requests()[0]
	if err := json.Unmarshal(raw, &body); err != nil {
		t.Fatal(err)
	}
	roles := []string{}
	for _, m := range body.Messages {
		roles = append(roles, m.Role)
	}
	// The tool messages stay together; the media follow them, then the user's turn.
	if strings.Join(roles, ",") != "system,user,assistant,tool,tool,user,user" {
		t.Fatalf("roles %v in %s", roles, raw)
	}
	if m := body.Messages[3]; m.ToolCallID != "c1" || string(m.Content) != `"contents of a"` {
		t.Errorf("tool message %s %s: want the text only", m.ToolCallID, m.Content)
	}
	var shown []part
	if err := json.Unmarshal(body.Messages[5].Content, &shown); err != nil {
		t.Fatalf("%v: %s", err, body.Messages[5].Content)
	}
	if len(shown) != 4 ||
		shown[0].Type != "text" || shown[0].Text != "Image returned by files__read.file (call c1):" ||
		shown[1].Type != "image_url" || shown[1].ImageURL.URL != "data:image/png;base64,"+png.Data ||
		shown[2].Type != "text" || shown[2].Text != "Audio returned by files__read.file (call c1):" ||
		shown[3].Type != "input_audio" || shown[3].InputAudio.Format != "wav" || shown[3].InputAudio.Data != wav.Data {
		t.Errorf("media after the tool messages: %s", body.Messages[5].Content)
	}
	var user []part
	if err := json.Unmarshal(body.Messages[6].Content, &user); err != nil {
		t.Fatalf("%v: %s", err, body.Messages[6].Content)
	}
	if len(user) != 2 || user[0].Type != "text" || user[0].Text != "and this?" ||
		user[1].Type != "input_audio" || user[1].InputAudio.Format != "mp3" || user[1].InputAudio.Data != mp3.Data {
		t.Errorf("user turn with audio: %s", body.Messages[6].Content)
	}
}

// TestAudioIsNotOnAnthropicOrOllamaWires: their APIs take no audio, so a
// message's Audio never reaches their request bodies.
func TestAudioIsNotOnAnthropicOrOllamaWires(t *testing.T) {
	for _, kind := range []provider.Kind{provider.KindAnthropic, provider.KindOllama} {
		t.Run(string(kind), func(t *testing.T) {
			s, p := newProvider(t, kind)
			s.Enqueue(providertest.Reply{Text: "ok"})
			req := followUp()
			req.Messages[2].Audio = []provider.Audio{{Format: "wav", Data: "UklGRiQAAABXQVZF"}}
			if _, err := p.Stream(t.Context(), req, nil); err != nil {
				t.Fatal(err)
			}
			raw := string(s.Requests()[0])
			if strings.Contains(raw, "UklGRiQAAABXQVZF") || strings.Contains(raw, "audio") || !strings.Contains(raw, "contents of a") {
				t.Errorf("body: %s", raw)
			}
		})
	}
}

func TestToolResultsAnthropicFormat(t *testing.T) {
	s, p := newProvider(t, provider.KindAnthropic)
	s.Enqueue(providertest.Reply{Text: "a says hello"})
	req := followUp()
	req.Messages = append(req.Messages, provider.Message{Role: provider.RoleUser, Text: "and then?"})
	if _, err := p.Stream(t.Context(), req, nil); err != nil {
		t.Fatal(err)
	}
	type block struct {
		Type      string          `json:"type"`
		Text      string          `json:"text"`
		ID        string          `json:"id"`
		Name      string          `json:"name"`
		Input     json.RawMessage `json:"input"`
		ToolUseID string          `json:"tool_use_id"`
		IsError   bool            `json:"is_error"`
		Content   []block         `json:"content"`
	}
	var body struct {
		System   []block `json:"system"`
		Messages []struct {
			Role    string  `json:"role"`
			Content []block `json:"content"`
		} `json:"messages"`
		Tools []struct {
			Name        string `json:"name"`
			InputSchema struct {
				Type       string          `json:"type"`
				Properties json.RawMessage `json:"properties"`
			} `json:"input_schema"`
		} `json:"tools"`
		MaxTokens int  `json:"max_tokens"`
		Stream    bool `json:"stream"`
	}
	raw := s.Requests()[0]
	if err := json.Unmarshal(raw, &body); err != nil {
		t.Fatal(err)
	}
	if len(body.System) != 1 || body.System[0].Text != "Be brief." {
		t.Errorf("system %+v", body.System)
	}
	if body.MaxTokens != provider.DefaultMaxTokens || !body.Stream {
		t.Errorf("max_tokens %d, stream %v", body.MaxTokens, body.Stream)
	}
	for _, tl := range body.Tools {
		// The API refuses a tool without an input_schema.
		if tl.InputSchema.Type != "object" || string(tl.InputSchema.Properties) != "{}" {
			t.Errorf("tool %s has input_schema %+v", tl.Name, tl.InputSchema)
		}
	}
	if len(body.Tools) != 2 || len(body.Messages) != 3 {
		t.Fatalf("%d messages, want user, assistant, one merged user: %s", len(body.Messages), raw)
	}
	a := body.Messages[1]
	alias := sentToolNames(t, provider.KindAnthropic, raw)[0]
	if a.Role != "assistant" || len(a.Content) != 3 || a.Content[0].Text != "Sure." ||
		a.Content[1].Type != "tool_use" || a.Content[1].ID != "c1" || a.Content[1].Name != alias || string(a.Content[1].Input) != `{"path":"a"}` ||
		a.Content[2].Name != "files__list" {
		t.Fatalf("assistant %+v", a)
	}
	u := body.Messages[2]
	if u.Role != "user" || len(u.Content) != 3 {
		t.Fatalf("results message %+v", u)
	}
	r1, r2, txt := u.Content[0], u.Content[1], u.Content[2]
	if r1.Type != "tool_result" || r1.ToolUseID != "c1" || r1.IsError || len(r1.Content) != 1 || r1.Content[0].Text != "contents of a" {
		t.Errorf("first result %+v", r1)
	}
	if r2.Type != "tool_result" || r2.ToolUseID != "c2" || !r2.IsError || r2.Content[0].Text != "permission denied" {
		t.Errorf("second result %+v", r2)
	}
	if txt.Type != "text" || txt.Text != "and then?" {
		t.Errorf("user text after the results %+v", txt)
	}
}

func TestRejectedKey(t *testing.T) {
	forEachKind(t, func(t *testing.T, kind provider.Kind) {
		s, p := newProvider(t, kind)
		s.Enqueue(providertest.Reply{Status: http.StatusUnauthorized, Error: "invalid key " + testKey})
		var rec recorder
		_, err := p.Stream(t.Context(), userTurn("hi"), rec.on)
		if !errors.Is(err, provider.ErrAuth) {
			t.Fatalf("err = %v, want ErrAuth", err)
		}
		msg := err.Error()
		for _, want := range []string{`provider "fake" rejected the API key (HTTP 401`, "fix the key in Settings → Models"} {
			if !strings.Contains(msg, want) {
				t.Errorf("message %q lacks %q", msg, want)
			}
		}
		if strings.Contains(msg, testKey) {
			t.Errorf("message leaks the key: %q", msg)
		}
		if n := len(s.Requests()); n != 1 || len(rec.of(provider.EventRetry)) != 0 {
			t.Fatalf("%d requests, %d retries: a rejected key must not be retried", n, len(rec.of(provider.EventRetry)))
		}
	})
}

func TestTheKeyIsSentAndOnlyOurs(t *testing.T) {
	// Keys in the environment must not reach a server the user did not
	// give them to.
	t.Setenv("OPENAI_API_KEY", "sk-from-env")
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-from-env")
	forEachKind(t, func(t *testing.T, kind provider.Kind) {
		s := providertest.NewServer(t)
		s.Enqueue(providertest.Reply{Text: "a"}, providertest.Reply{Text: "b"})
		for _, key := range []string{testKey, ""} {
			p, err := provider.New(provider.Config{Kind: kind, Name: "fake", BaseURL: s.URL(kind), APIKey: key})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.Stream(t.Context(), userTurn("hi"), nil); err != nil {
				t.Fatal(err)
			}
		}
		calls := chatCalls(s.Calls())
		if len(calls) != 2 {
			t.Fatalf("%d calls", len(calls))
		}
		sentKey := func(h http.Header) string {
			if kind == provider.KindAnthropic {
				return h.Get("X-Api-Key")
			}
			return strings.TrimPrefix(h.Get("Authorization"), "Bearer ")
		}
		if got := sentKey(calls[0].Header); got != testKey {
			t.Errorf("sent key %q, want %q", got, testKey)
		}
		if h := calls[1].Header; h.Get("Authorization") != "" || h.Get("X-Api-Key") != "" {
			t.Errorf("no key configured, but sent %v", h)
		}
	})
}

// fastRetries makes retry waits instant and records them.
func fastRetries(t *testing.T) *[]time.Duration {
	t.Helper()
	var waits []time.Duration
	provider.SetSleep(t, func(ctx context.Context, d time.Duration) error {
		waits = append(waits, d)
		return ctx.Err()
	})
	return &waits
}

func TestRateLimitIsWaitedOut(t *testing.T) {
	cases := []struct {
		kind  provider.Kind
		reply providertest.Reply
		after time.Duration
	}{
		{provider.KindOpenAI, providertest.Reply{Status: 429, RetryAfter: "1"}, time.Second},
		{provider.KindOpenAI, providertest.Reply{Status: 429, RetryAfterMs: "250"}, 250 * time.Millisecond},
		{provider.KindAnthropic, providertest.Reply{Status: 429, RetryAfter: "1"}, time.Second},
		{provider.KindAnthropic, providertest.Reply{Status: 529, RetryAfter: "2"}, 2 * time.Second},
		{provider.KindAnthropic, providertest.Reply{Status: 503}, provider.RetryBackoff},
		{provider.KindOllama, providertest.Reply{Status: 429, RetryAfter: "1"}, time.Second},
		{provider.KindOllama, providertest.Reply{Status: 429}, provider.RetryBackoff},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%s/%d/%s", tc.kind, tc.reply.Status, tc.after), func(t *testing.T) {
			waits := fastRetries(t)
			s, p := newProvider(t, tc.kind)
			s.Enqueue(tc.reply, providertest.Reply{Text: "finally"})
			var rec recorder
			resp, err := p.Stream(t.Context(), userTurn("hi"), rec.on)
			if err != nil {
				t.Fatal(err)
			}
			if resp.Text != "finally" || len(s.Requests()) != 2 {
				t.Fatalf("text %q after %d requests", resp.Text, len(s.Requests()))
			}
			retries := rec.of(provider.EventRetry)
			var rl *provider.RateLimitError
			if len(retries) != 1 || retries[0].Attempt != 1 || retries[0].After != tc.after || !errors.As(retries[0].Err, &rl) || rl.Status != tc.reply.Status {
				t.Fatalf("retry events %+v", retries)
			}
			if len(*waits) != 1 || (*waits)[0] != tc.after {
				t.Fatalf("waited %v, want %v", *waits, tc.after)
			}
			if rec.events[0].Kind != provider.EventRetry {
				t.Fatalf("the retry was not announced before the answer: %+v", rec.events)
			}
		})
	}
}

func TestRateLimitRunsOut(t *testing.T) {
	old := provider.MaxRetries
	provider.MaxRetries = 2
	t.Cleanup(func() { provider.MaxRetries = old })
	forEachKind(t, func(t *testing.T, kind provider.Kind) {
		waits := fastRetries(t)
		s, p := newProvider(t, kind)
		for range 3 {
			s.Enqueue(providertest.Reply{Status: 429, RetryAfter: "2"})
		}
		var rec recorder
		_, err := p.Stream(t.Context(), userTurn("hi"), rec.on)
		var rl *provider.RateLimitError
		if !errors.As(err, &rl) || !errors.Is(err, provider.ErrRateLimited) {
			t.Fatalf("err = %#v, want a RateLimitError", err)
		}
		if rl.RetryAfter != 2*time.Second || !strings.Contains(err.Error(), "wait 2s and try again") {
			t.Errorf("RetryAfter %v, message %q", rl.RetryAfter, err)
		}
		if n := len(s.Requests()); n != 3 || len(rec.of(provider.EventRetry)) != 2 || len(*waits) != 2 {
			t.Fatalf("%d requests, %d retry events, %d waits; want 3, 2, 2", n, len(rec.of(provider.EventRetry)), len(*waits))
		}
	})
}

func TestRateLimitLongerThanTheCapFailsAtOnce(t *testing.T) {
	forEachKind(t, func(t *testing.T, kind provider.Kind) {
		waits := fastRetries(t)
		s, p := newProvider(t, kind)
		wait := provider.MaxRetryWait + time.Hour
		s.Enqueue(providertest.Reply{Status: 429, RetryAfter: fmt.Sprint(int(wait.Seconds()))})
		_, err := p.Stream(t.Context(), userTurn("hi"), nil)
		var rl *provider.RateLimitError
		if !errors.As(err, &rl) || rl.RetryAfter != wait {
			t.Fatalf("err = %v", err)
		}
		if len(s.Requests()) != 1 || len(*waits) != 0 {
			t.Fatalf("%d requests, waits %v: a wait over the cap must not be taken", len(s.Requests()), *waits)
		}
	})
}

func TestCancelDuringRetryWait(t *testing.T) {
	forEachKind(t, func(t *testing.T, kind provider.Kind) {
		s, p := newProvider(t, kind)
		s.Enqueue(providertest.Reply{Status: 429, RetryAfter: "30"})
		ctx, cancel := context.WithCancel(t.Context())
		provider.SetSleep(t, func(ctx context.Context, d time.Duration) error {
			cancel() // the user presses Stop while we wait
			<-ctx.Done()
			return ctx.Err()
		})
		_, err := p.Stream(ctx, userTurn("hi"), nil)
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
	})
}

func TestDroppedStreamKeepsWhatArrived(t *testing.T) {
	forEachKind(t, func(t *testing.T, kind provider.Kind) {
		for _, malformed := range []bool{false, true} {
			t.Run(fmt.Sprintf("malformed=%v", malformed), func(t *testing.T) {
				s, p := newProvider(t, kind)
				s.Enqueue(providertest.Reply{Text: "one two three four five", DropAfter: 2, Malformed: malformed})
				var rec recorder
				resp, err := p.Stream(t.Context(), userTurn("count"), rec.on)
				if !errors.Is(err, provider.ErrIncomplete) {
					t.Fatalf("err = %v, want ErrIncomplete", err)
				}
				if resp.Text != "one two " || len(rec.of(provider.EventText)) != 2 {
					t.Fatalf("partial text %q from %d events", resp.Text, len(rec.of(provider.EventText)))
				}
				if !strings.Contains(err.Error(), "what arrived is kept") {
					t.Errorf("message %q", err)
				}
			})
		}
	})
}

func TestDroppedStreamKeepsOnlyWholeToolCalls(t *testing.T) {
	forEachKind(t, func(t *testing.T, kind provider.Kind) {
		s, p := newProvider(t, kind)
		// With 4-byte pieces the first call's 7 bytes take 2 deltas; the
		// drop comes after 1 piece of the second.
		s.Enqueue(providertest.Reply{ChunkSize: 4, DropAfter: 3, ToolCalls: []providertest.ToolCall{
			{ID: "c1", Name: "t__a", Arguments: `{"a":1}`},
			{ID: "c2", Name: "t__b", Arguments: `{"b":2}`},
		}})
		req := userTurn("go")
		req.Tools = []provider.Tool{{Name: "t__a"}, {Name: "t__b"}}
		var rec recorder
		resp, err := p.Stream(t.Context(), req, rec.on)
		if !errors.Is(err, provider.ErrIncomplete) {
			t.Fatalf("err = %v", err)
		}
		if len(resp.ToolCalls) != 1 || resp.ToolCalls[0].ID != "c1" || string(resp.ToolCalls[0].Arguments) != `{"a":1}` {
			t.Fatalf("calls %+v, want only the whole first one", resp.ToolCalls)
		}
		// Ollama sends a call only once it is whole: the second never started.
		wantStarts := map[provider.Kind]int{provider.KindOllama: 1}[kind]
		if wantStarts == 0 {
			wantStarts = 2
		}
		if len(rec.of(provider.EventToolCallStart)) != wantStarts {
			t.Fatalf("start events %+v, want %d", rec.of(provider.EventToolCallStart), wantStarts)
		}
	})
}

func TestCancelMidStreamReturnsPromptly(t *testing.T) {
	forEachKind(t, func(t *testing.T, kind provider.Kind) {
		s, p := newProvider(t, kind)
		// Each piece after the first would take an hour.
		s.Enqueue(providertest.Reply{Text: "first second third", Delay: time.Hour})
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		type result struct {
			resp provider.Response
			err  error
		}
		done := make(chan result, 1)
		go func() {
			resp, err := p.Stream(ctx, userTurn("hi"), func(ev provider.Event) {
				if ev.Kind == provider.EventText {
					cancel() // the Stop button, as the first words show
				}
			})
			done <- result{resp, err}
		}()
		select {
		case r := <-done:
			if !errors.Is(r.err, context.Canceled) {
				t.Fatalf("err = %v, want context.Canceled", r.err)
			}
			if r.resp.Text != "first " {
				t.Fatalf("partial text %q", r.resp.Text)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("Stream did not return after cancel")
		}
	})
}

func TestUnknownModel(t *testing.T) {
	forEachKind(t, func(t *testing.T, kind provider.Kind) {
		s, p := newProvider(t, kind)
		s.Enqueue(providertest.Reply{Status: http.StatusNotFound})
		req := userTurn("hi")
		req.Model = "gpt-17"
		_, err := p.Stream(t.Context(), req, nil)
		if !errors.Is(err, provider.ErrModelNotFound) || !strings.Contains(err.Error(), `no model "gpt-17"`) {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestOtherHTTPErrorsCarryTheProvidersMessage(t *testing.T) {
	forEachKind(t, func(t *testing.T, kind provider.Kind) {
		s, p := newProvider(t, kind)
		s.Enqueue(providertest.Reply{Status: http.StatusBadRequest, Error: "prompt is too long: 250000 tokens > 200000 maximum"})
		_, err := p.Stream(t.Context(), userTurn("hi"), nil)
		var e *provider.Error
		if !errors.As(err, &e) || e.Status != http.StatusBadRequest || e.Op != "stream" || e.Provider != "fake" {
			t.Fatalf("err = %#v", err)
		}
		if !strings.Contains(err.Error(), "prompt is too long") {
			t.Fatalf("message %q lacks the provider's", err)
		}
		// Nothing scripted: the fake's own 500 comes through as is, unretried.
		_, err = p.Stream(t.Context(), userTurn("hi"), nil)
		if !errors.As(err, &e) || e.Status != http.StatusInternalServerError || !strings.Contains(err.Error(), "no scripted reply") {
			t.Fatalf("err = %v", err)
		}
		if len(s.Requests()) != 2 {
			t.Fatalf("%d requests", len(s.Requests()))
		}
	})
}

// closedAddr is an address nothing listens on.
func closedAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

func TestUnreachable(t *testing.T) {
	addr := closedAddr(t)
	for _, kind := range []provider.Kind{provider.KindOpenAI, provider.KindAnthropic, provider.KindOllama} {
		t.Run(string(kind), func(t *testing.T) {
			p, err := provider.New(provider.Config{Kind: kind, Name: "local", BaseURL: "http://" + addr})
			if err != nil {
				t.Fatal(err)
			}
			_, err = p.Stream(t.Context(), userTurn("hi"), nil)
			if !errors.Is(err, provider.ErrUnreachable) || !strings.Contains(err.Error(), "check that it is running") {
				t.Fatalf("stream: %v", err)
			}
			if _, err := p.Models(t.Context()); !errors.Is(err, provider.ErrUnreachable) {
				t.Fatalf("models: %v", err)
			}
		})
	}
}

func TestModels(t *testing.T) {
	list := []providertest.Model{
		{ID: "zeta-2", DisplayName: "Zeta 2", ContextWindow: 200000},
		{ID: "alpha-1"},
	}
	cases := []struct {
		kind provider.Kind
		want []provider.Model
	}{
		{provider.KindOpenAI, []provider.Model{{ID: "alpha-1", Name: "alpha-1"}, {ID: "zeta-2", Name: "zeta-2", ContextWindow: 200000}}},
		{provider.KindAnthropic, []provider.Model{{ID: "alpha-1", Name: "alpha-1"}, {ID: "zeta-2", Name: "Zeta 2", ContextWindow: 200000}}},
		// Ollama's list has no lengths: each model's /api/show does.
		{provider.KindOllama, []provider.Model{{ID: "alpha-1", Name: "alpha-1"}, {ID: "zeta-2", Name: "zeta-2", ContextWindow: 200000}}},
	}
	for _, tc := range cases {
		t.Run(string(tc.kind), func(t *testing.T) {
			s, p := newProvider(t, tc.kind)
			s.SetModelList(list)
			got, err := p.Models(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Fatalf("models %+v, want %+v", got, tc.want)
			}
			calls := chatCalls(s.Calls())
			wantPath := map[provider.Kind]string{provider.KindOpenAI: "/v1/models", provider.KindAnthropic: "/v1/models", provider.KindOllama: "/api/tags"}[tc.kind]
			if tc.kind == provider.KindOpenAI && len(calls) == 3 && calls[1].Path == "/api/v0/models" && calls[2].Path == "/props" {
				calls = calls[:1] // LM Studio's loaded context and llama.cpp's n_ctx, asked for the models listed without one
			}
			if len(calls) != 1 || calls[0].Path != wantPath {
				t.Fatalf("calls %+v, want one GET %s", calls, wantPath)
			}
		})
	}
}

func TestModelsRejectedKey(t *testing.T) {
	forEachKind(t, func(t *testing.T, kind provider.Kind) {
		s, p := newProvider(t, kind)
		s.RequireKey("sk-other")
		if _, err := p.Models(t.Context()); !errors.Is(err, provider.ErrAuth) {
			t.Fatalf("err = %v, want ErrAuth", err)
		}
	})
}

func TestOllamaChatsNatively(t *testing.T) {
	s, p := newProvider(t, provider.KindOllama)
	s.Enqueue(providertest.Reply{Text: "local answer"})
	resp, err := p.Stream(t.Context(), userTurn("hi"), nil)
	if err != nil || resp.Text != "local answer" {
		t.Fatalf("%q, %v", resp.Text, err)
	}
	if c := chatCalls(s.Calls()); len(c) != 1 || c[0].Path != "/api/chat" {
		t.Fatalf("calls %+v, want one POST /api/chat", c)
	}
}

// chatCalls leaves out Ollama's /api/show, which a client asks for a
// model's context length before it chats or lists.
func chatCalls(calls []providertest.Call) []providertest.Call {
	out := calls[:0:0]
	for _, c := range calls {
		if c.Path != "/api/show" {
			out = append(out, c)
		}
	}
	return out
}

func TestToolResultsOllamaFormat(t *testing.T) {
	s, p := newProvider(t, provider.KindOllama)
	s.Enqueue(providertest.Reply{Text: "a is a logo"})
	req := followUp()
	temp := 0.2
	req.MaxTokens, req.Temperature = 100, &temp
	png := provider.Image{MIMEType: "image/png", Data: "iVBORw0KGgo="}
	req.Messages[2].Images = []provider.Image{png}
	req.Messages = append(req.Messages, provider.Message{Role: provider.RoleUser, Text: "and this?", Images: []provider.Image{{MIMEType: "image/jpeg", Data: "/9j/4AAQ"}}})
	if _, err := p.Stream(t.Context(), req, nil); err != nil {
		t.Fatal(err)
	}
	var body struct {
		Messages []struct {
			Role       string   `json:"role"`
			Content    string   `json:"content"`
			Images     []string `json:"images"`
			ToolName   string   `json:"tool_name"`
			ToolCallID string   `json:"tool_call_id"`
			ToolCalls  []struct {
				ID       string `json:"id"`
				Function struct {
					Name      string          `json:"name"`
					Arguments json.RawMessage `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"messages"`
		Stream  bool `json:"stream"`
		Options struct {
			NumPredict  int     `json:"num_predict"`
			Temperature float64 `json:"temperature"`
		} `json:"options"`
	}
	raw := s.Requests()[0]
	if err := json.Unmarshal(raw, &body); err != nil {
		t.Fatal(err)
	}
	roles := []string{}
	for _, m := range body.Messages {
		roles = append(roles, m.Role)
	}
	if strings.Join(roles, ",") != "system,user,assistant,tool,tool,user" {
		t.Fatalf("roles %v in %s", roles, raw)
	}
	if !body.Stream || body.Options.NumPredict != 100 || body.Options.Temperature != 0.2 || body.Messages[0].Content != "Be brief." {
		t.Errorf("stream, options or system wrong: %s", raw)
	}
	a := body.Messages[2]
	alias := sentToolNames(t, provider.KindOllama, raw)[0]
	if a.Content != "Sure." || len(a.ToolCalls) != 2 || a.ToolCalls[0].ID != "c1" || a.ToolCalls[0].Function.Name != alias ||
		string(a.ToolCalls[0].Function.Arguments) != `{"path":"a"}` || string(a.ToolCalls[1].Function.Arguments) != `{}` {
		t.Fatalf("assistant %+v: want the calls with object arguments and the alias %q", a, alias)
	}
	// The tool's image is in its own message's images field, as plain base64.
	if m := body.Messages[3]; m.ToolCallID != "c1" || m.ToolName != alias || m.Content != "contents of a" || len(m.Images) != 1 || m.Images[0] != png.Data {
		t.Errorf("first result %+v", m)
	}
	if m := body.Messages[4]; m.ToolCallID != "c2" || m.ToolName != "files__list" || m.Content != "Error: permission denied" || len(m.Images) != 0 {
		t.Errorf("second result %+v", m)
	}
	if m := body.Messages[5]; m.Content != "and this?" || len(m.Images) != 1 || m.Images[0] != "/9j/4AAQ" {
		t.Errorf("user turn with an image %+v", m)
	}
	if strings.Contains(string(raw), "data:") || strings.Contains(string(raw), "image_url") {
		t.Errorf("images went as data: URLs: %s", raw)
	}

	// Asked to use no tool, Ollama (which has no tool_choice) is offered none.
	s.Enqueue(providertest.Reply{Text: "ok"})
	req.ToolChoice = provider.ToolChoiceNone
	if _, err := p.Stream(t.Context(), req, nil); err != nil {
		t.Fatal(err)
	}
	if n := len(sentToolNames(t, provider.KindOllama, s.Requests()[1])); n != 0 {
		t.Errorf("tool choice none still offered %d tools", n)
	}
}

// TestOllamaErrorMidStream: Ollama reports a failure after the answer began
// as a line with only "error"; what arrived is kept.
func TestOllamaErrorMidStream(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-ndjson")
		_, _ = io.WriteString(w, `{"model":"m1","message":{"role":"assistant","content":"Half "},"done":false}`+"\n"+
			`{"error":"an error was encountered while running the model"}`+"\n")
	}))
	t.Cleanup(srv.Close)
	p, err := provider.New(provider.Config{Kind: provider.KindOllama, Name: "local", BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := p.Stream(t.Context(), userTurn("hi"), nil)
	if !errors.Is(err, provider.ErrIncomplete) || !strings.Contains(err.Error(), "an error was encountered while running the model") || resp.Text != "Half " {
		t.Fatalf("%q, %v", resp.Text, err)
	}
}

func TestDetectOllama(t *testing.T) {
	fake := providertest.NewServer(t)
	notOllama := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(notOllama.Close)
	cases := []struct {
		name string
		url  string
		want bool
	}{
		{"ollama", fake.BaseURL(), true},
		{"ollama with /v1", fake.BaseURL() + "/v1", true},
		{"something else", notOllama.URL, false},
		{"nothing listening", "http://" + closedAddr(t), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := provider.DetectOllama(t.Context(), tc.url)
			if err != nil || got != tc.want {
				t.Fatalf("DetectOllama(%s) = %v, %v; want %v", tc.url, got, err, tc.want)
			}
		})
	}
	if _, err := provider.DetectOllama(t.Context(), "ftp://127.0.0.1"); !errors.Is(err, provider.ErrConfig) {
		t.Fatalf("bad URL: %v", err)
	}
}

func TestNewChecksTheBaseURL(t *testing.T) {
	cases := []struct {
		kind provider.Kind
		url  string
		ok   bool
	}{
		{provider.KindOpenAI, "", true},
		{provider.KindOpenAI, "https://openrouter.ai/api/v1", true},
		{provider.KindOpenAI, "http://127.0.0.1:1234/v1", true},
		{provider.KindOpenAI, "http://[::1]:8000/v1", true},
		{provider.KindOpenAI, "http://192.168.1.20:8000/v1", true},
		{provider.KindOpenAI, "http://gpu-box:8000/v1", true},
		{provider.KindOllama, "http://studio.local:11434", true},
		{provider.KindAnthropic, "https://api.anthropic.com/v1", true},
		{provider.KindOpenAI, "http://api.example.com/v1", false},
		{provider.KindOpenAI, "http://8.8.8.8/v1", false},
		{provider.KindOpenAI, "ftp://127.0.0.1/v1", false},
		{provider.KindOpenAI, "127.0.0.1:1234", false},
		{provider.KindOpenAI, "https://user:secret@example.com/v1", false},
		{"gemini", "https://example.com", false},
	}
	for _, tc := range cases {
		t.Run(string(tc.kind)+" "+tc.url, func(t *testing.T) {
			_, err := provider.New(provider.Config{Kind: tc.kind, Name: "x", BaseURL: tc.url})
			if tc.ok && err != nil {
				t.Fatalf("refused: %v", err)
			}
			if !tc.ok && !errors.Is(err, provider.ErrConfig) {
				t.Fatalf("err = %v, want ErrConfig", err)
			}
			if err != nil && strings.Contains(err.Error(), "secret") {
				t.Fatalf("message leaks the password: %v", err)
			}
		})
	}
}

func TestRequestsNeedAModel(t *testing.T) {
	forEachKind(t, func(t *testing.T, kind provider.Kind) {
		s, p := newProvider(t, kind)
		req := userTurn("hi")
		req.Model = ""
		if _, err := p.Stream(t.Context(), req, nil); !errors.Is(err, provider.ErrConfig) {
			t.Fatalf("err = %v", err)
		}
		if len(s.Calls()) != 0 {
			t.Fatal("a request without a model was sent")
		}
	})
}

func TestRulesAnswerByContent(t *testing.T) {
	forEachKind(t, func(t *testing.T, kind provider.Kind) {
		s, p := newProvider(t, kind)
		s.Enqueue(
			providertest.Reply{When: "weather", ToolCalls: []providertest.ToolCall{{ID: "w1", Name: "wx__get", Arguments: `{"city":"Oslo"}`}}},
			providertest.Reply{When: "12°C", Text: "It is 12°C in Oslo."},
		)
		req := userTurn("what is the weather?")
		req.Tools = []provider.Tool{{Name: "wx__get"}}
		for range 2 { // rules are not used up
			resp, err := p.Stream(t.Context(), req, nil)
			if err != nil || len(resp.ToolCalls) != 1 || resp.ToolCalls[0].Name != "wx__get" {
				t.Fatalf("%+v, %v", resp, err)
			}
		}
		req.Messages = append(req.Messages,
			provider.Message{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "w1", Name: "wx__get", Arguments: json.RawMessage(`{"city":"Oslo"}`)}}},
			provider.Message{Role: provider.RoleTool, ToolCallID: "w1", ToolName: "wx__get", Text: "12°C, cloudy"},
		)
		resp, err := p.Stream(t.Context(), req, nil)
		if err != nil || resp.Text != "It is 12°C in Oslo." {
			t.Fatalf("%q, %v", resp.Text, err)
		}
	})
}

func TestConcurrentStreams(t *testing.T) {
	forEachKind(t, func(t *testing.T, kind provider.Kind) {
		s, p := newProvider(t, kind)
		const n = 8
		for i := range n {
			s.Enqueue(providertest.Reply{When: fmt.Sprintf("q%d?", i), Text: fmt.Sprintf("answer %d", i)})
		}
		errs := make(chan error, n)
		for i := range n {
			go func() {
				resp, err := p.Stream(t.Context(), userTurn(fmt.Sprintf("q%d?", i)), nil)
				if err == nil && resp.Text != fmt.Sprintf("answer %d", i) {
					err = fmt.Errorf("stream %d got %q", i, resp.Text)
				}
				errs <- err
			}()
		}
		for range n {
			if err := <-errs; err != nil {
				t.Error(err)
			}
		}
	})
}

// A top-level property name Anthropic refuses ("$filter", "rule_name[]",
// one with a space) would fail every request of a chat; it goes under a
// name the API takes, and the model's call comes back with the server's.
func TestAnthropicPropertyNames(t *testing.T) {
	s, p := newProvider(t, provider.KindAnthropic)
	schema := json.RawMessage(`{"type":"object","required":["$top","rule_name[]"],"properties":{
		"$filter":{"type":"string","description":"OData filter"},"filter":{"type":"string"},
		"$top":{"type":"integer"},"rule_name[]":{"type":"array","items":{"type":"string"}},
		"Account Number":{"type":"string"},"ok.name-1":{"type":"string"}}}`)
	tools := []provider.Tool{{Name: "graph__list_users", InputSchema: schema}}
	req := userTurn("list them")
	req.Tools = tools
	s.Enqueue(providertest.Reply{Text: "first"})
	if _, err := p.Stream(t.Context(), req, nil); err != nil {
		t.Fatal(err) // the fake refuses the names the API refuses
	}
	var body struct {
		Tools []struct {
			InputSchema struct {
				Required   []string                   `json:"required"`
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"input_schema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(s.Requests()[0], &body); err != nil {
		t.Fatal(err)
	}
	sent := body.Tools[0].InputSchema
	for _, k := range []string{"filter", "top", "rule_name", "Account_Number", "ok.name-1"} {
		if _, ok := sent.Properties[k]; !ok {
			t.Errorf("no property %q among %v", k, sortedKeys(sent.Properties))
		}
	}
	if len(sent.Properties) != 6 {
		t.Fatalf("properties %v, want 6", sortedKeys(sent.Properties))
	}
	var dollarFilter string // "filter" is taken: "$filter" gets a hash
	for k, v := range sent.Properties {
		if strings.HasPrefix(k, "filter_") {
			dollarFilter = k
			if !strings.Contains(string(v), `OData filter`) || !strings.Contains(string(v), `\"$filter\"`) {
				t.Errorf("%s: %s, want its description and the tool's name for it", k, v)
			}
		}
	}
	if dollarFilter == "" || !slices.Equal(sent.Required, []string{"top", "rule_name"}) {
		t.Fatalf("$filter sent as %q, required %v", dollarFilter, sent.Required)
	}

	args := `{"` + dollarFilter + `":"x eq 1","filter":"plain","top":5,"rule_name":["a"],"Account_Number":"12"}`
	s.Enqueue(providertest.Reply{ToolCalls: []providertest.ToolCall{{ID: "toolu_1", Name: "graph__list_users", Arguments: args}}})
	resp, err := p.Stream(t.Context(), req, nil)
	if err != nil || len(resp.ToolCalls) != 1 {
		t.Fatalf("%+v, %v", resp, err)
	}
	var got map[string]any
	if err := json.Unmarshal(resp.ToolCalls[0].Arguments, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"$filter": "x eq 1", "filter": "plain", "$top": 5.0, "rule_name[]": []any{"a"}, "Account Number": "12"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("arguments %v, want the server's names %v", got, want)
	}

	// The call sent again in the history is in the names the model knows.
	req.Messages = append(req.Messages,
		provider.Message{Role: provider.RoleAssistant, ToolCalls: resp.ToolCalls},
		provider.Message{Role: provider.RoleTool, ToolCallID: "toolu_1", Text: "3 users"})
	s.Enqueue(providertest.Reply{Text: "done"})
	if _, err := p.Stream(t.Context(), req, nil); err != nil {
		t.Fatal(err)
	}
	if last := string(s.Requests()[2]); !strings.Contains(last, `"`+dollarFilter+`":"x eq 1"`) || strings.Contains(last, `"$top"`) {
		t.Errorf("the past call is not in the sent names: %s", last)
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// A sampling request's stop sequences reach each wire in its own field:
// OpenAI's stop (four at most), Anthropic's stop_sequences, Ollama's
// options.stop.
func TestStopSequences(t *testing.T) {
	stop := []string{"STOP", "END", "###", "\n\n", "fifth"}
	for kind, want := range map[provider.Kind]string{
		provider.KindOpenAI:    `"stop":["STOP","END","###","\n\n"]`,
		provider.KindAnthropic: `"stop_sequences":["STOP","END","###","\n\n","fifth"]`,
		provider.KindOllama:    `"stop":["STOP","END","###","\n\n","fifth"]`,
	} {
		s, p := newProvider(t, kind)
		s.Enqueue(providertest.Reply{Text: "ok"})
		req := userTurn("write until STOP")
		req.Stop = stop
		if _, err := p.Stream(t.Context(), req, nil); err != nil {
			t.Fatal(kind, err)
		}
		if body := string(s.Requests()[0]); !strings.Contains(body, want) {
			t.Errorf("%s: no %s in %s", kind, want, body)
		}
		s.Enqueue(providertest.Reply{Text: "ok"})
		if _, err := p.Stream(t.Context(), userTurn("no stops"), nil); err != nil {
			t.Fatal(kind, err)
		}
		if body := string(s.Requests()[1]); strings.Contains(body, `"stop`) {
			t.Errorf("%s: a request without stop sequences has some: %s", kind, body)
		}
	}
}
