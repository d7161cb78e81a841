package chat

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/history"
)

// convo is what the engine keeps of a chat between steps and turns: its
// messages from the last summary on, each converted once for the model
// with its token estimate. A step then costs the same at message 1,000 as
// at message 10: it neither reads the history again nor converts it.
//
// A convo belongs to the chat's running turn (one at a time); the engine
// hands it over under its lock.
type convo struct {
	parts   []part
	lastSeq int    // the seq of the last message read or written
	lastID  string // its ID: another process's rewind shows as a change
	key     string // the conversion's parameters; another key converts again
	cal     calibration
	// toldSize is the context size a provider's error told, for a model
	// whose context size is not known otherwise; toldMax the one an error
	// stated, smaller than the one known (set larger than the model's),
	// which wins over it.
	toldSize, toldMax int
	// stubs is how many parts from the first the last request sent with
	// their results stubbed: the next request stubs at least as many, so
	// the prefix a prompt cache holds stays the same from step to step
	// (stubs grow in large steps; see fit).
	stubs int
	// used orders the convos by their last use (Engine.convo), for
	// dropping the oldest (KeptConversations).
	used uint64
}

// part is one stored message as the model sees it.
type part struct {
	seq  int
	role string
	msgs []provider.Message
	// stubbed is msgs with each tool result replaced by a one-line stub
	// (nil when the message has no tool results): what the model gets of
	// an old step when the context is short.
	stubbed []provider.Message
	// tokens and stubTokens are the estimates of msgs and stubbed;
	// results the share of tokens that are tool results.
	tokens, stubTokens, results int
	// kept are the handles of its capped results and of those set aside
	// (aside.go).
	kept []Kept
	// bare marks, by index in msgs, the results whose stub says to call
	// the tool again: neither kept nor set aside, and long enough to be
	// stubbed. One the model never saw is set aside before it is sent so.
	bare []bool
}

// convKey is what the conversion depends on besides the messages.
func (t *Turn) convKey() string {
	keys := slices.Sorted(maps.Keys(t.ResultBudgetFor))
	var b strings.Builder
	fmt.Fprintf(&b, "%d/%d/%d/%d/%v/%v", t.contextSize(), t.ContextWindow, t.ResultShare, t.ResultBudget, t.Images, t.Audio)
	for _, k := range keys {
		fmt.Fprintf(&b, "/%s=%d", k, t.ResultBudgetFor[k])
	}
	return b.String()
}

// sync brings the chat's convo up to date with the history: it reads only
// the messages after the last one it has, unless the chat changed under it
// (a rewind, another process), when it reads from the last summary again.
func (r *run) sync(ctx context.Context) error {
	c := r.conv
	key := r.t.convKey()
	if c.key == key && c.lastSeq > 0 {
		// The last known message again, then what follows it: if the
		// first is not it, the chat was rewound elsewhere.
		msgs, err := r.e.opts.History.MessagesAfter(ctx, r.t.ChatID, c.lastSeq-1)
		if err != nil {
			return fmt.Errorf("read history: %w", err)
		}
		if len(msgs) > 0 && msgs[0].ID == c.lastID {
			for _, m := range msgs[1:] {
				r.add(m)
			}
			return nil
		}
	}
	msgs, err := r.e.opts.History.Recent(ctx, r.t.ChatID)
	if err != nil {
		return fmt.Errorf("read history: %w", err)
	}
	if c.cal.scale == 0 && firstSummary(msgs) >= 0 {
		// A chat opened again after a summary: its calibration is in the
		// answers before it too.
		if all, err := r.e.opts.History.Messages(ctx, r.t.ChatID); err == nil {
			for _, m := range all {
				if m.Seq >= msgs[0].Seq {
					break
				}
				if m.Role == history.RoleAssistant {
					c.cal.learn(m.EstimatedTokens, m.InputTokens)
				}
			}
		}
	}
	c.parts, c.lastSeq, c.lastID, c.key, c.stubs = nil, 0, "", key, 0
	for _, m := range msgs {
		r.add(m)
	}
	return nil
}

// firstSummary is the index of the first summary in msgs, else -1.
func firstSummary(msgs []history.Message) int {
	for i, m := range msgs {
		if m.Role == history.RoleSummary {
			return i
		}
	}
	return -1
}

// add converts m and appends it to the convo. A summary goes first and
// replaces the parts it covers (every part before it, or those up to its
// Covers: the turn in progress when it was written stays after it). An
// answer with its request's estimate and the provider's count calibrates
// the estimate.
func (r *run) add(m history.Message) {
	c := r.conv
	if m.Seq >= c.lastSeq {
		// An answer asked again after a refusal (step) comes after the
		// summary written for it, with an older seq: the last message
		// read stays the summary's.
		c.lastSeq, c.lastID = m.Seq, m.ID
	}
	if m.Role == history.RoleAssistant {
		c.cal.learn(m.EstimatedTokens, m.InputTokens)
	}
	p := r.convert(m)
	if m.Role == history.RoleSummary {
		var after []part
		for _, q := range c.parts {
			if m.Covers > 0 && q.seq > m.Covers {
				after = append(after, q)
			}
		}
		c.parts, c.stubs = append([]part{p}, after...), 0
		return
	}
	if len(p.msgs) > 0 {
		c.parts = append(c.parts, p)
	}
}

