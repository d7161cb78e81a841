package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/mcpmanager/registry"
)

// Capped results. A tool result over its budget reaches the model as its
// head and a handle; the whole result goes to a ResultStore (the content
// store's "Chat results" store), where the model reads on or searches it
// with the content store's own tools. The history keeps the whole result
// too: the tool card shows all of it and says what the model saw.

// ResultStore keeps whole tool results the model sees only the head of.
// It must be safe for concurrent use (a step's calls run in parallel).
type ResultStore interface {
	// Keep stores text, a result of tool in chat chatID, and returns its
	// handle; an error leaves the result cut with no handle.
	Keep(ctx context.Context, chatID, callID, tool, text string) (Kept, error)
}

// Kept is the handle of a kept result: what the model calls to read on.
type Kept struct {
	ContentID string `json:"contentId"`
	StoreID   string `json:"storeId"`
	// Read and Search are the exposed names (server__tool) of the tools
	// that read a range of lines of ContentID and search StoreID.
	Read   string `json:"read"`
	Search string `json:"search"`
	// Lines and Chars are the whole result's size.
	Lines int `json:"lines"`
	Chars int `json:"chars"`
	// Shown is how many of its lines the model saw.
	Shown int `json:"shown,omitempty"`
}

// MetaKept is the _meta key under which a stored result carries its Kept
// handle, so a reopened chat, the model's later steps and the tool card
// all know the result was capped and where the rest is.
const MetaKept = "io.switchboard/kept"

// MaxResultSizeHint is the tool _meta key (Claude Code's) by which a
// server asks hosts to let larger results of the tool through, in
// characters. It raises the tool's budget up to half the context window.
const MaxResultSizeHint = "anthropic/maxResultSizeChars"

// DefaultResultShare is the percent of the model's context window one
// tool result may take by default.
const DefaultResultShare = 15

// resultBudget is how many characters of t's result the model sees: the
// turn's setting for the tool ("server__tool") or its server
// ("server__*"), else defaultBudget, which a tool's size hint raises up to
// half the window.
func (r *run) resultBudget(t registry.Tool) int {
	for _, k := range []string{t.Server + "__" + t.Tool.Name, t.Server + "__*"} {
		if n := r.t.ResultBudgetFor[k]; n > 0 {
			return n
		}
	}
	budget := r.defaultBudget()
	if hint := sizeHint(t.Tool); hint > budget {
		budget = max(budget, min(hint, r.t.window()/2*charsPerToken))
	}
	return budget
}

// defaultBudget is the smaller of the turn's ResultBudget and its
// ResultShare of the window.
func (r *run) defaultBudget() int {
	share := r.t.ResultShare
	if share <= 0 {
		share = DefaultResultShare
	}
	byWindow := r.t.window() * share / 100 * charsPerToken
	return max(min(r.t.ResultBudget, byWindow), minResultBudget)
}

// charsPerToken turns a token budget into characters for English text
// and JSON; text that takes more tokens a character is cut by its own
// estimate (headTokens).
const charsPerToken = 4

// minResultBudget keeps a result readable on a tiny window.
const minResultBudget = 800

// sizeHint is the tool's MaxResultSizeHint, 0 when it has none.
func sizeHint(t mcp.Tool) int {
	if t.Meta == nil {
		return 0
	}
	v, ok := t.Meta.AdditionalFields[MaxResultSizeHint]
	if !ok {
		return 0
	}
	if f, ok := v.(float64); ok && f > 0 {
		return int(f)
	}
	return 0
}

// keep caps res for the model when its text is over budget: the whole text
// goes to the ResultStore and res gets the handle in its _meta. It returns
// res unchanged when the text fits, there is no store, or the store fails
// (the model then gets the head with a plain note).
func (r *run) keep(ctx context.Context, callID, tool string, res *mcp.CallToolResult, budget int) {
	if r.e.opts.Results == nil || res == nil {
		return
	}
	text := resultText(res)
	if len([]rune(text)) <= budget {
		return
	}
	k, err := r.e.opts.Results.Keep(ctx, r.t.ChatID, callID, tool, text)
	if err != nil {
		return
	}
	k.Lines, k.Chars = strings.Count(text, "\n")+1, len([]rune(text))
	head := truncateHead(text, budget)
	k.Shown = strings.Count(head, "\n") + 1
	if res.Meta == nil {
		res.Meta = &mcp.Meta{}
	}
	if res.Meta.AdditionalFields == nil {
		res.Meta.AdditionalFields = map[string]any{}
	}
	res.Meta.AdditionalFields[MetaKept] = k
}

// keptOf reads the handle a stored result carries.
func KeptOf(raw json.RawMessage) (Kept, bool) {
	var v struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(raw, &v) != nil || v.Meta[MetaKept] == nil {
		return Kept{}, false
	}
	var k Kept
	if json.Unmarshal(v.Meta[MetaKept], &k) != nil || k.ContentID == "" {
		return Kept{}, false
	}
	return k, true
}

// cappedText is a kept result as the model reads it: its head, then where
// the rest is and how to read it.
func cappedText(text string, budget int, k Kept) string {
	head := truncateHead(text, budget)
	shown := strings.Count(head, "\n") + 1
	return fmt.Sprintf("%s\n[capped: showing lines 1–%d of %d (%d of %d characters). The whole result is kept: call %s with contentId %q and fromLine %d to read on, or %s with storeId %q and a query to search it.]",
		head, shown, k.Lines, len([]rune(head)), k.Chars, k.Read, k.ContentID, shown+1, k.Search, k.StoreID)
}

// withKeptTools adds to tools the content store's tools that read the
// capped results the conversation holds, when the turn does not offer
// them already (the chat switched them off, or tool search left them
// out): a handle the model cannot use would be a dead end.
func (r *run) withKeptTools(tools []provider.Tool) []provider.Tool {
	need := map[string]bool{}
	for _, p := range r.conv.parts {
		for _, k := range p.kept {
			need[k.Read], need[k.Search] = true, true
		}
	}
	if len(need) == 0 {
		return tools
	}
	for _, t := range tools {
		delete(need, t.Name)
	}
	for _, name := range slices.Sorted(maps.Keys(need)) {
		t, ok := r.every[name]
		if !ok {
			continue
		}
		schema, err := t.Schema()
		if err != nil {
			continue
		}
		tools = append(tools, provider.Tool{Name: t.Name, Description: t.Tool.Description, InputSchema: schema})
		r.tools[t.Name] = t
	}
	return tools
}
