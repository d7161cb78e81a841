package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// DetectTimeout bounds DetectOllama; a local server answers in
// milliseconds, and the check runs while a settings page waits.
var DetectTimeout = 2 * time.Second

// ollamaProvider speaks Ollama's native API: chat at base/api/chat
// (streamed as newline-delimited JSON), models from base/api/tags. Native
// rather than its OpenAI-compatible /v1, because only the native messages
// carry images where a tool result is: the images field of the tool
// message, which Ollama renders into the prompt for vision models.
//
// Ollama runs every request in a context of num_ctx tokens and silently
// cuts a longer prompt (its default is a few thousand tokens): each request
// names a num_ctx that covers it (ollamaCtx), up to the model's context
// length, which /api/show tells (window); a request longer than that
// (its JSON at 4 bytes a token, and room for the answer) is refused as
// ErrContextLength without being sent.
type ollamaProvider struct {
	name, key string
	chatURL   string
	tagsURL   string
	showURL   string
	hc        *http.Client
}

// ollamaContextSizes are the context lengths /api/show told, by server and
// model, for every provider of the process: a provider is made for each
// chat step, and a model's length only changes when it is pulled again.
var ollamaContextSizes sync.Map // showURL + "\x00" + model → int

func newOllama(cfg Config, base *url.URL) *ollamaProvider {
	root := strings.TrimSuffix(base.String(), "/")
	return &ollamaProvider{name: cfg.Name, key: cfg.APIKey, chatURL: root + "/api/chat", tagsURL: root + "/api/tags", showURL: root + "/api/show", hc: cfg.HTTPClient}
}

// Context sizes a request may name (num_ctx). Ollama loads a model again
// when num_ctx changes, so a request names the smallest power of two that
// covers it, from OllamaMinCtx, and never more than the model's context
// length (OllamaMaxCtx when that is not known).
var (
	OllamaMinCtx = 4096
	OllamaMaxCtx = 131072
)

// ollamaCtx is the num_ctx for a request whose body is size bytes and that
// may answer with out tokens, on a model whose context is contextSize tokens
// (0: unknown).
// The body is counted at 3 bytes a token: more than it takes, so the
// prompt is never cut.
func ollamaCtx(size, out, contextSize int) int {
	need := size/3 + out
	limit := contextSize
	if limit <= 0 {
		limit = OllamaMaxCtx
	}
	n := OllamaMinCtx
	for n < need && n < limit {
		n *= 2
	}
	return min(n, limit)
}

// ollamaAnswerReserve is the room a request without MaxTokens leaves for
// the answer.
const ollamaAnswerReserve = 2048

// contextSize returns model's context length from /api/show (remembered;
// 0 when the server does not say; asked again after a failed request).
func (p *ollamaProvider) contextSize(ctx context.Context, model string) int {
	key := p.showURL + "\x00" + model
	if v, ok := ollamaContextSizes.Load(key); ok {
		return v.(int)
	}
	n, err := ollamaShow(ctx, p.hc, p.showURL, p.key, model)
	if err != nil {
		return 0 // not remembered: the server may have been down
	}
	ollamaContextSizes.Store(key, n)
	return n
}

// ollamaShow asks POST url (…/api/show) for model's context length: the
// "<architecture>.context_length" of its model_info.
func ollamaShow(ctx context.Context, hc *http.Client, showURL, key, model string) (int, error) {
	body, _ := json.Marshal(map[string]string{"model": model})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, showURL, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	res, err := keepConn(req, hc.Do)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close() // read to its end first, within DrainWait (keepConn)
	var v struct {
		ModelInfo map[string]json.RawMessage `json:"model_info"`
	}
	if res.StatusCode >= 400 || json.NewDecoder(io.LimitReader(res.Body, 64<<20)).Decode(&v) != nil {
		return 0, nil // an answer, but no length: the model is unknown to it, or it is not Ollama's
	}
	for k, raw := range v.ModelInfo {
		if strings.HasSuffix(k, ".context_length") {
			var n int
			if json.Unmarshal(raw, &n) == nil && n > 0 {
				return n, nil
			}
		}
	}
	return 0, nil
}

// ollamaMessage is one message, as sent and as streamed back.
type ollamaMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
	// Images are base64 without a data: prefix.
	Images     []string         `json:"images,omitempty"`
	ToolCalls  []ollamaToolCall `json:"tool_calls,omitempty"`
	ToolName   string           `json:"tool_name,omitempty"`
	ToolCallID string           `json:"tool_call_id,omitempty"`
}

