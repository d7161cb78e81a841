package provider

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
)

// Anthropic's status for "overloaded"; retried like a rate limit.
const statusOverloaded = 529

type anthropicProvider struct {
	name   string
	key    string
	base   string // the API's root, the key of noCount
	client anthropic.Client
}

func newAnthropic(cfg Config, base *url.URL) *anthropicProvider {
	opts := []option.RequestOption{
		// No ANTHROPIC_* environment, profiles or config files: the key
		// and URL are the ones the user gave this provider.
		option.WithoutEnvironmentDefaults(),
		option.WithBaseURL(base.String()),
		option.WithHTTPClient(cfg.HTTPClient),
		option.WithMaxRetries(0), // retries are ours, and visible (EventRetry)
		option.WithMiddleware(statusMiddleware(cfg.APIKey)),
		option.WithoutOpenTelemetry(),
	}
	if cfg.APIKey != "" {
		opts = append(opts, option.WithAPIKey(cfg.APIKey))
	}
	return &anthropicProvider{name: cfg.Name, key: cfg.APIKey, base: base.String(), client: anthropic.NewClient(opts...)}
}

func (p *anthropicProvider) Stream(ctx context.Context, req Request, on func(Event)) (Response, error) {
	retryable := func(status int) bool {
		return status == http.StatusTooManyRequests || status == statusOverloaded || status == http.StatusServiceUnavailable
	}
	return stream(ctx, p.name, req, on, anthropicNameLimit, retryable,
		func(names *toolNames, on func(Event)) (Response, error) {
			body, err := p.body(req, names)
			if err != nil {
				return Response{}, fmt.Errorf("%s: write the request: %w", p.name, err)
			}
			return p.streamOnce(ctx, req.Model, body, names, on)
		})
}

// body is the request's JSON as sent: the SDK's encoding of its settings,
// then the messages and the tools written here, as openAIProvider.body
// does and for the same reason: the SDK encodes by reflection and scans
// what each level wrote again at every level above it, so a step paid for
// every message and tool again (BenchmarkRequestBody). Each message and
// tool is the JSON value the SDK writes from the same request
// (TestAnthropicRequestAsTheSDKWritesIt).
func (p *anthropicProvider) body(req Request, names *toolNames) ([]byte, error) {
	params, msgs, tools := p.request(req, names)
	b, err := params.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return writeBody(b, msgs, tools, func(m anthropicMessage, b []byte) ([]byte, error) { return m.appendTo(b), nil },
		func(t wireTool, b []byte, i int) []byte {
			// The last tool ends the cached prefix (see request).
			return appendAnthropicTool(b, t, i == len(tools)-1)
		})
}

