package providertest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"
)

// Reply is one scripted answer.
//
// In JSON (for /__fake/enqueue) the keys are the lower-camel field names;
// "delay" is a Go duration string ("50ms") or a number of milliseconds, and
// a tool call's "arguments" may be a JSON string or any JSON value.
type Reply struct {
	// When makes the reply a rule: it answers every request whose last
	// user-side message (the user's text, or a tool result) contains When,
	// and is never used up. Rules are tried before the queue, in the order
	// they were added.
	When string `json:"when,omitempty"`

	Text      string     `json:"text,omitempty"`
	ToolCalls []ToolCall `json:"toolCalls,omitempty"`

	// Status, when not 0 or 200, answers with that HTTP status and an error
	// body in the API's format; Error is its message (a default per status
	// when empty).
	Status int    `json:"status,omitempty"`
	Error  string `json:"error,omitempty"`
	// RetryAfter is the Retry-After header sent with the error ("1", or an
	// HTTP date); RetryAfterMs the retry-after-ms header.
	RetryAfter   string `json:"retryAfter,omitempty"`
	RetryAfterMs string `json:"retryAfterMs,omitempty"`

	// DropAfter, when > 0, ends the stream abruptly (the connection is
	// closed mid-response) after that many content deltas (text pieces and
	// argument pieces). With Malformed, a garbled event is sent instead and
	// the response then ends cleanly.
	DropAfter int  `json:"dropAfter,omitempty"`
	Malformed bool `json:"malformed,omitempty"`
	// Delay is the pause before each content delta after the first, so the
	// start of an answer arrives at once and the rest trickles in.
	Delay time.Duration `json:"delay,omitempty"`
	// ChunkSize, when > 0, splits text and arguments into pieces of that
	// many bytes (never inside a UTF-8 sequence); by default text is split
	// after each run of spaces and arguments every 6 bytes.
	ChunkSize int `json:"chunkSize,omitempty"`

	// Stop overrides the stop reason: "max_tokens" (sent as "length" to
	// OpenAI clients) or an API-specific value sent verbatim.
	Stop string `json:"stop,omitempty"`
	// Usage overrides the reported token counts; by default input is a
	// quarter of the request body's bytes and output the number of deltas.
	Usage *Usage `json:"usage,omitempty"`
}

// ToolCall is one call in a Reply. ID defaults to a generated one
// ("call_N" for OpenAI, "toolu_N" for Anthropic). Arguments is sent
// verbatim, split across chunks, even if it is not valid JSON.
type ToolCall struct {
	ID        string `json:"id,omitempty"`
	Name      string `json:"name"`
	Arguments string `json:"arguments,omitempty"`
}

// Usage is the token counts a Reply reports. For Anthropic, InputTokens
// is the whole prompt; the wire's input_tokens is what is left of it after
// the cache's parts, as the API counts.
type Usage struct {
	InputTokens         int `json:"inputTokens"`
	OutputTokens        int `json:"outputTokens"`
	CacheReadTokens     int `json:"cacheReadTokens,omitempty"`
	CacheCreationTokens int `json:"cacheCreationTokens,omitempty"`
}

// UnmarshalJSON accepts "delay" as a duration string or milliseconds.
func (r *Reply) UnmarshalJSON(b []byte) error {
	type plain Reply
	var v struct {
		plain
		Delay json.RawMessage `json:"delay"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*r = Reply(v.plain)
	r.Delay = 0
	if len(v.Delay) == 0 || string(v.Delay) == "null" {
		return nil
	}
	var ms float64
	if json.Unmarshal(v.Delay, &ms) == nil {
		r.Delay = time.Duration(ms * float64(time.Millisecond))
		return nil
	}
	var s string
	if err := json.Unmarshal(v.Delay, &s); err != nil {
		return fmt.Errorf("delay: want a duration like \"50ms\" or milliseconds, got %s", v.Delay)
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("delay: %w", err)
	}
	r.Delay = d
	return nil
}

// MarshalJSON writes "delay" as a duration string.
func (r Reply) MarshalJSON() ([]byte, error) {
	type plain Reply
	v := struct {
		plain
		Delay string `json:"delay,omitempty"`
	}{plain: plain(r)}
	if r.Delay > 0 {
		v.Delay = r.Delay.String()
	}
	return json.Marshal(v)
}

// UnmarshalJSON accepts "arguments" as a JSON string or any JSON value.
func (c *ToolCall) UnmarshalJSON(b []byte) error {
	var v struct {
		ID        string          `json:"id"`
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	c.ID, c.Name, c.Arguments = v.ID, v.Name, ""
	if len(v.Arguments) == 0 || string(v.Arguments) == "null" {
		return nil
	}
	if json.Unmarshal(v.Arguments, &c.Arguments) != nil {
		var b bytes.Buffer
		if err := json.Compact(&b, v.Arguments); err != nil {
			return err
		}
		c.Arguments = b.String()
	}
	return nil
}
