package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
)

// Counter is a provider that can count a request's input tokens exactly,
// with the model's own tokenizer and chat template, before it is sent.
// The engine asks it near the context limit, where an estimate's error
// decides whether a request fits.
type Counter interface {
	CountTokens(ctx context.Context, req Request) (int, error)
}

// ErrNoCount means the server cannot count tokens (it is not llama.cpp's,
// or it refused Anthropic's count_tokens).
var ErrNoCount = errors.New("the server does not count tokens")

// noCount are the servers that answered that they cannot count (404 on
// /apply-template or /tokenize, a refused count_tokens): not asked again
// in this process.
var noCount sync.Map // base URL → true

// CountTokens counts req on a llama.cpp server (llama-server, the
// built-in local model's runtime): /apply-template renders the messages
// and tools as the model reads them, /tokenize counts that prompt.
// ErrNoCount for another server (api.openai.com is never asked).
func (p *openAIProvider) CountTokens(ctx context.Context, req Request) (int, error) {
	if p.base == nil || strings.EqualFold(p.base.Hostname(), "api.openai.com") {
		return 0, ErrNoCount
	}
	root := *p.base
	root.Path = strings.TrimSuffix(strings.TrimSuffix(root.Path, "/"), "/v1")
	key := root.String()
	if _, no := noCount.Load(key); no {
		return 0, ErrNoCount
	}
	// The messages and tools as a step sends them, written as its body
	// writes them (not encoded by reflection: near the limit, where this
	// is asked at every step, that cost milliseconds for a long chat).
	_, msgs, tools := p.request(req, newToolNames(openAINameLimit, req))
	parts, err := appendParts([]byte{'{'}, msgs, tools, wireMessage.appendTo, wireTool.appendItem)
	if err != nil {
		return 0, err
	}
	var tmpl struct {
		Prompt string `json:"prompt"`
	}
	if err := p.post(ctx, key, key+"/apply-template", append(parts, '}'), &tmpl); err != nil {
		return 0, err
	}
	var toks struct {
		Tokens []json.RawMessage `json:"tokens"`
	}
	content := append(appendJSONString([]byte(`{"content":`), tmpl.Prompt), `,"add_special":true}`...)
	if err := p.post(ctx, key, key+"/tokenize", content, &toks); err != nil {
		return 0, err
	}
	return len(toks.Tokens), nil
}

// post posts the JSON b to url and decodes the answer into out; a 404
// marks the server as one that cannot count.
func (p *openAIProvider) post(ctx context.Context, key, url string, b []byte, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if p.key != "" {
		req.Header.Set("Authorization", "Bearer "+p.key)
	}
	c := p.httpc
	if c == nil {
		c = http.DefaultClient
	}
	res, err := c.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode == http.StatusNotFound || res.StatusCode == http.StatusMethodNotAllowed {
		noCount.Store(key, true)
		return ErrNoCount
	}
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("count tokens: %s answered HTTP %d", url, res.StatusCode)
	}
	return json.NewDecoder(io.LimitReader(res.Body, 64<<20)).Decode(out)
}

// countParams are the fields of a Messages request that
// /v1/messages/count_tokens takes: the API refuses the others (max_tokens,
// temperature, stream) as extra inputs.
var countParams = []string{"model", "system", "messages", "tools", "tool_choice", "thinking"}

// CountTokens counts req with Anthropic's /v1/messages/count_tokens: the
// request the chat would send (system prompt, tools, messages, as
// body writes them), counted by the API with the model's tokenizer. A
// round trip, so the engine asks only near the limit. A server that
// refuses it (a proxy without the endpoint, a key without the
// permission: any 4xx but a rate limit) is ErrNoCount, and is not asked
// again in this process; the engine then keeps its estimate.
func (p *anthropicProvider) CountTokens(ctx context.Context, req Request) (int, error) {
	if _, no := noCount.Load(p.base); no {
		return 0, ErrNoCount
	}
	full, err := p.body(req, newToolNames(anthropicNameLimit, req))
	if err != nil {
		return 0, err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(full, &fields); err != nil {
		return 0, err
	}
	body := make(map[string]json.RawMessage, len(countParams))
	for _, k := range countParams {
		if v, ok := fields[k]; ok {
			body[k] = v
		}
	}
	raw, err := json.Marshal(body)
	if err != nil {
		return 0, err
	}
	var res struct {
		InputTokens int `json:"input_tokens"`
	}
	err = p.client.Post(ctx, "v1/messages/count_tokens", json.RawMessage(raw), &res)
	var se *statusError
	if errors.As(err, &se) && se.status >= 400 && se.status < 500 && se.status != http.StatusTooManyRequests {
		noCount.Store(p.base, true)
		return 0, fmt.Errorf("%w: %s", ErrNoCount, se.message)
	}
	if err != nil {
		return 0, fmt.Errorf("count tokens: %w", err)
	}
	if res.InputTokens <= 0 {
		return 0, fmt.Errorf("%w: count_tokens answered no input_tokens", ErrNoCount)
	}
	return res.InputTokens, nil
}