type ollamaToolCall struct {
	ID       string `json:"id,omitempty"`
	Function struct {
		Index int    `json:"index"`
		Name  string `json:"name"`
		// Arguments is a JSON object (not a string, as in OpenAI's format).
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

type ollamaTool struct {
	Type     string `json:"type"`
	Function struct {
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		Parameters  json.RawMessage `json:"parameters"` // ToolSchemaJSON, kept from earlier steps
	} `json:"function"`
}

// ollamaChunk is one line of a streamed answer; the last has done set and
// the token counts, and a failure mid-stream is a line with only error.
type ollamaChunk struct {
	Message         ollamaMessage `json:"message"`
	Done            bool          `json:"done"`
	DoneReason      string        `json:"done_reason"`
	PromptEvalCount int           `json:"prompt_eval_count"`
	EvalCount       int           `json:"eval_count"`
	Error           string        `json:"error"`
}

func (p *ollamaProvider) Stream(ctx context.Context, req Request, on func(Event)) (Response, error) {
	retryable := func(status int) bool { return status == http.StatusTooManyRequests }
	return stream(ctx, p.name, req, on, openAINameLimit, retryable,
		func(names *toolNames, on func(Event)) (Response, error) {
			msgs, tools, options := p.request(req, names)
			body, err := ollamaBody(req.Model, msgs, tools)
			if err != nil {
				return Response{}, err
			}
			// The context the request runs in covers it (see ollamaProvider).
			out := req.MaxTokens
			if out <= 0 {
				out = ollamaAnswerReserve
			}
			size := p.contextSize(ctx, req.Model)
			if reserve := min(out, size/4); size > 0 && len(body)/4+reserve > size {
				// Ollama would cut the prompt, silently: never send it.
				msg := fmt.Sprintf("the request (about %d tokens, and %d for the answer) does not fit the model's context window of %d tokens", len(body)/4, reserve, size)
				return Response{}, &Error{Provider: p.name, Op: opStream, Model: req.Model, Message: msg, Err: fmt.Errorf("%w: %s", ErrContextLength, msg)}
			}
			options["num_ctx"] = ollamaCtx(len(body), out, size)
			if body, err = withOptions(body, options); err != nil {
				return Response{}, err
			}
			return p.streamOnce(ctx, req.Model, body, names, on)
		})
}

// request is the request's messages and tools as sent, and its options
// (without num_ctx, which depends on the size of the rest).
func (p *ollamaProvider) request(req Request, names *toolNames) ([]ollamaMessage, []ollamaTool, map[string]any) {
	msgs := make([]ollamaMessage, 0, len(req.Messages)+1)
	if req.System != "" {
		msgs = append(msgs, ollamaMessage{Role: "system", Content: req.System})
	}
	for _, m := range req.Messages {
		om := ollamaMessage{Role: string(m.Role), Content: m.Text}
		switch m.Role {
		case RoleAssistant:
			for i, c := range m.ToolCalls {
				var tc ollamaToolCall
				tc.ID, tc.Function.Index, tc.Function.Name = c.ID, i, names.toWire(c.Name)
				// Ollama refuses arguments that are not an object.
				tc.Function.Arguments = toolInput(c.Arguments)
				om.ToolCalls = append(om.ToolCalls, tc)
			}
		case RoleTool:
			if m.IsError {
				om.Content = errorText(m.Text)
			}
			om.ToolCallID = m.ToolCallID
			if m.ToolName != "" {
				om.ToolName = names.toWire(m.ToolName)
			}
		}
		// A tool's images go in its own message's images field: Ollama
		// puts every message's images into the prompt, whatever its role.
		// m.Audio is left out: Ollama's chat API takes no audio (chat never
		// attaches it for this kind; the text describes it).
		for _, img := range m.Images {
			om.Images = append(om.Images, img.Data)
		}
		msgs = append(msgs, om)
	}
	// Ollama has no tool_choice: "none" is met by offering no tools, and
	// "required" cannot be asked for (the model may still answer in text).
	var tools []ollamaTool
	if req.ToolChoice != ToolChoiceNone {
		tools = make([]ollamaTool, 0, len(req.Tools))
		for _, t := range req.Tools {
			var ot ollamaTool
			ot.Type = "function"
			ot.Function.Name, ot.Function.Description, ot.Function.Parameters = names.toWire(t.Name), t.Description, ToolSchemaJSON(t.InputSchema, DialectOllama)
			tools = append(tools, ot)
		}
	}
	options := map[string]any{}
	if req.MaxTokens > 0 {
		options["num_predict"] = req.MaxTokens
	}
	if len(req.Stop) > 0 {
		options["stop"] = req.Stop
	}
	if req.Temperature != nil {
		options["temperature"] = *req.Temperature
	}
	return msgs, tools, options
}

// ollamaBody writes a request's body but for its options (withOptions):
// the messages and tools written here, as the providers of the SDKs' wires
// write theirs (writeBody), not encoded by reflection at every step, which
// also checked and compacted every tool's schema again each time.
func ollamaBody(model string, msgs []ollamaMessage, tools []ollamaTool) ([]byte, error) {
	settings := appendJSONString([]byte(`{"model":`), model)
	if len(msgs) == 0 {
		settings = append(settings, `,"messages":[]`...) // Ollama reads a chat without messages as a request to load the model
	}
	settings = append(settings, '}')
	return writeBody(settings, msgs, tools, ollamaMessage.appendTo, func(t ollamaTool, b []byte, _ int) []byte { return t.appendTo(b) })
}

// withOptions adds the options member to a body ollamaBody wrote.
func withOptions(body []byte, options map[string]any) ([]byte, error) {
	o, err := json.Marshal(options)
	if err != nil {
		return nil, err
	}
	body = append(body[:len(body)-1], `,"options":`...)
	body = append(body, o...)
	return append(body, '}'), nil
}

// size is about the bytes the message's JSON takes (writeBody's part).
func (m ollamaMessage) size() int {
	n := len(m.Content) + len(m.ToolName) + len(m.ToolCallID) + 64
	for _, img := range m.Images {
		n += len(img) + 3
	}
	for _, c := range m.ToolCalls {
		n += len(c.ID) + len(c.Function.Name) + len(c.Function.Arguments) + 64
	}
	return n
}

// appendTo appends the message's JSON: the value encoding/json writes for
// it (a call's arguments as they are, an object toolInput checked).
func (m ollamaMessage) appendTo(b []byte) ([]byte, error) {
	b = append(b, `{"role":`...)
	b = appendJSONString(b, m.Role)
	b = append(b, `,"content":`...)
	b = appendJSONString(b, m.Content)
	if len(m.Images) > 0 {
		b = append(b, `,"images":[`...)
		for i, img := range m.Images {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, img)
		}
		b = append(b, ']')
	}
	if len(m.ToolCalls) > 0 {
		b = append(b, `,"tool_calls":[`...)
		for i, c := range m.ToolCalls {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '{')
			if c.ID != "" {
				b = append(b, `"id":`...)
				b = appendJSONString(b, c.ID)
				b = append(b, ',')
			}
			b = append(b, `"function":{"index":`...)
			b = strconv.AppendInt(b, int64(c.Function.Index), 10)
			b = append(b, `,"name":`...)
			b = appendJSONString(b, c.Function.Name)
			b = append(b, `,"arguments":`...)
			b = append(b, c.Function.Arguments...)
			b = append(b, "}}"...)
		}
		b = append(b, ']')
	}
	if m.ToolName != "" {
		b = append(b, `,"tool_name":`...)
		b = appendJSONString(b, m.ToolName)
	}
	if m.ToolCallID != "" {
		b = append(b, `,"tool_call_id":`...)
		b = appendJSONString(b, m.ToolCallID)
	}
	return append(b, '}'), nil
}

