package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/history"
)

// Results set aside. When the context is short, a tool result shrinks to a
// stub (fit.go). For a result the model already saw, a stub saying to call
// the tool again if it needs it is enough. For one it never saw — the
// latest step's own results, stubbed before its first look at them when
// the turn alone does not fit; the results of a step a turn ended after (a
// stop, the step limit) — that stub would have the model run the tool a
// second time only to learn what the first run did, and the tool may
// delete, send or pay. Such a result is set aside instead: kept in the
// chat's ResultStore like a capped result, its stub saying the tool
// already ran, not to call it again, and which read_result id reads it.
// Its stored result records that (metaAside, in its _meta beside a capped
// result's handle), so the stub stays so when the chat is read again; the
// tool card shows the result as before. Without a store (or when keeping
// fails) the stub still says that the tool ran and not to run it again.

// metaAside is the _meta key under which a stored result records that it
// was set aside before the model saw it: a Kept whose ID is empty when
// nothing could keep it. Only the engine writes it (stripKept).
const metaAside = "io.switchboard/aside"

// handles are what a stored result's _meta says of it: the handle of a
// capped result (MetaKept), the record of one set aside (metaAside).
type handles struct{ kept, aside *Kept }

// handlesOf reads a stored result's handles (one parse of it for both).
func handlesOf(raw json.RawMessage) handles {
	var v struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	var h handles
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return h
	}
	var k, a Kept
	if b := v.Meta[MetaKept]; b != nil && json.Unmarshal(b, &k) == nil && k.ID != "" {
		h.kept = &k
	}
	if b := v.Meta[metaAside]; b != nil && json.Unmarshal(b, &a) == nil {
		h.aside = &a
	}
	return h
}

// asideStub is the stub of a result of tool, chars long, set aside before
// the model saw it; id is its handle, "" when it could not be kept. It
// says "left out to save context" as every stub does.
func asideStub(tool string, chars int, id string) string {
	if id == "" {
		return fmt.Sprintf("[result of %s, %d characters, left out to save context before you saw it; the tool ran already: do not call it again to see it]", tool, chars)
	}
	return fmt.Sprintf("[result of %s, %d characters, left out to save context before you saw it; the tool ran already: do not call it again, %s with id %q reads it]", tool, chars, ReadResultName, id)
}

// idRoom is the length of a handle asideStub is measured with before the
// result is kept (the store names the handle): a stub that would not be
// shorter than the result is not made.
var idRoom = strings.Repeat("x", 48) // the app's are 42 characters (app/host/results.go)

// seenAfter says whether the model answered after parts[i]: a request
// was then made with its results in it, each whole or, set aside, as a
// stub that says so. A result no answer follows was never seen.
func seenAfter(parts []part, i int) bool {
	for _, p := range parts[i+1:] {
		if p.role == history.RoleAssistant {
			return true
		}
	}
	return false
}

// keepAside sets aside the results q stubs that the model never saw
// (setAside) and measures q again with their stubs, which name a handle,
// and read_result among its tools; if that takes it over limit, more
// results are stubbed, and set aside in turn. A function, as measureCut.
func keepAside(ctx, store context.Context, r *run, q request, limit int) (request, error) {
	for {
		changed, err := setAside(ctx, store, r, q)
		if err != nil || !changed {
			return q, err
		}
		summarised := q.summarised
		tools := withReadResult(r, q.tools)
		q = measureCut(r, tools, q.stubbed, q.partial, 0)
		if q.view.Used > limit {
			q = shrinkTurn(r, tools, q, limit)
		}
		q.summarised = summarised
	}
}

// withReadResult is tools with read_result, when the conversation holds a
// handle and tools do not have it yet.
func withReadResult(r *run, tools []provider.Tool) []provider.Tool {
	if slices.ContainsFunc(tools, func(t provider.Tool) bool { return t.Name == ReadResultName }) {
		return tools
	}
	return keptOf(r).withKeptTools(tools)
}

