package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// kept is a run's long results: the share of the context window a result
// may take, the results kept in the content store beyond it, and the tool
// that reads them on. A value type over the run, which holds them.
type kept struct{ r *run }

// keptOf is r's long results.
func keptOf(r *run) kept { return kept{r} }

// Capped results. A tool result over its budget reaches the model as its
// head and a handle; the whole result (up to the turn's KeepLimit) goes to
// a ResultStore that keeps it for this chat alone. The model reads on or
// searches it with read_result, a tool the engine answers itself and binds
// to the chat: it reaches no other chat's results, no server's tool and
// nothing a server named. The history keeps the whole result too: the
// tool card shows all of it and says what the model saw.
//
// The handle is the host's own record. A server's result may carry
// anything in its _meta, MetaKept included: that key is removed from every
// result a server returns (stripKept) before the engine adds its own, so a
// handle read back from the history was written by this engine.

// ResultStore keeps whole tool results the model sees only the head of,
// each chat's apart from every other's. It must be safe for concurrent use
// (a step's calls run in parallel).
type ResultStore interface {
	// Keep stores text, a result of tool in chat chatID, and returns its
	// handle (ID set); an error leaves the result cut with no handle.
	Keep(ctx context.Context, chatID, callID, tool, text string) (Kept, error)
	// Read returns lines from..to (1-based, inclusive; to 0: as many as
	// one read returns) of chat chatID's kept result id. A result chatID
	// does not hold is ErrNotKept.
	Read(ctx context.Context, chatID, id string, from, to int) (KeptLines, error)
	// Search finds query in chat chatID's kept results (only in result id
	// when id is set), best first.
	Search(ctx context.Context, chatID, id, query string) ([]KeptHit, error)
}

// ErrNotKept is a kept result the chat does not hold: an id from another
// chat, a deleted chat or no kept result at all.
var ErrNotKept = errors.New("this chat holds no kept result with that id")

// KeptLines are lines of a kept result.
type KeptLines struct {
	From  int    `json:"fromLine"`
	To    int    `json:"toLine"`
	Total int    `json:"totalLines"`
	Text  string `json:"text"`
	// More is set when the result goes on after To.
	More bool `json:"more"`
}

// KeptHit is one place a search found in a kept result.
type KeptHit struct {
	ID      string `json:"id"`
	From    int    `json:"fromLine"`
	To      int    `json:"toLine"`
	Snippet string `json:"snippet"`
}

// Kept is the handle of a kept result.
type Kept struct {
	// ID names the result among its chat's kept results: what the model
	// passes to read_result.
	ID string `json:"id"`
	// Lines and Chars are the whole result's size.
	Lines int `json:"lines"`
	Chars int `json:"chars"`
	// Shown is how many of its lines the model saw.
	Shown int `json:"shown,omitempty"`
	// Seen is how many of its characters, from the start, the model saw:
	// where the card draws its marker (a result that is one long line
	// has one line but many pieces). 0 in handles stored before it was
	// recorded.
	Seen int `json:"seen,omitempty"`
	// Dropped is how many of its characters were not kept: those past the
	// turn's KeepLimit. read_result reads up to where they start.
	Dropped int `json:"dropped,omitempty"`
}

// MetaKept is the _meta key under which a stored result carries its Kept
// handle, so a reopened chat, the model's later steps and the tool card
// all know the result was capped and where the rest is. Only the engine
// writes it (see stripKept).
const MetaKept = "io.switchboard/kept"

// ReadResultName is the tool the model reads and searches its chat's kept
// results with.
const ReadResultName = "read_result"

// DefaultKeepLimit is how many bytes of one result are kept by default:
// enough for any listing or log a model pages through, small enough that
// keeping and indexing it stays well within memory.
const DefaultKeepLimit = 4 << 20

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
// half the context window.
func (x kept) resultBudget(t router.Tool) int {
	r := x.r
	for _, k := range []string{t.Server + "__" + t.Tool.Name, t.Server + "__*"} {
		if n := r.t.ResultBudgetFor[k]; n > 0 {
			return n
		}
	}
	budget := keptOf(r).defaultBudget()
	if hint := sizeHint(t.Tool); hint > budget {
		budget = max(budget, min(hint, r.t.contextSize()/2*charsPerToken))
	}
	return budget
}