// request is the request's settings as the SDK's params, and its messages
// and tools as sent.
func (p *anthropicProvider) request(req Request, names *toolNames) (anthropic.MessageNewParams, []anthropicMessage, []wireTool) {
	params := anthropic.MessageNewParams{
		Model:     anthropic.Model(req.Model),
		MaxTokens: int64(DefaultMaxTokens),
	}
	if req.MaxTokens > 0 {
		params.MaxTokens = int64(req.MaxTokens)
	}
	// Prompt caching: the tools and the system prompt are the same at every
	// step of a chat, so they are marked as the cached prefix (the API
	// caches tools, then system, up to the last marker; body writes the
	// last tool's); a step then reads them from the cache instead of paying
	// for them again. A prefix shorter than the model's minimum is simply
	// not cached.
	if req.System != "" {
		params.System = []anthropic.TextBlockParam{{Text: req.System, CacheControl: anthropic.NewCacheControlEphemeralParam()}}
	}
	if req.Temperature != nil {
		params.Temperature = anthropic.Float(*req.Temperature)
	}
	params.StopSequences = req.Stop
	// The tools first: their renamed property names (propertyKeys) apply
	// to past calls too.
	tools := make([]wireTool, 0, len(req.Tools))
	for _, t := range req.Tools {
		tr := toolSchema(t.InputSchema, DialectAnthropic)
		names.setKeys(t.Name, tr.keys)
		tools = append(tools, wireTool{names.toWire(t.Name), t.Description, tr.schema})
	}
	// Consecutive messages of one role become one message: the API wants
	// all results of a turn's calls in one user message, and a user's text
	// after tool results belongs in it too.
	msgs := make([]anthropicMessage, 0, len(req.Messages))
	ids := newCallIDs(anthropicID)
	push := func(role string, blocks ...anthropicBlock) {
		if len(blocks) == 0 {
			return // the API refuses empty messages
		}
		if n := len(msgs); n > 0 && msgs[n-1].role == role {
			msgs[n-1].blocks = append(msgs[n-1].blocks, blocks...)
			return
		}
		msgs = append(msgs, anthropicMessage{role: role, blocks: blocks})
	}
	for _, m := range req.Messages {
		switch m.Role {
		case RoleUser:
			var blocks []anthropicBlock
			if hasText(m.Text) { // the API refuses empty and whitespace-only text blocks
				blocks = append(blocks, anthropicBlock{kind: blockText, text: m.Text})
			}
			for i := range m.Images {
				blocks = append(blocks, anthropicBlock{kind: blockImage, images: m.Images[i : i+1]})
			}
			push("user", blocks...) // none: left out, and the messages around it joined if they are one role's
		case RoleAssistant:
			var blocks []anthropicBlock
			if hasText(m.Text) { // a model's "   \n  " is no answer the API takes back
				blocks = append(blocks, anthropicBlock{kind: blockText, text: m.Text})
			}
			ids.turn()
			for _, c := range m.ToolCalls {
				blocks = append(blocks, anthropicBlock{kind: blockToolUse, id: ids.call(c.ID), name: names.toWire(c.Name), input: names.argsToWire(c.Name, toolInput(c.Arguments))})
			}
			push("assistant", blocks...)
		case RoleTool:
			// m.Audio is left out: the API takes no audio (chat never
			// attaches it for this kind; the text describes it). The API
			// takes images inside the result.
			push("user", anthropicBlock{kind: blockToolResult, id: ids.result(m.ToolCallID), text: m.Text, images: m.Images, isError: m.IsError})
		}
	}
	if len(req.Tools) > 0 {
		switch req.ToolChoice {
		case ToolChoiceRequired:
			params.ToolChoice = anthropic.ToolChoiceUnionParam{OfAny: &anthropic.ToolChoiceAnyParam{}}
		case ToolChoiceNone:
			params.ToolChoice = anthropic.ToolChoiceUnionParam{OfNone: &anthropic.ToolChoiceNoneParam{}}
		}
	}
	return params, msgs, tools
}

// anthropicMessage is a message as sent: a role ("user" or "assistant")
// and its content blocks.
type anthropicMessage struct {
	role   string
	blocks []anthropicBlock
}

// The kinds of content block a request carries.
const (
	blockText       = "text"
	blockImage      = "image"
	blockToolUse    = "tool_use"
	blockToolResult = "tool_result"
)

// anthropicBlock is a content block as sent: text; an image (images[0]); a
// tool_use (id, name on the wire, input); or a tool_result (id is the
// tool_use_id; its text if any, then its images; isError).
type anthropicBlock struct {
	kind, text, id, name string
	input                json.RawMessage
	images               []Image
	isError              bool
}

// anthropicIDRune is what a tool_use id may hold: ^[a-zA-Z0-9_-]+$.
var anthropicIDRune = regexp.MustCompile(`[^a-zA-Z0-9_-]`)

// anthropicID is a tool call's id as Anthropic takes it. Another
// provider's (Kimi K2's "functions.NAME:0", from a chat that switched
// models) gets its other characters replaced and a short hash of the
// whole, so a call and its result still match and two ids stay apart.
func anthropicID(id string) string {
	if id != "" && !anthropicIDRune.MatchString(id) {
		return id
	}
	sum := sha256.Sum256([]byte(id))
	return anthropicIDRune.ReplaceAllString(id, "_") + "_" + hex.EncodeToString(sum[:4])
}

// hasText says whether a text block of s is one the API takes: it
// refuses text blocks that are empty or whitespace only ("text content
// blocks must contain non-whitespace text"), with a 400 for the whole
// request.
func hasText(s string) bool { return strings.TrimSpace(s) != "" }

// callIDs gives the tool calls of one request ids of their own, as the
// APIs want them across the whole request: Anthropic refuses a request in
// which two tool_use blocks share an id, and OpenAI-compatible servers one
// with a tool_call_id repeated. A model on a local OpenAI-compatible
// server numbers the calls of each step from 0 ("call_0" at every step),
// and a chat continued on another provider sends them all. The first call
// of an id keeps it; a later one gets it with "_2" (or the next number
// free), and its results follow it: the results after an assistant
// message take the ids of its calls of that id in order.
type callIDs struct {
	form func(string) string // the form the API takes an id in (anthropicID); nil: as it is
	used map[string]bool
	// open are the ids the last assistant message's calls went with, by
	// the call's own id, in order, each until its result takes it.
	open map[string][]string
	last map[string]string // the id the last call of each id went with
}