// setAside sets aside each result q stubs (those of its first q.stubbed
// parts and the first q.partial of the next) that is bare (its stub says
// to call the tool again) in a part no answer of the model follows, and
// stores the record of it. It reports whether a stub changed.
func setAside(ctx, store context.Context, r *run, q request) (bool, error) {
	if ctx.Err() != nil {
		return false, nil // stopped: no request goes, and nothing is recorded as not kept
	}
	parts := r.conv.parts
	changed := false
	for i := range min(q.stubbed+min(q.partial, 1), len(parts)) {
		if parts[i].stubbed == nil || seenAfter(parts, i) {
			continue
		}
		n := parts[i].resultCount()
		if i == q.stubbed {
			n = min(q.partial, n)
		}
		marks, touched := asideResults(ctx, r, &parts[i], n)
		changed = changed || touched
		if err := saveAside(store, r, parts[i].seq, marks); err != nil {
			return changed, err
		}
	}
	return changed, nil
}

// asideResults sets aside p's first n results that are bare: each is kept
// (when there is a store) and its stub says so. A result whose stub would
// be no shorter than it goes whole instead. It returns the records to
// store, by call ID, and whether a stub changed.
func asideResults(ctx context.Context, r *run, p *part, n int) (map[string]Kept, bool) {
	marks := map[string]Kept{}
	changed := false
	for j := 1; j <= n && j < len(p.bare); j++ {
		if !p.bare[j] {
			continue
		}
		p.bare[j], changed = false, true
		full := p.msgs[j]
		s := full
		s.Images, s.Audio = nil, nil
		k := Kept{Chars: utf8.RuneCountInString(full.Text), Lines: wrappedLines(full.Text)}
		if s.Text = asideStub(full.ToolName, k.Chars, idRoom); messageTokens(s) >= messageTokens(full) {
			p.restub(j, full) // a stub would save nothing: the model sees it whole
			continue
		}
		if rs := r.e.opts.Results; rs != nil {
			if got, err := rs.Keep(ctx, r.t.ChatID, full.ToolCallID, full.ToolName, wrapLong(full.Text)); err == nil && got.ID != "" {
				k.ID = got.ID
				p.kept = append(p.kept, k)
			}
		}
		s.Text = asideStub(full.ToolName, k.Chars, k.ID)
		p.restub(j, s)
		marks[full.ToolCallID] = k
	}
	return marks, changed
}

// restub makes s the stub of p's result j.
func (p *part) restub(j int, s provider.Message) {
	p.stubTokens += messageTokens(s) - messageTokens(p.stubbed[j])
	p.stubbed[j] = s
}

// saveAside records marks (by call ID) in the stored results of the
// message at seq: in those the run holds for its next write (the latest
// step's), else in the history at once.
func saveAside(store context.Context, r *run, seq int, marks map[string]Kept) error {
	if len(marks) == 0 {
		return nil
	}
	left := len(marks)
	r.doneMu.Lock()
	for i, c := range r.done {
		if k, ok := marks[c.ID]; ok {
			if raw, err := withAside(c.Result, k); err == nil {
				r.done[i].Result = raw
			}
			left--
		}
	}
	r.doneMu.Unlock()
	if left == 0 {
		return nil
	}
	msgs, err := r.e.opts.History.MessagesAfter(store, r.t.ChatID, seq-1)
	if err != nil {
		return fmt.Errorf("read history: %w", err)
	}
	var calls []history.ToolCall
	for _, m := range msgs {
		for _, c := range m.ToolCalls {
			if k, ok := marks[c.ID]; ok && m.Seq == seq {
				if c.Result, err = withAside(c.Result, k); err == nil {
					calls = append(calls, c)
				}
			}
		}
	}
	if err := r.e.opts.History.SaveToolCalls(store, calls); err != nil {
		return fmt.Errorf("save tool calls: %w", err)
	}
	return nil
}

// withAside is the stored result raw with k recorded in its _meta.
func withAside(raw json.RawMessage, k Kept) (json.RawMessage, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(raw, &top); err != nil {
		return nil, fmt.Errorf("a stored tool result is not a JSON object: %w", err)
	}
	if top == nil {
		return nil, errors.New("a stored tool result is null")
	}
	meta := map[string]json.RawMessage{}
	if b := top["_meta"]; len(b) > 0 && string(b) != "null" {
		if err := json.Unmarshal(b, &meta); err != nil {
			return nil, fmt.Errorf("a stored tool result's _meta is not an object: %w", err)
		}
	}
	kb, err := json.Marshal(k)
	if err != nil {
		return nil, err
	}
	meta[metaAside] = kb
	mb, err := json.Marshal(meta)
	if err != nil {
		return nil, err
	}
	top["_meta"] = mb
	return json.Marshal(top)
}