// defaultBudget is the smaller of the turn's ResultBudget and its
// ResultShare of the context window.
func (x kept) defaultBudget() int {
	r := x.r
	share := r.t.ResultShare
	if share <= 0 {
		share = DefaultResultShare
	}
	byWindow := r.t.contextSize() * share / 100 * charsPerToken
	return max(min(r.t.ResultBudget, byWindow), minResultBudget)
}

// fitsBudget says whether text is within a result budget of budget
// characters: as many characters, and as many tokens as that many
// characters of English take (CJK text, near a token a character, passes
// the character count four times over).
func fitsBudget(text string, budget int) bool {
	if budget <= 0 {
		return true
	}
	if len(text) > budget*utf8.UTFMax { // more characters than the budget, whatever they are
		return false
	}
	return utf8.RuneCountInString(text) <= budget && textTokens(text) <= (budget+3)/charsPerToken
}

// charsPerToken turns a token budget into characters for English text
// and JSON; text that takes more tokens a character is cut by its own
// estimate (headTokens).
const charsPerToken = 4

// minResultBudget keeps a result readable on a tiny context window.
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

// keep caps res for the model when its text is over budget: the text
// (its first KeepLimit bytes), its long lines wrapped so it can be read a
// page at a time, goes to the ResultStore and res gets the handle in its
// _meta. It returns res unchanged when the text fits, there is no store,
// or the store fails (the model then gets the head with a plain note).
func (x kept) keep(ctx context.Context, callID, tool string, res *mcp.CallToolResult, budget int) {
	r := x.r
	if r.e.opts.Results == nil || res == nil {
		return
	}
	text := resultText(res)
	if fitsBudget(text, budget) {
		return
	}
	chars := utf8.RuneCountInString(text)
	kept := headBytes(text, r.t.keepLimit())
	wrapped := wrapLong(kept)
	k, err := r.e.opts.Results.Keep(ctx, r.t.ChatID, callID, tool, wrapped)
	if err != nil || k.ID == "" {
		return
	}
	k.Chars, k.Dropped = chars, chars-utf8.RuneCountInString(kept)
	k.Lines = wrappedLines(text)
	head, _ := keptHead(text, budget)
	k.Shown = strings.Count(head, "\n") + 1
	k.Seen = utf8.RuneCountInString(text[:unwrappedLen(text, head)])
	if res.Meta == nil {
		res.Meta = &mcp.Meta{}
	}
	if res.Meta.AdditionalFields == nil {
		res.Meta.AdditionalFields = map[string]any{}
	}
	res.Meta.AdditionalFields[MetaKept] = k
}

// keepLimit is the turn's KeepLimit, else DefaultKeepLimit.
func (t Turn) keepLimit() int {
	if t.KeepLimit > 0 {
		return t.KeepLimit
	}
	return DefaultKeepLimit
}

// stripKept removes MetaKept and metaAside from a result a server
// returned: only the engine writes those keys. A server's own handle would
// otherwise be read back as the host's record (KeptOf, handlesOf).
func stripKept(res *mcp.CallToolResult) {
	if res != nil && res.Meta != nil {
		delete(res.Meta.AdditionalFields, MetaKept)
		delete(res.Meta.AdditionalFields, metaAside)
	}
}

// KeptOf reads the handle a stored result carries.
func KeptOf(raw json.RawMessage) (Kept, bool) {
	var v struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(raw, &v) != nil || v.Meta[MetaKept] == nil {
		return Kept{}, false
	}
	var k Kept
	if json.Unmarshal(v.Meta[MetaKept], &k) != nil || k.ID == "" {
		return Kept{}, false
	}
	return k, true
}

// maxKeptLine is the longest line a kept result holds: longer lines are
// cut in pieces of this many bytes, so a result that is one huge line
// (minified JSON, a base64 blob) is read a page at a time like any other
// and indexed in chunks of normal size.
const maxKeptLine = 1000

// wrapLong cuts every line of s longer than maxKeptLine bytes into pieces
// of at most that many (at a rune boundary). It works left to right on
// each line alone, so the wrapped head of s is the head of wrapped s.
func wrapLong(s string) string {
	if !hasLongLine(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + len(s)/maxKeptLine + 1)
	eachPiece(s, func(piece string, newline bool) {
		b.WriteString(piece)
		if newline {
			b.WriteByte('\n')
		}
	})
	return b.String()
}

// wrappedLines is how many lines wrapLong(s) has, without making it.
func wrappedLines(s string) int {
	n := 1
	eachPiece(s, func(_ string, newline bool) {
		if newline {
			n++
		}
	})
	return n
}

