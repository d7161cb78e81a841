package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/respjson"
	"github.com/openai/openai-go/v3/shared"
)

// openAIProvider speaks OpenAI chat completions.
type openAIProvider struct {
	name   string
	client openai.Client
	// maxCompletionTokens: api.openai.com refuses max_tokens for reasoning
	// models, while many compatible servers know only max_tokens.
	maxCompletionTokens bool
	// base and httpc reach the server's own API beside /v1 (LM Studio's
	// loaded context, lmstudio.go).
	base  *url.URL
	httpc *http.Client
	// dialect is the JSON Schema the server accepts in tool definitions.
	dialect Dialect
	// key is the API key, for the server's own API beside /v1 (count.go).
	key string
}

var _ ToolLimiter = (*openAIProvider)(nil)

// openAIMaxTools is OpenAI's limit on the tools of one request ("Invalid
// 'tools': array too long. Expected an array with maximum length 128").
const openAIMaxTools = 128

// Tool descriptions go whole: OpenAI's API refused one over 1,024
// characters until spring 2025 and takes them whole since (found by
// run-llama/llama_index#18784, which dropped its own check), and many MCP servers put
// their usage rules there (desktop-commander, circleci: 2–4k characters).
// An endpoint that still refuses one (a gateway in front of OpenAI, an
// older deployment: "Invalid 'tools[3].function.description': string too
// long. Expected a string with maximum length 1024") has the request sent
// again at once with every description cut to the limit it stated, marked
// as shortened, and keeps that limit for the rest of the app's run (the
// app opens its provider again for every turn).
var (
	// descriptionTooLong is that refusal; its group is the limit.
	descriptionTooLong = regexp.MustCompile(`(?i)\.description'?:? string too long\. expected a string with maximum length (\d+)`)
	// descriptionLimits are the limits endpoints stated: base URL →
	// characters.
	descriptionLimits sync.Map
)

// shortenedMark ends a description cut to an endpoint's limit, so the
// model knows the rules it reads may go on.
const shortenedMark = " … [description shortened]"

// description is a tool's description as the API takes it: whole, unless
// the endpoint refused one as too long (learnDescriptionLimit), then cut to
// its limit with shortenedMark.
func (p *openAIProvider) description(d string) string {
	v, ok := descriptionLimits.Load(p.endpoint())
	limit, _ := v.(int)
	if !ok || utf8.RuneCountInString(d) <= limit {
		return d
	}
	r, mark := []rune(d), utf8.RuneCountInString(shortenedMark)
	if limit <= mark {
		return string(r[:limit])
	}
	return strings.TrimRightFunc(string(r[:limit-mark]), unicode.IsSpace) + shortenedMark
}

// learnDescriptionLimit keeps the limit a refusal of a too long tool
// description states, and says whether the request should go again: the
// limit is new, or lower than the one that was kept.
func (p *openAIProvider) learnDescriptionLimit(err error) bool {
	var se *statusError
	if !errors.As(err, &se) {
		return false
	}
	m := descriptionTooLong.FindStringSubmatch(se.message)
	if m == nil {
		return false
	}
	limit, aerr := strconv.Atoi(m[1])
	if aerr != nil || limit <= 0 {
		return false
	}
	if v, ok := descriptionLimits.Load(p.endpoint()); ok && v.(int) <= limit {
		return false // cut to it already: something else is too long
	}
	descriptionLimits.Store(p.endpoint(), limit)
	return true
}

// endpoint keys what is learnt about the server: its base URL.
func (p *openAIProvider) endpoint() string {
	if p.base == nil {
		return ""
	}
	return p.base.String()
}

// MaxTools is OpenAI's limit for a hosted OpenAI-compatible API; a server
// on this computer (llama-server, LM Studio) has none.
func (p *openAIProvider) MaxTools() int {
	if p.dialect == DialectLocal {
		return 0
	}
	return openAIMaxTools
}

func newOpenAI(cfg Config, base *url.URL) *openAIProvider {
	return &openAIProvider{
		name: cfg.Name, base: base, httpc: cfg.HTTPClient, key: cfg.APIKey,
		client: openai.NewClient(
			option.WithBaseURL(base.String()),
			// Set even when empty, so OPENAI_API_KEY from the environment
			// never goes to a server the user did not give it to.
			option.WithAPIKey(cfg.APIKey),
			option.WithHeaderDel("OpenAI-Organization"),
			option.WithHeaderDel("OpenAI-Project"),
			option.WithHTTPClient(cfg.HTTPClient),
			option.WithMaxRetries(0), // retries are ours, and visible (EventRetry)
			option.WithMiddleware(statusMiddleware(cfg.APIKey)),
		),
		maxCompletionTokens: strings.EqualFold(base.Hostname(), "api.openai.com"),
		dialect:             DialectFor(KindOpenAI, base.String()),
	}
}