// convert is one stored message as the model sees it.
func (r *run) convert(m history.Message) part {
	p := part{seq: m.Seq, role: m.Role}
	md := media{images: r.t.Images, audio: r.t.Audio}
	switch m.Role {
	case history.RoleUser:
		p.msgs = []provider.Message{{Role: provider.RoleUser, Text: m.Text}}
	case history.RoleSummary:
		p.msgs = []provider.Message{{Role: provider.RoleUser, Text: summaryPreamble + m.Text}}
	case history.RoleAssistant:
		// A reply of whitespace only ("   \n  ", small models write them)
		// says nothing, and the APIs refuse it (Anthropic: a text block of
		// whitespace, every later request of the chat with it): it goes as
		// no text, and an answer of nothing else as no message.
		text := m.Text
		if strings.TrimSpace(text) == "" {
			text = ""
		}
		if text == "" && len(m.ToolCalls) == 0 {
			return p
		}
		am := provider.Message{Role: provider.RoleAssistant, Text: text}
		for _, c := range m.ToolCalls {
			am.ToolCalls = append(am.ToolCalls, provider.ToolCall{ID: c.ID, Name: c.Tool, Arguments: c.Arguments})
		}
		p.msgs = append(p.msgs, am)
		if len(m.ToolCalls) > 0 {
			p.stubbed = append(p.stubbed, am)
		}
		p.bare = make([]bool, 1, len(m.ToolCalls)+1)
		for _, c := range m.ToolCalls {
			h := handlesOf(c.Result)
			if h.kept != nil {
				p.kept = append(p.kept, *h.kept)
			} else if h.aside != nil && h.aside.ID != "" {
				p.kept = append(p.kept, *h.aside)
			}
			tm := toolMessage(c, r.budgetFor(c.Tool), md)
			p.msgs = append(p.msgs, tm)
			p.results += messageTokens(tm)
			s := stub(c.Tool, tm, h)
			p.stubbed = append(p.stubbed, s)
			p.bare = append(p.bare, h.kept == nil && h.aside == nil && s.Text != tm.Text)
		}
	}
	for _, pm := range p.msgs {
		p.tokens += messageTokens(pm)
	}
	for _, pm := range p.stubbed {
		p.stubTokens += messageTokens(pm)
	}
	return p
}

// budgetFor is the result budget of the tool the model called by name; a
// tool no longer offered gets the turn's default.
func (r *run) budgetFor(name string) int {
	if t, ok := r.tool(name); ok {
		return keptOf(r).resultBudget(t)
	}
	return keptOf(r).defaultBudget()
}

// summaryPreamble introduces a summary to the model.
const summaryPreamble = "[Summary of the conversation so far, written because it no longer fits the context window. The messages it replaces are in the chat's history; the user can still see them.]\n\n"

// stub is the one line a tool result shrinks to: naming its handle when
// it is kept; for one set aside before the model saw it (aside.go),
// saying the tool already ran, so the model does not run it again (a
// delete, a payment) to see what it did; else, for one the model saw,
// to call the tool again if it needs it.
func stub(tool string, full provider.Message, h handles) provider.Message {
	s := full
	s.Images, s.Audio = nil, nil
	n := len([]rune(full.Text))
	switch {
	case h.kept != nil:
		s.Text = fmt.Sprintf("[earlier result of %s, %d characters, left out to save context; it is kept: %s with id %q reads it]", tool, h.kept.Chars, ReadResultName, h.kept.ID)
	case h.aside != nil:
		s.Text = asideStub(tool, n, h.aside.ID)
	case n <= stubMin:
		return full
	default:
		s.Text = fmt.Sprintf("[earlier result of %s, %d characters, left out to save context; call the tool again if you need it]", tool, n)
	}
	return s
}

// stubMin: results this short are kept as they are; a stub would save
// nothing.
const stubMin = 200

// resultCount is how many tool results p holds.
func (p part) resultCount() int {
	if p.stubbed == nil {
		return 0
	}
	return len(p.msgs) - 1 // the step's message, then a result a call
}

// cut is what stubbing p's first n results takes off its results' tokens
// (full) and adds as stubs.
func (p part) cut(n int) (full, stubs int) {
	for j := 1; j <= min(n, p.resultCount()); j++ {
		full += messageTokens(p.msgs[j])
		stubs += messageTokens(p.stubbed[j])
	}
	return full, stubs
}

// shrunk is how many of p's first n results a stub shortens (a short one
// goes whole as its own stub).
func (p part) shrunk(n int) int {
	k := 0
	for j := 1; j <= min(n, p.resultCount()); j++ {
		if p.stubbed[j].Text != p.msgs[j].Text {
			k++
		}
	}
	return k
}

// assemble is the conversation for the next step: every part, the first
// stubs of them with their results stubbed, and the next one with its
// first partial results stubbed, user messages that end up adjacent
// joined (providers want user and assistant turns to alternate).
func assemble(parts []part, stubs, partial int) []provider.Message {
	var out []provider.Message
	for i, p := range parts {
		ms := p.msgs
		switch {
		case i < stubs && p.stubbed != nil:
			ms = p.stubbed
		case i == stubs && partial > 0 && p.stubbed != nil:
			n := min(partial, p.resultCount()) + 1
			ms = append(slices.Clip(p.stubbed[:n]), p.msgs[n:]...)
		}
		for _, m := range ms {
			if n := len(out); n > 0 && m.Role == provider.RoleUser && out[n-1].Role == provider.RoleUser {
				out[n-1].Text += "\n\n" + m.Text
				out[n-1].Images = append(slices.Clip(out[n-1].Images), m.Images...)
				continue
			}
			out = append(out, m)
		}
	}
	return out
}
