package providertest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"
)

// chatRequest is the part of either API's chat request the fake reads.
type chatRequest struct {
	Model         string `json:"model"`
	Stream        *bool  `json:"stream"`
	StreamOptions struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	// Ollama's: the tools offered, and options.num_ctx, the context the
	// request is run in.
	Tools json.RawMessage `json:"tools"`
	// Anthropic's system prompt: a string, or text blocks that may be
	// marked for the prompt cache.
	System  json.RawMessage `json:"system"`
	Options struct {
		NumCtx int `json:"num_ctx"`
	} `json:"options"`
}

// anthropicKey is what the Messages API takes as a top-level property
// name of a tool's input_schema.
var anthropicKey = regexp.MustCompile(`^[a-zA-Z0-9_.-]{1,64}$`)

// badPropertyKey is the Messages API's error for the first tool whose
// input_schema has a top-level property name it refuses, or "".
func (r chatRequest) badPropertyKey() string {
	var tools []struct {
		InputSchema struct {
			Properties map[string]json.RawMessage `json:"properties"`
		} `json:"input_schema"`
	}
	if json.Unmarshal(r.Tools, &tools) != nil {
		return ""
	}
	for i, t := range tools {
		for k := range t.InputSchema.Properties {
			if !anthropicKey.MatchString(k) {
				return fmt.Sprintf("tools.%d.custom.input_schema.properties: Property keys should match pattern '^[a-zA-Z0-9_.-]{1,64}$'", i)
			}
		}
	}
	return ""
}

// OllamaDefaultCtx is the context Ollama runs a request in when it names
// no num_ctx.
const OllamaDefaultCtx = 2048

// promptTokens is a floor for the tokens of an Ollama request's prompt:
// its messages' and tools' JSON at 4 bytes a token (English text and JSON
// run 3 to 4).
func (r chatRequest) promptTokens() int {
	n := len(r.Tools)
	for _, m := range r.Messages {
		n += len(m.Role) + len(m.Content)
	}
	return n / 4
}

// cachePrefix is the part of an Anthropic request its prompt cache would
// hold: the tools, then the system blocks, up to the last one marked
// cache_control ephemeral; "" when none is. (The real API also caches
// marked messages, and nothing under its minimum length; the fake keeps
// to the stable prefix a chat marks.)
func (r chatRequest) cachePrefix() string {
	var b strings.Builder
	prefix := ""
	var tools, system []json.RawMessage
	_ = json.Unmarshal(r.Tools, &tools)
	_ = json.Unmarshal(r.System, &system) // a plain string has no markers
	for _, block := range append(tools, system...) {
		b.Write(block)
		var v struct {
			CacheControl struct {
				Type string `json:"type"`
			} `json:"cache_control"`
		}
		if json.Unmarshal(block, &v) == nil && v.CacheControl.Type == "ephemeral" {
			prefix = b.String()
		}
	}
	return prefix
}

// streams says whether the answer is to be streamed: when asked, and for
// Ollama also when not said (its default).
func (r chatRequest) streams(api string) bool {
	if r.Stream == nil {
		return api == apiOllama
	}
	return *r.Stream
}

// lastUserText is the text of the last user-side message: a user message,
// or a tool result (an OpenAI or Ollama "tool" message; Anthropic's
// tool_result blocks are inside a user message already).
func (r chatRequest) lastUserText(api string) string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		m := r.Messages[i]
		if m.Role == "user" || api != apiAnthropic && m.Role == "tool" {
			return contentText(m.Content)
		}
	}
	return ""
}

// contentText flattens message content: a string, or an array of parts
// whose text (and tool results' content) is joined.
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text    string          `json:"text"`
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return ""
	}
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
		if len(p.Content) > 0 {
			b.WriteString(contentText(p.Content))
		}
	}
	return b.String()
}

// answer writes one Reply in one API's format.
type answer struct {
	Reply
	api, model string
	seq        int
	bodySize   int
	done       <-chan struct{}

	w      http.ResponseWriter
	ctx    context.Context
	deltas int // content deltas written

	// The prompt cache's part of the input (Anthropic): tokens read from
	// it, or written to it by a first request with that prefix.
	cacheRead, cacheCreation int
}