func (p *openAIProvider) Stream(ctx context.Context, req Request, on func(Event)) (Response, error) {
	retryable := func(status int) bool { return status == http.StatusTooManyRequests }
	return stream(ctx, p.name, req, on, openAINameLimit, retryable,
		func(names *toolNames, on func(Event)) (Response, error) {
			resp, err := p.send(ctx, req, names, on)
			if p.learnDescriptionLimit(err) {
				// Refused before any answer: again, descriptions cut.
				resp, err = p.send(ctx, req, names, on)
			}
			return resp, err
		})
}

// send writes the request and streams its answer.
func (p *openAIProvider) send(ctx context.Context, req Request, names *toolNames, on func(Event)) (Response, error) {
	body, err := p.body(req, names)
	if err != nil {
		return Response{}, fmt.Errorf("%s: write the request: %w", p.name, err)
	}
	return p.streamOnce(ctx, req.Model, body, names, on)
}

// body is the request's JSON as sent: the SDK's encoding of its settings,
// then the messages and the tools written here. The SDK encodes by
// reflection, each tool's schema map again at every step, and scans what
// each level wrote once more at every level above it: with 40 tools of
// real servers that took longer than the rest of a step
// (BenchmarkRequestBody), and with a long chat it grew with every message
// sent. Each message and tool is written as the SDK writes it
// (TestRequestAsTheSDKWritesIt, TestToolsAsTheSDKWritesThem); the members
// come in another order, which JSON leaves free.
func (p *openAIProvider) body(req Request, names *toolNames) ([]byte, error) {
	params, msgs, tools := p.request(req, names)
	b, err := params.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return writeBody(b, msgs, tools, wireMessage.appendTo, wireTool.appendItem)
}

// request is the request's settings as the SDK's params, and its messages
// and tools as sent.
func (p *openAIProvider) request(req Request, names *toolNames) (openai.ChatCompletionNewParams, []wireMessage, []wireTool) {
	params := openai.ChatCompletionNewParams{
		Model:         shared.ChatModel(req.Model),
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
	}
	msgs := make([]wireMessage, 0, len(req.Messages)+1)
	if req.System != "" {
		msgs = append(msgs, wireMessage{role: "system", text: req.System})
	}
	var shown []openai.ChatCompletionContentPartUnionParam // images and audio of the step's tool results
	ids := newCallIDs(nil)                                 // a tool_call_id once a request (callIDs)
	for i, m := range req.Messages {
		switch m.Role {
		case RoleUser:
			if len(m.Images) == 0 && len(m.Audio) == 0 {
				msgs = append(msgs, wireMessage{role: "user", text: m.Text})
				break
			}
			var parts []openai.ChatCompletionContentPartUnionParam
			if m.Text != "" {
				parts = append(parts, openai.TextContentPart(m.Text))
			}
			for _, img := range m.Images {
				parts = append(parts, openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{URL: img.dataURL()}))
			}
			for _, a := range m.Audio {
				parts = append(parts, audioPart(a))
			}
			msgs = append(msgs, wireMessage{sdk: openai.UserMessage(parts)})
		case RoleAssistant:
			w := wireMessage{role: "assistant", text: m.Text, content: m.Text != "" || len(m.ToolCalls) == 0}
			ids.turn()
			for _, c := range m.ToolCalls {
				w.calls = append(w.calls, wireCall{id: ids.call(c.ID), name: names.toWire(c.Name), args: argsText(c.Arguments)})
			}
			msgs = append(msgs, w)
		case RoleTool:
			text := m.Text
			if m.IsError {
				text = errorText(text)
			}
			id := ids.result(m.ToolCallID)
			msgs = append(msgs, wireMessage{role: "tool", text: text, toolCallID: id})
			// Tool messages carry text only: the images and audio follow in
			// a user message right after the step's last tool message.
			for j, img := range m.Images {
				if j == 0 {
					shown = append(shown, openai.TextContentPart(fmt.Sprintf("Image returned by %s (call %s):", m.ToolName, id)))
				}
				shown = append(shown, openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{URL: img.dataURL()}))
			}
			for j, a := range m.Audio {
				if j == 0 {
					shown = append(shown, openai.TextContentPart(fmt.Sprintf("Audio returned by %s (call %s):", m.ToolName, id)))
				}
				shown = append(shown, audioPart(a))
			}
			if len(shown) > 0 && (i+1 == len(req.Messages) || req.Messages[i+1].Role != RoleTool) {
				msgs = append(msgs, wireMessage{sdk: openai.UserMessage(shown)})
				shown = nil
			}
		}
	}
	tools := make([]wireTool, 0, len(req.Tools))
	for _, t := range req.Tools {
		tools = append(tools, wireTool{names.toWire(t.Name), p.description(t.Description), ToolSchemaJSON(t.InputSchema, p.dialect)})
	}
	if req.ToolChoice != "" && len(req.Tools) > 0 {
		params.ToolChoice = openai.ChatCompletionToolChoiceOptionUnionParam{OfAuto: openai.String(string(req.ToolChoice))}
	}
	if req.MaxTokens > 0 {
		if p.maxCompletionTokens {
			params.MaxCompletionTokens = openai.Int(int64(req.MaxTokens))
		} else {
			params.MaxTokens = openai.Int(int64(req.MaxTokens))
		}
	}
	if req.Temperature != nil {
		params.Temperature = openai.Float(*req.Temperature)
	}
	if len(req.Stop) > 0 {
		params.Stop = openai.ChatCompletionNewParamsStopUnion{OfStringArray: req.Stop[:min(len(req.Stop), maxOpenAIStop)]}
	}
	return params, msgs, tools
}

