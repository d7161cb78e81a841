package router

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"

	"github.com/mark3labs/mcp-go/mcp"
)

// Redactor masks the secrets a server was started with (the keyring's
// values) in what servers send, before anyone is handed it: the router
// masks listings (tool, prompt and resource descriptions and titles, tool
// schemas) before they are cached, kept or pinned, call results (text,
// embedded resources, structuredContent) and errors, prompts, resource
// text, progress messages, tasks' status messages (CallOptions.OnTask) and
// completions, and the questions a server asks (sampling, elicitation: in
// Tying, as they enter), so every door — a chat and its model, the CLI,
// serve's clients, the window, history, pins and kept listings — gets the
// masked text. Identifiers (tool names, URIs) are left as they are.
// *secrets.Redactor satisfies it. It must be safe for concurrent use and
// cheap when it knows no secret.
type Redactor interface {
	// Redact returns s with every secret masked, always the same way, or
	// s itself when it holds none.
	Redact(s string) string
	// InJSON reports whether JSON text may hold a secret in a string,
	// however escaped; false means no decoded string of it would change.
	InJSON(raw []byte) bool
	// Empty reports whether no secret is known.
	Empty() bool
}

// redactedError is an error whose text held a secret: Error is the masked
// text, and errors.Is and As still see the error it stands for.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// redactErr is err with its text masked (err itself when it holds no secret).
func redactErr(rd Redactor, err error) error {
	if err == nil || rd == nil || rd.Empty() {
		return err
	}
	msg := err.Error()
	if m := rd.Redact(msg); m != msg {
		return &redactedError{msg: m, err: err}
	}
	return err
}

// redactText is s masked (no Redactor: s).
func redactText(rd Redactor, s string) string {
	if rd == nil {
		return s
	}
	return rd.Redact(s)
}

// resultRedactor is what masks server's call results: none for a server
// whose results are the user's own data (Options.OwnData).
func resultRedactor(r *Router, server string) Redactor {
	if r.ownData != nil && r.ownData(server) {
		return nil
	}
	return r.redact
}

// redactResult masks res in place: its text, embedded resources' text,
// resource links' descriptions and structuredContent. A result without
// secrets is not copied.
func redactResult(rd Redactor, res *mcp.CallToolResult) *mcp.CallToolResult {
	if res == nil || rd == nil || rd.Empty() {
		return res
	}
	for i, c := range res.Content {
		res.Content[i] = redactContent(rd, c)
	}
	res.StructuredContent = redactValue(rd, res.StructuredContent)
	// The wire's bytes, which encoding the result writes instead.
	res.RawStructuredContent = redactJSON(rd, res.RawStructuredContent)
	return res
}

// redactContent is one content block masked.
func redactContent(rd Redactor, c mcp.Content) mcp.Content {
	switch c := c.(type) {
	case mcp.TextContent:
		c.Text = rd.Redact(c.Text)
		return c
	case *mcp.TextContent:
		v := *c
		v.Text = rd.Redact(v.Text)
		return &v
	case mcp.EmbeddedResource:
		c.Resource = redactResource(rd, c.Resource)
		return c
	case *mcp.EmbeddedResource:
		v := *c
		v.Resource = redactResource(rd, v.Resource)
		return &v
	case mcp.ResourceLink:
		c.Title, c.Description = rd.Redact(c.Title), rd.Redact(c.Description)
		return c
	case *mcp.ResourceLink:
		v := *c
		v.Title, v.Description = rd.Redact(v.Title), rd.Redact(v.Description)
		return &v
	case mcp.ToolUseContent: // a sampling message's earlier tool call
		c.Input = redactValue(rd, c.Input)
		return c
	case mcp.ToolResultContent: // and its result
		c.Content = redactContents(rd, c.Content)
		c.StructuredContent = redactValue(rd, c.StructuredContent)
		c.RawStructuredContent = redactJSON(rd, c.RawStructuredContent)
		return c
	}
	return c
}

// redactContents is blocks masked, in a new slice: they may be the
// sender's own (an in-process server's).
func redactContents(rd Redactor, blocks []mcp.Content) []mcp.Content {
	out := slices.Clone(blocks)
	for i := range out {
		out[i] = redactContent(rd, out[i])
	}
	return out
}

// redactResource is a resource's contents masked: text, not a blob.
func redactResource(rd Redactor, c mcp.ResourceContents) mcp.ResourceContents {
	switch c := c.(type) {
	case mcp.TextResourceContents:
		c.Text = rd.Redact(c.Text)
		return c
	case *mcp.TextResourceContents:
		v := *c
		v.Text = rd.Redact(v.Text)
		return &v
	}
	return c
}

// redactValue is a decoded JSON value (or any value JSON encodes, as an
// in-process server's structuredContent) with every string masked, keys
// included. It is copied only where a string changes; a value of another
// type that holds a secret comes back decoded as JSON would.
func redactValue(rd Redactor, v any) any {
	m, _ := redactAny(rd, v)
	return m
}

// redactAny is redactValue, and whether anything changed.
func redactAny(rd Redactor, v any) (any, bool) {
	switch v := v.(type) {
	case nil, bool, float64, json.Number:
		return v, false
	case string:
		m := rd.Redact(v)
		return m, m != v
	case []any:
		var out []any
		for i, e := range v {
			if m, changed := redactAny(rd, e); changed {
				if out == nil {
					out = slices.Clone(v)
				}
				out[i] = m
			}
		}
		if out == nil {
			return v, false
		}
		return out, true
	case map[string]any:
		var out map[string]any
		for k, e := range v {
			mk := rd.Redact(k)
			me, changed := redactAny(rd, e)
			if !changed && mk == k {
				continue
			}
			if out == nil {
				out = maps.Clone(v)
			}
			delete(out, k)
			out[mk] = me
		}
		if out == nil {
			return v, false
		}
		return out, true
	}
	raw, err := json.Marshal(v)
	if err != nil || !rd.InJSON(raw) {
		return v, false
	}
	var decoded any
	if decodeJSON(raw, &decoded) != nil {
		return v, false
	}
	if m, changed := redactAny(rd, decoded); changed {
		return m, true
	}
	return v, false
}