func newCallIDs(form func(string) string) *callIDs {
	return &callIDs{form: form, used: map[string]bool{}, open: map[string][]string{}, last: map[string]string{}}
}

// turn starts an assistant message: the results after it go with its calls.
func (c *callIDs) turn() { clear(c.open) }

// call is the id a call of id goes with.
func (c *callIDs) call(id string) string {
	base := id
	if c.form != nil {
		base = c.form(id)
	}
	w := base
	for n := 2; c.used[w]; n++ {
		w = base + "_" + strconv.Itoa(n)
	}
	c.used[w] = true
	c.open[id] = append(c.open[id], w)
	c.last[id] = w
	return w
}

// result is the id a result of the call id goes with: its call's.
func (c *callIDs) result(id string) string {
	if q := c.open[id]; len(q) > 0 {
		c.open[id] = q[1:]
		return q[0]
	}
	if w, ok := c.last[id]; ok {
		return w
	}
	if c.form != nil {
		return c.form(id)
	}
	return id
}

// size is about the bytes appendTo adds.
func (m anthropicMessage) size() int {
	n := 32
	for _, b := range m.blocks {
		n += len(b.text) + len(b.id) + len(b.name) + len(b.input) + 64
		for _, img := range b.images {
			n += len(img.Data) + len(img.MIMEType) + 64
		}
	}
	return n
}

// appendTo appends the message's JSON, the value the SDK writes.
func (m anthropicMessage) appendTo(b []byte) []byte {
	b = append(b, `{"content":[`...)
	for i, blk := range m.blocks {
		if i > 0 {
			b = append(b, ',')
		}
		switch blk.kind {
		case blockText:
			b = appendTextBlock(b, blk.text)
		case blockImage:
			b = appendImageBlock(b, blk.images[0])
		case blockToolUse:
			b = append(b, `{"id":`...)
			b = appendJSONString(b, anthropicID(blk.id))
			b = append(b, `,"input":`...)
			b = append(b, blk.input...)
			b = append(b, `,"name":`...)
			b = appendJSONString(b, blk.name)
			b = append(b, `,"type":"tool_use"}`...)
		case blockToolResult:
			b = append(b, `{"tool_use_id":`...)
			b = appendJSONString(b, anthropicID(blk.id))
			if blk.isError {
				b = append(b, `,"is_error":true`...)
			}
			if text := hasText(blk.text); text || len(blk.images) > 0 {
				b = append(b, `,"content":[`...)
				if text {
					b = appendTextBlock(b, blk.text)
				}
				for j, img := range blk.images {
					if j > 0 || text {
						b = append(b, ',')
					}
					b = appendImageBlock(b, img)
				}
				b = append(b, ']')
			}
			b = append(b, `,"type":"tool_result"}`...)
		}
	}
	b = append(b, `],"role":`...)
	b = appendJSONString(b, m.role)
	return append(b, '}')
}

func appendTextBlock(b []byte, text string) []byte {
	b = append(b, `{"text":`...)
	b = appendJSONString(b, text)
	return append(b, `,"type":"text"}`...)
}

func appendImageBlock(b []byte, img Image) []byte {
	b = append(b, `{"source":{"data":`...)
	b = appendJSONString(b, img.Data)
	b = append(b, `,"media_type":`...)
	b = appendJSONString(b, img.MIMEType)
	return append(b, `,"type":"base64"},"type":"image"}`...)
}

// appendAnthropicTool appends a custom tool's JSON, the value the SDK
// writes; last marks the end of the cached prefix.
func appendAnthropicTool(b []byte, t wireTool, last bool) []byte {
	b = append(b, `{"input_schema":`...)
	b = append(b, t.schema...)
	b = append(b, `,"name":`...)
	b = appendJSONString(b, t.name)
	if t.description != "" {
		b = append(b, `,"description":`...)
		b = appendJSONString(b, t.description)
	}
	if last {
		b = append(b, `,"cache_control":{"type":"ephemeral"}`...)
	}
	return append(b, '}')
}

// toolInput is a past call's arguments as a tool_use input, which must be
// a JSON object: arguments a model garbled are sent as {} (the tool result
// after it says what was wrong). Checked without decoding them: a long
// chat sends every past call's arguments at every step.
func toolInput(a json.RawMessage) json.RawMessage {
	if t := bytes.TrimLeft(a, " \t\r\n"); len(t) == 0 || t[0] != '{' || !json.Valid(a) {
		return json.RawMessage(`{}`)
	}
	return a
}