// size is about the bytes the tool's JSON takes (writeBody's part).
func (t ollamaTool) size() int {
	return len(t.Function.Name) + len(t.Function.Description) + len(t.Function.Parameters) + 80
}

// appendTo appends the tool's JSON: its schema is ToolSchemaJSON's, kept.
func (t ollamaTool) appendTo(b []byte) []byte {
	b = append(b, `{"type":"function","function":{"name":`...)
	b = appendJSONString(b, t.Function.Name)
	if t.Function.Description != "" {
		b = append(b, `,"description":`...)
		b = appendJSONString(b, t.Function.Description)
	}
	b = append(b, `,"parameters":`...)
	b = append(b, t.Function.Parameters...)
	return append(b, "}}"...)
}

// streamOnce makes one request. A *statusError comes back unwrapped, for
// withRetries; everything else is final.
func (p *ollamaProvider) streamOnce(ctx context.Context, model string, body []byte, names *toolNames, on func(Event)) (Response, error) {
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, p.chatURL, bytes.NewReader(body))
	if err != nil {
		return Response{}, err
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "application/x-ndjson")
	if p.key != "" {
		// Ollama ignores it; a reverse proxy in front may want it.
		hreq.Header.Set("Authorization", "Bearer "+p.key)
	}
	res, err := keepConn(hreq, p.hc.Do)
	if err != nil {
		return Response{}, err
	}
	defer res.Body.Close() // read to its end first, within DrainWait (keepConn)
	if res.StatusCode >= 400 {
		msg, _ := io.ReadAll(io.LimitReader(res.Body, maxErrorBody))
		return Response{}, &statusError{status: res.StatusCode, header: res.Header, message: errorMessage(msg, res.StatusCode, p.key)}
	}
	acc := &accumulator{on: on, names: names}
	dec := json.NewDecoder(res.Body)
	for {
		var ch ollamaChunk
		if err = dec.Decode(&ch); err != nil {
			break
		}
		if ch.Error != "" {
			said, _ := json.Marshal(map[string]string{"error": ch.Error})
			err = errors.New(errorMessage(said, 0, p.key))
			break
		}
		acc.addText(ch.Message.Content)
		for _, tc := range ch.Message.ToolCalls {
			// Ollama sends each call whole, once its arguments are.
			i := acc.startCall(tc.ID, tc.Function.Name)
			acc.addArgs(i, ollamaArgs(tc.Function.Arguments))
			acc.endCall(i)
		}
		if ch.Done {
			if ctx.Err() != nil {
				break
			}
			r := acc.response(true)
			r.Usage = Usage{InputTokens: ch.PromptEvalCount, OutputTokens: ch.EvalCount}
			r.Stop = ollamaStop(ch.DoneReason, len(r.ToolCalls))
			return r, nil
		}
	}
	// Broken off (every call that arrived is whole).
	return acc.brokenOff(ctx, p.name, model, Usage{}, err)
}