// eachPiece calls fn with each line wrapLong makes of s, in order, and
// whether a line break follows it.
func eachPiece(s string, fn func(piece string, newline bool)) {
	for len(s) > 0 {
		line, rest, found := strings.Cut(s, "\n")
		for len(line) > maxKeptLine {
			cut := maxKeptLine
			for cut > 0 && !utf8.RuneStart(line[cut]) {
				cut--
			}
			if cut == 0 { // no rune starts there (not UTF-8): cut by bytes, or it would never end
				cut = maxKeptLine
			}
			fn(line[:cut], true)
			line = line[cut:]
		}
		fn(line, found)
		s = rest
	}
}

func hasLongLine(s string) bool {
	for len(s) > maxKeptLine {
		i := strings.IndexByte(s, '\n')
		if i < 0 || i > maxKeptLine {
			return true
		}
		s = s[i+1:]
	}
	return false
}

// headBytes is the first n bytes of s at most, cut at a rune boundary.
func headBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// keptHead is the head of a kept result the model sees: the head of its
// wrapped text (wrapping only the part the head can come from), and
// whether it ends at the end of a line.
func keptHead(text string, budget int) (head string, whole bool) {
	w := wrapLong(headBytes(text, budget*utf8.UTFMax+1))
	head = truncateHead(w, budget)
	return head, len(head) == len(w) || w[len(head)] == '\n'
}

// unwrappedLen is how long w, a head of wrapLong(s), is in s: w without
// the line breaks wrapLong added. A break it added is never followed by
// one of s's own (it cuts a line that goes on), so the two are told apart
// byte by byte.
func unwrappedLen(s, w string) int {
	i := 0
	for j := 0; j < len(w) && i < len(s); j++ {
		if w[j] == s[i] {
			i++
		} // else w[j] is a break wrapLong added
	}
	return i
}

// cappedText is a kept result as the model reads it: its head, then where
// the rest is and how to read it. The head is the result's own text: its
// lines longer than maxKeptLine are counted in pieces, as read_result
// reads them, but the head carries none of the breaks between pieces, and
// the note says read_result's do not belong to the result: a model that
// copies a token, a URL or base64 out of it must not copy breaks into it.
func cappedText(text string, budget int, k Kept) string {
	wrapped, whole := keptHead(text, budget)
	shown := strings.Count(wrapped, "\n") + 1
	next := shown + 1
	if !whole {
		next = shown // the rest of the line the head ends in
	}
	head := text[:unwrappedLen(text, wrapped)]
	var note string
	if !hasLongLine(text) {
		note = fmt.Sprintf("%s\n[capped: showing lines 1–%d of %d (%d of %d characters).", head, shown, k.Lines, utf8.RuneCountInString(head), k.Chars)
	} else {
		note = fmt.Sprintf("%s\n[capped: showing the first %d of %d characters (lines 1–%d of %d as %s counts them: it returns each line longer than %d bytes in pieces, one a line; "+
			"those line breaks are not part of the result, so join the pieces without them).",
			head, utf8.RuneCountInString(head), k.Chars, shown, k.Lines, ReadResultName, maxKeptLine)
	}
	note += fmt.Sprintf(" The result is kept for this chat: call %s with id %q and fromLine %d to read on, or with id %q and a query to search it.",
		ReadResultName, k.ID, next, k.ID)
	if k.Dropped > 0 {
		note += fmt.Sprintf(" Only its first %d characters are kept; the last %d were dropped (over the limit of what is kept of one result).", k.Chars-k.Dropped, k.Dropped)
	}
	return note + "]"
}

// holdsKept reports whether the conversation holds a kept result.
func (x kept) holdsKept() bool {
	r := x.r
	for _, p := range r.conv.parts {
		if len(p.kept) > 0 {
			return true
		}
	}
	return false
}

// withKeptTools adds read_result to tools when the conversation holds a
// kept result: a handle the model cannot use would be a dead end. It is the
// only tool a handle brings, whatever the handle says.
func (x kept) withKeptTools(tools []provider.Tool) []provider.Tool {
	r := x.r
	if r.e.opts.Results == nil || !keptOf(r).holdsKept() {
		return tools
	}
	r.synth[ReadResultName] = synthetic{kind: "result"}
	r.tools[ReadResultName] = router.Tool{Name: ReadResultName, Tool: mcp.Tool{Name: ReadResultName}}
	return append(slices.Clip(tools), provider.Tool{
		Name: ReadResultName,
		Description: "Read on in a tool result of this chat that was too long to show whole (its note says \"capped\" and gives its id): " +
			fmt.Sprintf("pass id and fromLine to read up to %d lines from there, or id and query to find words in it (omit id to search every kept result of this chat).", MaxReadResultLines),
		InputSchema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string","description":"the id the capped result's note gives"},` +
			`"fromLine":{"type":"integer","minimum":1,"description":"first line to read"},"toLine":{"type":"integer","minimum":1,"description":"last line to read"},` +
			`"query":{"type":"string","description":"words to find instead of reading lines"}}}`),
	})
}