// errDropped stops writing after a Malformed drop; the response then ends
// cleanly.
var errDropped = errors.New("providertest: stream dropped as scripted")

func (a *answer) callID(i int) string {
	if id := a.ToolCalls[i].ID; id != "" {
		return id
	}
	if a.api == apiAnthropic {
		return fmt.Sprintf("toolu_%d_%d", a.seq, i)
	}
	return fmt.Sprintf("call_%d_%d", a.seq, i)
}

func (a *answer) usage(deltas int) Usage {
	if a.Usage != nil {
		return *a.Usage
	}
	return Usage{InputTokens: a.bodySize/4 + 1, OutputTokens: deltas, CacheReadTokens: a.cacheRead, CacheCreationTokens: a.cacheCreation}
}

// anthropicUsage is u in Anthropic's terms: input_tokens counts what the
// cache did not hold.
func anthropicUsage(u Usage, output int) map[string]any {
	return map[string]any{
		"input_tokens":                max(u.InputTokens-u.CacheReadTokens-u.CacheCreationTokens, 0),
		"cache_read_input_tokens":     u.CacheReadTokens,
		"cache_creation_input_tokens": u.CacheCreationTokens,
		"output_tokens":               output,
	}
}

// openAIUsage is u in OpenAI's terms.
func openAIUsage(u Usage) map[string]any {
	m := map[string]any{"prompt_tokens": u.InputTokens, "completion_tokens": u.OutputTokens, "total_tokens": u.InputTokens + u.OutputTokens}
	if u.CacheReadTokens > 0 {
		m["prompt_tokens_details"] = map[string]any{"cached_tokens": u.CacheReadTokens}
	}
	return m
}

func (a *answer) stopReason() string {
	switch {
	case a.api != apiAnthropic && a.Stop == "max_tokens":
		return "length"
	case a.Stop != "":
		return a.Stop
	case a.api == apiOpenAI && len(a.ToolCalls) > 0:
		return "tool_calls"
	case a.api == apiOpenAI:
		return "stop"
	case a.api == apiOllama:
		return "stop" // after tool calls too
	case len(a.ToolCalls) > 0:
		return "tool_use"
	default:
		return "end_turn"
	}
}

