package provider

import (
	"encoding/json"
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
		r.ToolCalls = append(r.ToolCalls, ToolCall{ID: c.id, Name: c.name, Arguments: json.RawMessage(args)})
	}
	return r
}