// ollamaArgs is a call's arguments as text: the object as sent, or the
// text of a string (which some models write instead of an object).
func ollamaArgs(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	if t := strings.TrimSpace(string(raw)); t != "null" {
		return t
	}
	return ""
}

func ollamaStop(reason string, calls int) StopReason {
	return stopOf(false, reason == "length", calls) // Ollama says "stop" after tool calls
}

// Models lists the pulled models from /api/tags, which every Ollama version
// serves (its /v1/models came later).
func (p *ollamaProvider) Models(ctx context.Context) ([]Model, error) {
	list, err := ollamaTags(ctx, p.hc, p.tagsURL, p.key)
	if err != nil {
		return nil, classify(ctx, p.name, opModels, "", err)
	}
	out := make([]Model, 0, len(list))
	for _, m := range list {
		out = append(out, Model{ID: m, Name: m, ContextWindow: p.contextSize(ctx, m)})
	}
	sortModels(out)
	return out, nil
}

// ollamaTags returns the model names GET url (…/api/tags) lists. A
// response that is not Ollama's shape is an error.
func ollamaTags(ctx context.Context, hc *http.Client, tagsURL, key string) ([]string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, tagsURL, nil)
	if err != nil {
		return nil, err
	}
	if key != "" {
		// Ollama ignores it; a reverse proxy in front may want it.
		req.Header.Set("Authorization", "Bearer "+key)
	}
	res, err := keepConn(req, hc.Do)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close() // read to its end first, within DrainWait (keepConn)
	if res.StatusCode >= 400 {
		body, _ := io.ReadAll(io.LimitReader(res.Body, maxErrorBody))
		return nil, &statusError{status: res.StatusCode, header: res.Header, message: errorMessage(body, res.StatusCode, key)}
	}
	var v struct {
		Models *[]struct {
			Name  string `json:"name"`
			Model string `json:"model"`
		} `json:"models"`
	}
	if err := json.NewDecoder(io.LimitReader(res.Body, 16<<20)).Decode(&v); err != nil || v.Models == nil {
		return nil, errNotOllama
	}
	out := make([]string, 0, len(*v.Models))
	for _, m := range *v.Models {
		n := m.Name
		if n == "" {
			n = m.Model
		}
		out = append(out, n)
	}
	return out, nil
}

// errNotOllama is an /api/tags answer that is not Ollama's.
var errNotOllama = errors.New("the server answered, but not like Ollama (no model list at /api/tags); check the base URL")

// DetectOllama says whether an Ollama server answers at baseURL ("" means
// DefaultOllamaURL), by asking for its model list within DetectTimeout.
// Nothing answering, or something else answering, is (false, nil); the
// error is for a base URL that cannot be used or a done ctx.
func DetectOllama(ctx context.Context, baseURL string) (bool, error) {
	if baseURL == "" {
		baseURL = DefaultOllamaURL
	}
	base, err := checkBaseURL(baseURL)
	if err != nil {
		return false, &Error{Provider: string(KindOllama), Op: "detect", Err: err}
	}
	base.Path = strings.TrimSuffix(strings.TrimSuffix(base.Path, "/"), "/v1")
	dctx, cancel := context.WithTimeout(ctx, DetectTimeout)
	defer cancel()
	_, err = ollamaTags(dctx, defaultHTTPClient(), strings.TrimSuffix(base.String(), "/")+"/api/tags", "")
	switch {
	case err == nil:
		return true, nil
	case ctx.Err() != nil:
		return false, fmt.Errorf("detect Ollama: %w", ctx.Err())
	default:
		return false, nil
	}
}