// maxOpenAIStop is the most stop sequences OpenAI's API takes.
const maxOpenAIStop = 4

// wireMessage is a message as sent: one of text (role "system", "user",
// "tool" with toolCallID, or "assistant" with content when it has text or
// no calls, and its calls), or one with parts the SDK writes (sdk, role "").
type wireMessage struct {
	role, text, toolCallID string
	content                bool // assistant: has "content"
	calls                  []wireCall
	sdk                    openai.ChatCompletionMessageParamUnion
}

// wireCall is an assistant's tool call as sent.
type wireCall struct{ id, name, args string }

// size is about the bytes appendTo adds.
func (m wireMessage) size() int {
	n := len(m.text) + len(m.toolCallID) + 48
	for _, c := range m.calls {
		n += len(c.id) + len(c.name) + len(c.args) + 64
	}
	return n
}

// appendTo appends the message's JSON as the SDK writes it.
func (m wireMessage) appendTo(b []byte) ([]byte, error) {
	if m.role == "" {
		j, err := m.sdk.MarshalJSON()
		return append(b, j...), err
	}
	b = append(b, '{')
	if m.role != "assistant" || m.content {
		b = append(b, `"content":`...)
		b = appendJSONString(b, m.text)
		b = append(b, ',')
	}
	if m.role == "tool" {
		b = append(b, `"tool_call_id":`...)
		b = appendJSONString(b, m.toolCallID)
		b = append(b, ',')
	}
	if len(m.calls) > 0 {
		b = append(b, `"tool_calls":[`...)
		for i, c := range m.calls {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"id":`...)
			b = appendJSONString(b, c.id)
			b = append(b, `,"function":{"arguments":`...)
			b = appendJSONString(b, c.args)
			b = append(b, `,"name":`...)
			b = appendJSONString(b, c.name)
			b = append(b, `},"type":"function"}`...)
		}
		b = append(b, "],"...)
	}
	b = append(b, `"role":`...)
	b = appendJSONString(b, m.role)
	return append(b, '}'), nil
}

// wireTool is a function tool as sent: its name on the wire, its
// description and its schema's kept JSON.
type wireTool struct {
	name, description string
	schema            json.RawMessage
}

// size is about the bytes appendTo adds (more when the texts need escaping).
func (t wireTool) size() int { return len(t.name) + len(t.description) + len(t.schema) + 96 }

// appendItem is appendTo as appendParts calls it.
func (t wireTool) appendItem(b []byte, _ int) []byte { return t.appendTo(b) }

// appendTo appends the tool's JSON as the SDK writes it.
func (t wireTool) appendTo(b []byte) []byte {
	b = append(b, `{"function":{"name":`...)
	b = appendJSONString(b, t.name)
	if t.description != "" {
		b = append(b, `,"description":`...)
		b = appendJSONString(b, t.description)
	}
	b = append(b, `,"parameters":`...)
	b = append(b, t.schema...)
	return append(b, `},"type":"function"}`...)
}

// streamOnce makes one request. A *statusError comes back unwrapped, for
// withRetries; everything else is final.
func (p *openAIProvider) streamOnce(ctx context.Context, model string, body []byte, names *toolNames, on func(Event)) (Response, error) {
	// Empty params: the SDK sends body in their place (and sets "stream").
	stream := p.client.Chat.Completions.NewStreaming(ctx, openai.ChatCompletionNewParams{}, option.WithRequestBody("application/json", body))
	defer stream.Close()
	acc := &accumulator{on: on, names: names}
	slots := map[int64]int{} // the API's tool-call index → ours
	// A surrogate pair cut between two events, in the text or a call's
	// arguments (ours: by the call's index), is joined (utf16Join).
	var text utf16Join
	args := map[int]*utf16Join{}
	var finish string
	var usage Usage
	received := false
	for stream.Next() {
		chunk := stream.Current()
		received = true
		if chunk.JSON.Usage.Valid() {
			usage = Usage{InputTokens: int(chunk.Usage.PromptTokens), OutputTokens: int(chunk.Usage.CompletionTokens),
				CacheReadTokens: int(chunk.Usage.PromptTokensDetails.CachedTokens)}
		}
		for _, ch := range chunk.Choices {
			if ch.Index != 0 {
				continue // we never ask for n > 1
			}
			acc.addText(text.next(ch.Delta.JSON.Content.Raw(), ch.Delta.Content))
			for _, tc := range ch.Delta.ToolCalls {
				i, ok := slots[tc.Index]
				// Some servers (older Ollama) give every parallel call
				// index 0; a new ID means a new call all the same.
				if !ok || tc.ID != "" && acc.calls[i].id != "" && tc.ID != acc.calls[i].id {
					i = acc.startCall(tc.ID, tc.Function.Name)
					slots[tc.Index], args[i] = i, &utf16Join{}
				}
				acc.addArgs(i, args[i].next(tc.Function.JSON.Arguments.Raw(), tc.Function.Arguments))
			}
			if ch.FinishReason != "" {
				finish = ch.FinishReason
			}
		}
	}
	acc.addText(text.end())
	for i, j := range args {
		acc.addArgs(i, j.end())
	}
	err := stream.Err()
	var se *statusError
	switch {
	case errors.As(err, &se):
		return Response{}, err
	case err != nil && !received && ctx.Err() == nil && isTransport(err):
		return Response{}, err
	case finish != "" && ctx.Err() == nil:
		// The answer is complete; a connection lost after the finish reason
		// (before [DONE] or the usage chunk) costs nothing.
		for i := range acc.calls {
			acc.endCall(i)
		}
		r := acc.response(true)
		r.Stop, r.Usage = openAIStop(finish, len(r.ToolCalls)), usage
		return r, nil
	}
	// Broken off: keep the calls whose arguments are whole JSON.
	for i, c := range acc.calls {
		if json.Valid([]byte(c.args.String())) {
			acc.endCall(i)
		}
	}
	return acc.brokenOff(ctx, p.name, model, usage, err)
}

// utf16Join joins a UTF-16 surrogate pair a server cut between two
// stream events: JSON escapes a character outside the BMP as a pair
// ("\ud83d\ude00"), and a server that streams escaped text a few
// characters at a time may send its halves in two events, each of which
// the SDK decodes on its own, a half to U+FFFD. A high surrogate that
// ends an event's string waits for the next event's.
type utf16Join struct {
	high string // the waiting high surrogate's escape; "": none
}

// next is the piece of an event (raw: its JSON string as sent, piece: as
// the SDK decoded it) with a waiting high surrogate joined to its start,
// and without a high surrogate that ends it, which waits for the next
// piece. The pieces with no half at their ends are the SDK's as they are.
func (j *utf16Join) next(raw, piece string) string {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return piece // null, or no string
	}
	s := raw[1 : len(raw)-1]
	body, held := s, ""
	if hi := escapedAt(s, len(s)-6); hi >= 0xD800 && hi < 0xDC00 && escapes(s, len(s)-6) {
		body, held = s[:len(s)-6], s[len(s)-6:]
	}
	if j.high == "" && held == "" {
		return piece
	}
	var out string
	if json.Unmarshal([]byte(`"`+j.high+body+`"`), &out) != nil {
		return piece
	}
	j.high = held
	return out
}

// end is what is left when the stream ends: a high surrogate no low one
// followed, replaced.
func (j *utf16Join) end() string {
	if j.high == "" {
		return ""
	}
	j.high = ""
	return "\uFFFD"
}

// escapedAt is the code unit of the \uXXXX escape at s[i:], else -1.
func escapedAt(s string, i int) rune {
	if i < 0 || i+6 > len(s) || s[i] != '\\' || s[i+1] != 'u' {
		return -1
	}
	n, err := strconv.ParseUint(s[i+2:i+6], 16, 16)
	if err != nil {
		return -1
	}
	return rune(n)
}

// escapes says whether the backslash at s[i] starts an escape: it is not
// itself escaped, by an odd number of backslashes before it.
func escapes(s string, i int) bool {
	n := 0
	for i--; i >= 0 && s[i] == '\\'; i-- {
		n++
	}
	return n%2 == 0
}

func openAIStop(finish string, calls int) StopReason {
	return stopOf(finish == "tool_calls" || finish == "function_call", finish == "length", calls)
}

func (p *openAIProvider) Models(ctx context.Context) ([]Model, error) {
	page, err := p.client.Models.List(ctx)
	if err != nil {
		return nil, classify(ctx, p.name, opModels, "", err)
	}
	out := make([]Model, 0, len(page.Data))
	for _, m := range page.Data {
		name := m.ID
		if f, ok := m.JSON.ExtraFields["name"]; ok {
			var s string
			if json.Unmarshal([]byte(f.Raw()), &s) == nil && s != "" {
				name = s
			}
		}
		out = append(out, Model{ID: m.ID, Name: name, ContextWindow: contextWindow(m.JSON.ExtraFields)})
	}
	p.lmStudioWindows(ctx, out)
	p.llamaCppWindows(ctx, out)
	sortModels(out)
	return out, nil
}

// contextWindow reads the context length compatible servers add to their
// model entries, each under its own name: OpenRouter, Groq, LM Studio, vLLM.
func contextWindow(extra map[string]respjson.Field) int {
	for _, k := range []string{"context_length", "context_window", "max_context_length", "max_model_len"} {
		if f, ok := extra[k]; ok {
			if n, err := strconv.Atoi(strings.TrimSpace(f.Raw())); err == nil && n > 0 {
				return n
			}
		}
	}
	return 0
}

func sortModels(ms []Model) {
	sort.Slice(ms, func(i, j int) bool { return ms[i].ID < ms[j].ID })
}

// checkRequest refuses what no provider could answer.
func checkRequest(req Request) error {
	if req.Model == "" {
		return fmt.Errorf("%w: no model chosen; pick one in the chat's model menu", ErrConfig)
	}
	for i, m := range req.Messages {
		switch m.Role {
		case RoleUser, RoleAssistant:
		case RoleTool:
			if m.ToolCallID == "" {
				return fmt.Errorf("%w: message %d is a tool result without a ToolCallID", ErrConfig, i)
			}
		default:
			return fmt.Errorf("%w: message %d has unknown role %q", ErrConfig, i, m.Role)
		}
	}
	return nil
}

// errorText is a failed tool result as text, for the formats with no error
// flag (OpenAI's, Ollama's), which say it in words: "Error: " before the
// text, unless the text already begins with "error" in some case (many
// servers write "Error: not found", "ERROR 404"), where a second one would
// only be noise.
func errorText(text string) string {
	if t := strings.TrimSpace(text); len(t) >= len("error") && strings.EqualFold(t[:len("error")], "error") {
		return text
	}
	return "Error: " + text
}

// argsText is a call's arguments as sent back to the model: a JSON
// object. Arguments a model broke off (a small local model's call cut
// mid-string) go back as {}, as on the other wires: llama-server parses
// them again and answers 500 to the whole request ("Failed to parse tool
// call arguments as JSON"), so the model could never correct itself.
// Arguments kept as a JSON string of an object are that object.
func argsText(a json.RawMessage) string {
	s := strings.TrimSpace(string(a))
	if strings.HasPrefix(s, `"`) {
		var inner string
		if json.Unmarshal([]byte(s), &inner) == nil {
			s = strings.TrimSpace(inner)
		}
	}
	if strings.HasPrefix(s, "{") && json.Valid([]byte(s)) {
		return s
	}
	return "{}"
}

// settle gives a final error its user-facing form.
func settle(ctx context.Context, name, op, model string, err error) error {
	if err == nil {
		return nil
	}
	var e *Error
	var rl *RateLimitError
	if errors.As(err, &e) || errors.As(err, &rl) {
		return err
	}
	return classify(ctx, name, op, model, err)
}

// isTransport says whether err is a failure to get a response at all.
func isTransport(err error) bool {
	var ue *url.Error
	return errors.As(err, &ue)
}

// audioPart is a as an input_audio content part.
func audioPart(a Audio) openai.ChatCompletionContentPartUnionParam {
	return openai.InputAudioContentPart(openai.ChatCompletionContentPartInputAudioInputAudioParam{Data: a.Data, Format: a.Format})
}