// MaxReadResultLines is the most lines one read_result returns.
const MaxReadResultLines = 200

// readResult answers read_result from the chat's own kept results: lines
// of one, or the places a query matches.
func (x kept) readResult(ctx context.Context, params map[string]any) (*mcp.CallToolResult, error) {
	r := x.r
	rs := r.e.opts.Results
	if rs == nil {
		return mcp.NewToolResultError("This chat keeps no tool results."), nil
	}
	id, _ := params["id"].(string)
	if query, _ := params["query"].(string); strings.TrimSpace(query) != "" {
		hits, err := rs.Search(ctx, r.t.ChatID, id, query)
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		if len(hits) == 0 {
			return mcp.NewToolResultText(fmt.Sprintf("No kept result of this chat matches %q.", query)), nil
		}
		var b strings.Builder
		for _, h := range hits {
			fmt.Fprintf(&b, "- id %q, lines %d–%d: %s\n", h.ID, h.From, h.To, h.Snippet)
		}
		return &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent(b.String())}, StructuredContent: map[string]any{"hits": hits}}, nil
	}
	if id == "" {
		return mcp.NewToolResultError(`"id" is required: the id the capped result's note gives (or pass a query to search).`), nil
	}
	from, to := intParam(params["fromLine"]), intParam(params["toLine"])
	if from <= 0 {
		from = 1
	}
	if to <= 0 || to >= from+MaxReadResultLines {
		to = from + MaxReadResultLines - 1
	}
	lines, err := rs.Read(ctx, r.t.ChatID, id, from, to)
	if errors.Is(err, ErrNotKept) {
		return mcp.NewToolResultError(fmt.Sprintf("%v: %q. Use an id a capped result of this chat gives.", err, id)), nil
	}
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	lines = fitPage(lines, r.budgetFor(ReadResultName)-pageNoteRoom)
	text := lines.Text
	if lines.More {
		text += fmt.Sprintf("\n[lines %d–%d of %d; call %s with fromLine %d to read on", lines.From, lines.To, lines.Total, ReadResultName, lines.To+1)
	} else {
		text += fmt.Sprintf("\n[lines %d–%d of %d: the end", lines.From, lines.To, lines.Total)
	}
	if holdsPiece(lines.Text) {
		text += fmt.Sprintf(". Lines longer than %d bytes are returned in pieces, one a line: the break after a piece is not part of the result", maxKeptLine)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent(text + "]")}}, nil
}

// pageNoteRoom is the part of read_result's budget kept for its note.
const pageNoteRoom = 300

// fitPage cuts a read to the whole lines that fit budget characters (at
// least one), so the model gets the note saying where to read on instead
// of a page cut off by its result budget: 200 pieces of a long line are
// 200,000 characters.
func fitPage(l KeptLines, budget int) KeptLines {
	if fitsBudget(l.Text, budget) {
		return l
	}
	head := truncateHead(l.Text, max(budget, 1))
	if len(head) < len(l.Text) && l.Text[len(head)] != '\n' {
		if nl := strings.LastIndexByte(head, '\n'); nl >= 0 {
			head = head[:nl]
		} else {
			head, _, _ = strings.Cut(l.Text, "\n") // one line over the budget: the model's budget cuts it
		}
	}
	l.Text = head
	l.To = l.From + strings.Count(head, "\n")
	l.More = true
	return l
}

// holdsPiece says whether text (lines of a kept result) may hold a piece
// of a longer line: a line as long as wrapLong's pieces are.
func holdsPiece(text string) bool {
	for line := range strings.Lines(text) {
		if len(strings.TrimSuffix(line, "\n")) > maxKeptLine-utf8.UTFMax {
			return true
		}
	}
	return false
}

// intParam reads a JSON number argument.
func intParam(v any) int {
	if f, ok := v.(float64); ok {
		return int(f)
	}
	return 0
}