// textPieces splits text after each run of spaces, or every ChunkSize bytes.
func (a *answer) textPieces(s string) []string {
	if a.ChunkSize > 0 {
		return chunks(s, a.ChunkSize)
	}
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == ' ' && (i+1 == len(s) || s[i+1] != ' ') {
			out = append(out, s[start:i+1])
			start = i + 1
		}
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

func (a *answer) argPieces(s string) []string {
	n := a.ChunkSize
	if n <= 0 {
		n = 6
	}
	return chunks(s, n)
}

// chunks cuts s into pieces of about n bytes, never inside a rune.
func chunks(s string, n int) []string {
	var out []string
	for len(s) > 0 {
		end := min(n, len(s))
		for end < len(s) && !utf8.RuneStart(s[end]) {
			end++
		}
		out = append(out, s[:end])
		s = s[end:]
	}
	return out
}

// event writes one SSE event (name is "" for OpenAI's unnamed events), or
// for Ollama one line of JSON.
func (a *answer) event(name string, data any) {
	b, _ := json.Marshal(data)
	if a.api == apiOllama {
		fmt.Fprintf(a.w, "%s\n", b)
		a.flush()
		return
	}
	if name != "" {
		fmt.Fprintf(a.w, "event: %s\n", name)
	}
	fmt.Fprintf(a.w, "data: %s\n\n", b)
	a.flush()
}

func (a *answer) flush() {
	if f, ok := a.w.(http.Flusher); ok {
		f.Flush()
	}
}

// delta writes a content delta, after the scripted pause, or drops the
// stream as scripted.
func (a *answer) delta(name string, data any) error {
	if err := a.next(name); err != nil {
		return err
	}
	a.event(name, data)
	a.deltas++
	return nil
}

// next waits the scripted pause before a delta, or drops the stream as
// scripted instead.
func (a *answer) next(name string) error {
	if a.DropAfter > 0 && a.deltas == a.DropAfter {
		if a.Malformed {
			if a.api == apiOllama {
				_, _ = io.WriteString(a.w, "{\"garbled\": [\n")
				a.flush()
				return errDropped
			}
			if name != "" {
				fmt.Fprintf(a.w, "event: %s\n", name)
			}
			_, _ = io.WriteString(a.w, "data: {\"garbled\": [\n\n")
			a.flush()
			return errDropped
		}
		// Abort the connection mid-response: the client sees the body end
		// without its terminating chunk, as when a network drops.
		panic(http.ErrAbortHandler)
	}
	if a.deltas > 0 {
		if err := pause(a.ctx, a.done, a.Delay); err != nil {
			return err
		}
	}
	return nil
}

func (a *answer) stream(ctx context.Context, w http.ResponseWriter, includeUsage bool) {
	a.w, a.ctx = w, ctx
	if a.api == apiOllama {
		w.Header().Set("Content-Type", "application/x-ndjson")
		w.WriteHeader(http.StatusOK)
		_ = a.streamOllama()
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	if a.api == apiAnthropic {
		_ = a.streamAnthropic()
	} else {
		_ = a.streamOpenAI(includeUsage)
	}
}

func (a *answer) streamOpenAI(includeUsage bool) error {
	id := fmt.Sprintf("chatcmpl-fake-%d", a.seq)
	created := time.Now().Unix()
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": created, "model": a.model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": nil}},
		}
	}
	a.event("", chunk(map[string]any{"role": "assistant", "content": ""}, nil))
	for _, p := range a.textPieces(a.Text) {
		if err := a.delta("", chunk(map[string]any{"content": p}, nil)); err != nil {
			return err
		}
	}
	for i, c := range a.ToolCalls {
		a.event("", chunk(map[string]any{"tool_calls": []any{map[string]any{
			"index": i, "id": a.callID(i), "type": "function",
			"function": map[string]any{"name": c.Name, "arguments": ""},
		}}}, nil))
		for _, p := range a.argPieces(c.Arguments) {
			if err := a.delta("", chunk(map[string]any{"tool_calls": []any{map[string]any{
				"index": i, "function": map[string]any{"arguments": p},
			}}}, nil)); err != nil {
				return err
			}
		}
	}
	a.event("", chunk(map[string]any{}, a.stopReason()))
	if includeUsage {
		u := a.usage(a.deltas)
		a.event("", map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": created, "model": a.model, "choices": []any{},
			"usage": openAIUsage(u),
		})
	}
	_, _ = io.WriteString(a.w, "data: [DONE]\n\n")
	a.flush()
	return nil
}

func (a *answer) streamAnthropic() error {
	u := a.usage(len(a.textPieces(a.Text)))
	a.event("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": fmt.Sprintf("msg_fake_%d", a.seq), "type": "message", "role": "assistant", "model": a.model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil,
		"usage": anthropicUsage(u, 1),
	}})
	a.event("ping", map[string]any{"type": "ping"})
	block := 0
	if a.Text != "" {
		a.event("content_block_start", map[string]any{"type": "content_block_start", "index": block, "content_block": map[string]any{"type": "text", "text": ""}})
		for _, p := range a.textPieces(a.Text) {
			if err := a.delta("content_block_delta", map[string]any{"type": "content_block_delta", "index": block, "delta": map[string]any{"type": "text_delta", "text": p}}); err != nil {
				return err
			}
		}
		a.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": block})
		block++
	}
	for i, c := range a.ToolCalls {
		a.event("content_block_start", map[string]any{"type": "content_block_start", "index": block, "content_block": map[string]any{
			"type": "tool_use", "id": a.callID(i), "name": c.Name, "input": map[string]any{},
		}})
		for _, p := range a.argPieces(c.Arguments) {
			if err := a.delta("content_block_delta", map[string]any{"type": "content_block_delta", "index": block, "delta": map[string]any{"type": "input_json_delta", "partial_json": p}}); err != nil {
				return err
			}
		}
		a.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": block})
		block++
	}
	u = a.usage(a.deltas)
	a.event("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": a.stopReason(), "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": u.OutputTokens},
	})
	a.event("message_stop", map[string]any{"type": "message_stop"})
	return nil
}