// streamOnce makes one request. A *statusError comes back unwrapped, for
// withRetries; everything else is final.
func (p *anthropicProvider) streamOnce(ctx context.Context, model string, body []byte, names *toolNames, on func(Event)) (Response, error) {
	// Empty params: the SDK sends body in their place (and sets "stream").
	stream := p.client.Messages.NewStreaming(ctx, anthropic.MessageNewParams{}, option.WithRequestBody("application/json", body))
	defer stream.Close()
	acc := &accumulator{on: on, names: names}
	blocks := map[int64]int{} // content block index → tool call index
	var stop string
	var usage Usage
	ended, received := false, false
	for stream.Next() {
		ev := stream.Current()
		received = true
		switch ev.Type {
		case "message_start":
			u := ev.Message.Usage
			usage = Usage{InputTokens: int(u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens), OutputTokens: int(u.OutputTokens),
				CacheReadTokens: int(u.CacheReadInputTokens), CacheCreationTokens: int(u.CacheCreationInputTokens)}
		case "content_block_start":
			switch ev.ContentBlock.Type {
			case "text":
				acc.addText(ev.ContentBlock.Text)
			case "tool_use":
				blocks[ev.Index] = acc.startCall(ev.ContentBlock.ID, ev.ContentBlock.Name)
			}
		case "content_block_delta":
			switch ev.Delta.Type {
			case "text_delta":
				acc.addText(ev.Delta.Text)
			case "input_json_delta":
				if i, ok := blocks[ev.Index]; ok {
					acc.addArgs(i, ev.Delta.PartialJSON)
				}
			}
		case "content_block_stop":
			if i, ok := blocks[ev.Index]; ok {
				acc.endCall(i)
			}
		case "message_delta":
			if ev.Delta.StopReason != "" {
				stop = string(ev.Delta.StopReason)
			}
			// message_delta usage is cumulative; input is repeated by some
			// versions and omitted by others.
			if u := ev.Usage; u.OutputTokens > 0 || u.InputTokens > 0 {
				usage.OutputTokens = int(u.OutputTokens)
				if in := int(u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens); in > 0 {
					usage.InputTokens = in
					usage.CacheReadTokens, usage.CacheCreationTokens = int(u.CacheReadInputTokens), int(u.CacheCreationInputTokens)
				}
			}
		case "message_stop":
			ended = true
		}
	}
	err := stream.Err()
	var se *statusError
	switch {
	case errors.As(err, &se):
		return Response{}, err
	case err != nil && !received && ctx.Err() == nil && isTransport(err):
		return Response{}, err
	case (ended || stop != "") && ctx.Err() == nil:
		r := acc.response(true)
		r.Stop, r.Usage = anthropicStop(stop, len(r.ToolCalls)), usage
		return r, nil
	}
	var ae *anthropic.Error
	if errors.As(err, &ae) {
		// An error event in a 200 stream. Overload or a rate limit before
		// any of the answer is retried like the HTTP status would be.
		raw := []byte(ae.RawJSON())
		var v struct {
			Error struct {
				Type string `json:"type"`
			} `json:"error"`
		}
		_ = json.Unmarshal(raw, &v)
		msg := errorMessage(raw, 0, p.key)
		if acc.text.Len() == 0 && len(acc.calls) == 0 {
			switch v.Error.Type {
			case "overloaded_error":
				return Response{}, &statusError{status: statusOverloaded, header: http.Header{}, message: msg}
			case "rate_limit_error":
				return Response{}, &statusError{status: http.StatusTooManyRequests, header: http.Header{}, message: msg}
			}
		}
		if v.Error.Type != "" {
			msg = v.Error.Type + ": " + msg
		}
		err = errors.New(msg)
	}
	return acc.brokenOff(ctx, p.name, model, usage, err)
}

func anthropicStop(stop string, calls int) StopReason {
	if stop == "stop_sequence" && calls == 0 {
		return StopSequence
	}
	return stopOf(stop == "tool_use", stop == "max_tokens" || stop == "model_context_window_exceeded", calls)
}

func (p *anthropicProvider) Models(ctx context.Context) ([]Model, error) {
	pager := p.client.Models.ListAutoPaging(ctx, anthropic.ModelListParams{Limit: anthropic.Int(1000)})
	var out []Model
	for pager.Next() {
		m := pager.Current()
		name := m.DisplayName
		if name == "" {
			name = m.ID
		}
		out = append(out, Model{ID: m.ID, Name: name, ContextWindow: int(m.MaxInputTokens)})
	}
	if err := pager.Err(); err != nil {
		return nil, classify(ctx, p.name, opModels, "", err)
	}
	sortModels(out)
	return out, nil
}
