package provider

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
)

// accumulator builds a Response from stream pieces and reports each piece
// as an Event. One per Stream call; not for concurrent use.
type accumulator struct {
	on    func(Event)
	names *toolNames
	text  strings.Builder
	calls []*callState
}

type callState struct {
	id, name string // name is ours, not the wire alias
	args     strings.Builder
	done     bool // all of its arguments arrived
}

func (a *accumulator) addText(s string) {
	if s == "" {
		return
	}
	a.text.WriteString(s)
	a.on(Event{Kind: EventText, Text: s})
}

// startCall records a new call and returns its index.
func (a *accumulator) startCall(id, wireName string) int {
	c := &callState{id: id, name: a.names.toOurs(wireName)}
	a.calls = append(a.calls, c)
	i := len(a.calls) - 1
	a.on(Event{Kind: EventToolCallStart, Index: i, ID: c.id, Name: c.name})
	return i
}

func (a *accumulator) addArgs(i int, delta string) {
	if delta == "" || i < 0 || i >= len(a.calls) {
		return
	}
	c := a.calls[i]
	c.args.WriteString(delta)
	a.on(Event{Kind: EventToolCallArgs, Index: i, ID: c.id, ArgsDelta: delta})
}

func (a *accumulator) endCall(i int) {
	if i >= 0 && i < len(a.calls) {
		a.calls[i].done = true
	}
}

// response is the answer so far. When the stream broke off (complete is
// false) it keeps only the calls whose arguments all arrived: running a
// tool with half its arguments would be worse than not running it.
func (a *accumulator) response(complete bool) Response {
	r := Response{Text: a.text.String()}
	for _, c := range a.calls {
		if !complete && !c.done {
			continue
		}
		args := strings.TrimSpace(c.args.String())
		if args == "" {
			args = "{}"
		}
		r.ToolCalls = append(r.ToolCalls, ToolCall{ID: c.id, Name: c.name, Arguments: a.names.argsToOurs(c.name, json.RawMessage(args))})
	}
	return r
}

// brokenOff is the response of a stream that ended before the provider
// said it was complete: what arrived (with usage so far), and err (or
// errNoEnd when the stream just stopped) as an incomplete-answer error.
func (a *accumulator) brokenOff(ctx context.Context, name, model string, usage Usage, err error) (Response, error) {
	r := a.response(false)
	r.Usage = usage
	if err == nil || errors.Is(err, io.EOF) {
		err = errNoEnd
	}
	return r, incomplete(ctx, name, model, err)
}

// stopOf is what a provider's finish reason means: tool use or max tokens
// when it says so, else tool use when the answer holds calls (some
// compatible servers say "stop" after tool calls), else the end.
func stopOf(toolUse, maxTokens bool, calls int) StopReason {
	switch {
	case toolUse:
		return StopToolUse
	case maxTokens:
		return StopMaxTokens
	case calls > 0:
		return StopToolUse
	}
	return StopEnd
}