// ollamaCall is call i as Ollama sends it: whole, its arguments an object
// (a string when the script's arguments are not JSON).
func (a *answer) ollamaCall(i int) map[string]any {
	c := a.ToolCalls[i]
	var args any = json.RawMessage(`{}`)
	switch {
	case json.Valid([]byte(c.Arguments)):
		args = json.RawMessage(c.Arguments)
	case c.Arguments != "":
		args = c.Arguments
	}
	return map[string]any{"id": a.callID(i), "function": map[string]any{"index": i, "name": c.Name, "arguments": args}}
}

// ollamaLine is one line of an Ollama chat answer.
func (a *answer) ollamaLine(msg map[string]any) map[string]any {
	return map[string]any{"model": a.model, "created_at": time.Now().UTC().Format(time.RFC3339Nano), "message": msg, "done": false}
}

// streamOllama writes an Ollama chat answer: a line per text piece, a line
// per tool call once all its argument pieces are (Ollama parses a call
// whole before sending it; its pieces count as deltas for DropAfter and
// Delay all the same), then the done line with the token counts.
func (a *answer) streamOllama() error {
	for _, p := range a.textPieces(a.Text) {
		if err := a.delta("", a.ollamaLine(map[string]any{"role": "assistant", "content": p})); err != nil {
			return err
		}
	}
	for i, c := range a.ToolCalls {
		for range a.argPieces(c.Arguments) {
			if err := a.next(""); err != nil {
				return err
			}
			a.deltas++
		}
		a.event("", a.ollamaLine(map[string]any{"role": "assistant", "content": "", "tool_calls": []any{a.ollamaCall(i)}}))
	}
	u := a.usage(a.deltas)
	last := a.ollamaLine(map[string]any{"role": "assistant", "content": ""})
	last["done"], last["done_reason"] = true, a.stopReason()
	last["total_duration"], last["prompt_eval_count"], last["eval_count"] = 1000000, u.InputTokens, u.OutputTokens
	a.event("", last)
	return nil
}

// writeWhole answers a request that did not ask for streaming.
func (a *answer) writeWhole(w http.ResponseWriter) {
	deltas := len(a.textPieces(a.Text))
	for _, c := range a.ToolCalls {
		deltas += len(a.argPieces(c.Arguments))
	}
	u := a.usage(deltas)
	if a.api == apiOllama {
		msg := map[string]any{"role": "assistant", "content": a.Text}
		if len(a.ToolCalls) > 0 {
			calls := make([]any, len(a.ToolCalls))
			for i := range a.ToolCalls {
				calls[i] = a.ollamaCall(i)
			}
			msg["tool_calls"] = calls
		}
		whole := a.ollamaLine(msg)
		whole["done"], whole["done_reason"] = true, a.stopReason()
		whole["prompt_eval_count"], whole["eval_count"] = u.InputTokens, u.OutputTokens
		writeJSON(w, http.StatusOK, whole)
		return
	}
	if a.api == apiAnthropic {
		content := []any{}
		if a.Text != "" {
			content = append(content, map[string]any{"type": "text", "text": a.Text})
		}
		for i, c := range a.ToolCalls {
			var input any = map[string]any{}
			_ = json.Unmarshal([]byte(c.Arguments), &input)
			content = append(content, map[string]any{"type": "tool_use", "id": a.callID(i), "name": c.Name, "input": input})
		}
		writeJSON(w, http.StatusOK, map[string]any{
			"id": fmt.Sprintf("msg_fake_%d", a.seq), "type": "message", "role": "assistant", "model": a.model,
			"content": content, "stop_reason": a.stopReason(), "stop_sequence": nil,
			"usage": anthropicUsage(u, u.OutputTokens),
		})
		return
	}
	msg := map[string]any{"role": "assistant", "content": a.Text}
	if len(a.ToolCalls) > 0 {
		calls := make([]any, len(a.ToolCalls))
		for i, c := range a.ToolCalls {
			calls[i] = map[string]any{"id": a.callID(i), "type": "function", "function": map[string]any{"name": c.Name, "arguments": c.Arguments}}
		}
		msg["tool_calls"] = calls
		if a.Text == "" {
			msg["content"] = nil
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"id": fmt.Sprintf("chatcmpl-fake-%d", a.seq), "object": "chat.completion", "created": time.Now().Unix(), "model": a.model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": a.stopReason(), "logprobs": nil}},
		"usage":   openAIUsage(u),
	})
}