// redactJSON is JSON text with every string masked, decoded and encoded
// again only when it may hold a secret (InJSON): a 5 MB result without one
// is returned as it came.
func redactJSON(rd Redactor, raw json.RawMessage) json.RawMessage {
	if rd == nil || len(raw) == 0 || !rd.InJSON(raw) {
		return raw
	}
	var v any
	if decodeJSON(raw, &v) != nil {
		return raw
	}
	out, err := encodeJSON(redactValue(rd, v))
	if err != nil {
		return raw
	}
	return out
}

// decodeJSON decodes raw keeping numbers as they were written.
func decodeJSON(raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	return dec.Decode(v)
}

// encodeJSON encodes v with <, > and & as they are (the text as sent).
func encodeJSON(v any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// redactList masks the listed items of one server in place, before they
// are cached (see Redactor): fresh from the server, nobody else holds them.
func redactList[T any](rd Redactor, items []T) []T {
	if rd == nil || rd.Empty() {
		return items
	}
	switch list := any(items).(type) {
	case []mcp.Tool:
		for i := range list {
			redactTool(rd, &list[i])
		}
	case []mcp.Prompt:
		for i := range list {
			p := &list[i]
			p.Title, p.Description = rd.Redact(p.Title), rd.Redact(p.Description)
			for j := range p.Arguments {
				p.Arguments[j].Description = rd.Redact(p.Arguments[j].Description)
			}
		}
	case []mcp.Resource:
		for i := range list {
			list[i].Title, list[i].Description = rd.Redact(list[i].Title), rd.Redact(list[i].Description)
		}
	case []mcp.ResourceTemplate:
		for i := range list {
			list[i].Title, list[i].Description = rd.Redact(list[i].Title), rd.Redact(list[i].Description)
		}
	}
	return items
}

// RedactTools masks tools' texts and schemas in place, as the router masks
// a listing (a listing kept from before masking, say), and returns tools.
// rd may be nil.
func RedactTools(rd Redactor, tools []mcp.Tool) []mcp.Tool { return redactList(rd, tools) }

// redactTool masks a tool's texts and schemas; its name stays.
func redactTool(rd Redactor, t *mcp.Tool) {
	t.Title, t.Description = rd.Redact(t.Title), rd.Redact(t.Description)
	t.Annotations.Title = rd.Redact(t.Annotations.Title)
	t.RawInputSchema = redactJSON(rd, t.RawInputSchema)
	t.RawOutputSchema = redactJSON(rd, t.RawOutputSchema)
}

// redactPrompt masks an expanded prompt's description and messages.
func redactPrompt(rd Redactor, res *mcp.GetPromptResult) *mcp.GetPromptResult {
	if res == nil || rd == nil || rd.Empty() {
		return res
	}
	res.Description = rd.Redact(res.Description)
	for i := range res.Messages {
		res.Messages[i].Content = redactContent(rd, res.Messages[i].Content)
	}
	return res
}

// redactRead masks the text of a resource read.
func redactRead(rd Redactor, res *mcp.ReadResourceResult) *mcp.ReadResourceResult {
	if res == nil || rd == nil || rd.Empty() {
		return res
	}
	for i, c := range res.Contents {
		res.Contents[i] = redactResource(rd, c)
	}
	return res
}

// redactSampling masks what a server's sampling/createMessage hands a
// model provider and shows on the request's card: its system prompt and
// every message's content (text, embedded resources, earlier tool calls
// and results, or generic JSON as a transport decoded it). The request is
// copied where it changes: its messages belong to the caller.
func redactSampling(rd Redactor, req mcp.CreateMessageRequest) mcp.CreateMessageRequest {
	if rd == nil || rd.Empty() {
		return req
	}
	req.SystemPrompt = rd.Redact(req.SystemPrompt)
	msgs := slices.Clone(req.Messages)
	for i := range msgs {
		msgs[i].Content = redactSamplingContent(rd, msgs[i].Content)
	}
	req.Messages = msgs
	return req
}

// redactSamplingContent is one sampling message's content masked: a block
// mcp-go typed, a list of them, or JSON it left generic.
func redactSamplingContent(rd Redactor, c any) any {
	switch c := c.(type) {
	case mcp.Content:
		return redactContent(rd, c)
	case []mcp.Content:
		return redactContents(rd, c)
	}
	return redactValue(rd, c)
}

// redactElicitation masks what a server's elicitation/create shows the
// user (in the window, or relayed to a client of serve): its message and
// every string of its form's schema (titles, descriptions, defaults,
// choices). A URL to open is left as it is, like every URI.
func redactElicitation(rd Redactor, req mcp.ElicitationRequest) mcp.ElicitationRequest {
	if rd == nil || rd.Empty() {
		return req
	}
	req.Params.Message = rd.Redact(req.Params.Message)
	req.Params.RequestedSchema = redactValue(rd, req.Params.RequestedSchema)
	return req
}

// redactTasks is onTask given each status message masked (nil: nil).
func redactTasks(rd Redactor, onTask func(TaskUpdate)) func(TaskUpdate) {
	if onTask == nil || rd == nil || rd.Empty() {
		return onTask
	}
	return func(u TaskUpdate) {
		u.Message = rd.Redact(u.Message)
		onTask(u)
	}
}
