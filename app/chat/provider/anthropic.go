package provider

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
	"github.com/anthropics/anthropic-sdk-go/packages/param"
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
			return p.streamOnce(ctx, req.Model, p.params(req, names), names, on)
		})
}

func (p *anthropicProvider) params(req Request, names *toolNames) anthropic.MessageNewParams {
	params := anthropic.MessageNewParams{
		Model:     anthropic.Model(req.Model),
		MaxTokens: int64(DefaultMaxTokens),
	}
	if req.MaxTokens > 0 {
		params.MaxTokens = int64(req.MaxTokens)
	}
	// Prompt caching: the tools and the system prompt are the same at every
	// step of a chat, so they are marked as the cached prefix (the API
	// caches tools, then system, up to the last marker); a step then reads
	// them from the cache instead of paying for them again. A prefix
	// shorter than the model's minimum is simply not cached.
	if req.System != "" {
		params.System = []anthropic.TextBlockParam{{Text: req.System, CacheControl: anthropic.NewCacheControlEphemeralParam()}}
	}
	if req.Temperature != nil {
		params.Temperature = anthropic.Float(*req.Temperature)
	}
	// Consecutive messages of one role become one message: the API wants
	// all results of a turn's calls in one user message, and a user's text
	// after tool results belongs in it too.
	push := func(role anthropic.MessageParamRole, blocks ...anthropic.ContentBlockParamUnion) {
		if len(blocks) == 0 {
			return // the API refuses empty messages
		}
		if n := len(params.Messages); n > 0 && params.Messages[n-1].Role == role {
			params.Messages[n-1].Content = append(params.Messages[n-1].Content, blocks...)
			return
		}
		params.Messages = append(params.Messages, anthropic.MessageParam{Role: role, Content: blocks})
	}
	for _, m := range req.Messages {
		switch m.Role {
		case RoleUser:
			var blocks []anthropic.ContentBlockParamUnion
			if m.Text != "" { // the API refuses empty text blocks
				blocks = append(blocks, anthropic.NewTextBlock(m.Text))
			}
			for _, img := range m.Images {
				blocks = append(blocks, anthropic.NewImageBlockBase64(img.MIMEType, img.Data))
			}
			push(anthropic.MessageParamRoleUser, blocks...)
		case RoleAssistant:
			var blocks []anthropic.ContentBlockParamUnion
			if m.Text != "" {
				blocks = append(blocks, anthropic.NewTextBlock(m.Text))
			}
			for _, c := range m.ToolCalls {
				blocks = append(blocks, anthropic.NewToolUseBlock(c.ID, toolInput(c.Arguments), names.toWire(c.Name)))
			}
			push(anthropic.MessageParamRoleAssistant, blocks...)
		case RoleTool:
			res := anthropic.ToolResultBlockParam{ToolUseID: m.ToolCallID}
			if m.Text != "" {
				res.Content = []anthropic.ToolResultBlockParamContentUnion{{OfText: &anthropic.TextBlockParam{Text: m.Text}}}
			}
			// m.Audio is left out: the API takes no audio (chat never
			// attaches it for this kind; the text describes it).
			for _, img := range m.Images { // the API takes images inside the result
				res.Content = append(res.Content, anthropic.ToolResultBlockParamContentUnion{OfImage: &anthropic.ImageBlockParam{
					Source: anthropic.ImageBlockParamSourceUnion{OfBase64: &anthropic.Base64ImageSourceParam{
						Data: img.Data, MediaType: anthropic.Base64ImageSourceMediaType(img.MIMEType),
					}},
				}})
			}
			if m.IsError {
				res.IsError = anthropic.Bool(true)
			}
			push(anthropic.MessageParamRoleUser, anthropic.ContentBlockParamUnion{OfToolResult: &res})
		}
	}
	for _, t := range req.Tools {
		tp := anthropic.ToolParam{Name: names.toWire(t.Name), InputSchema: inputSchema(t.InputSchema)}
		if t.Description != "" {
			tp.Description = anthropic.String(t.Description)
		}
		params.Tools = append(params.Tools, anthropic.ToolUnionParam{OfTool: &tp})
	}
	if n := len(params.Tools); n > 0 {
		params.Tools[n-1].OfTool.CacheControl = anthropic.NewCacheControlEphemeralParam()
	}
	if len(req.Tools) > 0 {
		switch req.ToolChoice {
		case ToolChoiceRequired:
			params.ToolChoice = anthropic.ToolChoiceUnionParam{OfAny: &anthropic.ToolChoiceAnyParam{}}
		case ToolChoiceNone:
			params.ToolChoice = anthropic.ToolChoiceUnionParam{OfNone: &anthropic.ToolChoiceNoneParam{}}
		}
	}
	return params
}

// toolInput is a past call's arguments as a tool_use input, which must be
// a JSON object: arguments a model garbled are sent as {} (the tool result
// after it says what was wrong).
func toolInput(a json.RawMessage) json.RawMessage {
	var obj map[string]json.RawMessage
	if json.Unmarshal(a, &obj) != nil || obj == nil {
		return json.RawMessage(`{}`)
	}
	return a
}

// inputSchema is the tool's schema as the SDK's field, its JSON kept from
// earlier steps (ToolSchemaJSON): split into the SDK's fields, the schema
// map was encoded again at every step and its keywords beside type,
// properties and required merged in one by one.
func inputSchema(raw json.RawMessage) anthropic.ToolInputSchemaParam {
	return param.Override[anthropic.ToolInputSchemaParam](ToolSchemaJSON(raw, DialectAnthropic))
}

// streamOnce makes one request. A *statusError comes back unwrapped, for
// withRetries; everything else is final.
func (p *anthropicProvider) streamOnce(ctx context.Context, model string, params anthropic.MessageNewParams, names *toolNames, on func(Event)) (Response, error) {
	stream := p.client.Messages.NewStreaming(ctx, params)
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
