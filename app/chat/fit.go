package chat

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/toolsearch"
	"github.com/switchboard-app/switchboard/app/history"
)

// Keeping a chat within its model's context window. Before each step the
// engine estimates the request (system prompt, tool definitions, the
// conversation and the apps' context), scaled by what the provider
// reported for the chat's earlier requests (a conservative scale before
// the first report). Over CompactAt percent of the context size (the
// model's, else toolsearch.DefaultWindow, assumed and said so) it first
// shrinks earlier turns' tool results to stubs, in one large step, then has
// the model summarise the earlier turns into a summary message, which the
// model reads instead of them; the turn in progress (the user's message,
// this turn's calls and results) stays as it is, and only when it alone
// does not fit are its own results stubbed, and the user told; a result
// the model never saw is set aside rather than stubbed bare (aside.go). A request
// over the context is never sent; a provider's context-length error
// compacts and retries once.

// DefaultCompactAt is the percent of the context window past which a chat
// is compacted.
const DefaultCompactAt = 80

// ErrTooLong means even compacted, the request does not fit the model's
// context. Its error says whether there was anything to summarise.
var ErrTooLong = errors.New("the request does not fit the model's context window")

// ContextView is the context meter: what the next request takes of the
// model's context window, in estimated tokens, and of what.
type ContextView struct {
	Used   int `json:"used"`
	Window int `json:"window"` // 0: not known
	// Limit is where compaction starts (CompactAt percent of Window).
	Limit   int `json:"limit"`
	System  int `json:"system"`
	Tools   int `json:"tools"`
	History int `json:"history"` // conversation text (with the apps' context)
	Results int `json:"results"` // tool results
	// Stubbed is how many old steps' results were shrunk to stubs.
	Stubbed int `json:"stubbed,omitempty"`
	// Compacting is set on the event sent while a summary is written.
	Compacting bool `json:"compacting,omitempty"`
	// Calibrated: the estimate is scaled by what the provider reported.
	Calibrated bool `json:"calibrated,omitempty"`
	// Assumed: the model's window is not known; Window is the
	// conservative default the engine keeps the chat under (set the real
	// one in Settings → Chat → Long chats → Context windows).
	Assumed bool `json:"assumed,omitempty"`
	// Exact: Used is the provider's own count of the request (its
	// tokenizer), not an estimate.
	Exact bool `json:"exact,omitempty"`
	// TurnStubbed is how many of this turn's own steps reach the model
	// with (some of) their results as stubs: the turn alone did not fit.
	TurnStubbed int `json:"turnStubbed,omitempty"`
	// TurnStubbedResults is how many of this turn's own results reach the
	// model as stubs: a step of fifteen results may have three of them
	// stubbed, the rest whole.
	TurnStubbedResults int `json:"turnStubbedResults,omitempty"`
}

// contextSize is the model's context window for budgets: the known one, else
// the conservative toolsearch.DefaultWindow.
func (t *Turn) contextSize() int {
	if t.ContextWindow > 0 {
		return t.ContextWindow
	}
	return toolsearch.DefaultWindow
}

// limit is the estimate past which the turn compacts: CompactAt percent
// of the context size (an assumed one when the model's is not known).
func (t *Turn) limit() int {
	at := t.CompactAt
	if at <= 0 || at > 100 {
		at = DefaultCompactAt
	}
	return t.contextSize() * at / 100
}

// request is one step's estimate.
type request struct {
	msgs []provider.Message
	// tools are what the request offers: read_result joins them when a
	// result is set aside for it (aside.go).
	tools   []provider.Tool
	view    ContextView
	raw     int // the estimate before calibration
	stubbed int
	// partial is how many of the first results of the part after the
	// stubbed ones are stubbed too (see shrinkTurn).
	partial int
	// retry: the request is the step's second, after the provider refused
	// the first as too long; summarised: the chat was summarised for it.
	retry, summarised bool
}

// measure assembles the conversation with the first stubs parts stubbed
// and estimates the request.
func (r *run) measure(tools []provider.Tool, stubs int, extra int) request {
	return measureCut(r, tools, stubs, 0, extra)
}

// measureCut is measure with, besides, the first partial results of the
// part after the stubbed ones stubbed. A function, not a method: run has
// methods enough (layout_test.go).
func measureCut(r *run, tools []provider.Tool, stubs, partial, extra int) request {
	q := request{msgs: r.withContext(assemble(r.conv.parts, stubs, partial)), tools: tools, stubbed: stubs, partial: partial}
	v := &q.view
	v.System = textTokens(r.t.System)
	v.Tools = toolTokens(tools)
	for i, p := range r.conv.parts {
		if i < stubs && p.stubbed != nil {
			v.History += p.stubTokens // the step's message and its stubs, all of it
			continue
		}
		v.History += p.tokens - p.results
		v.Results += p.results
		if i == stubs && partial > 0 {
			full, stubs := p.cut(partial)
			v.Results -= full
			v.History += stubs
		}
	}
	if r.t.Context != nil {
		v.History += textTokens(r.t.Context())
	}
	v.History += extra
	q.raw = v.System + v.Tools + v.History + v.Results
	c := r.conv.cal
	v.System, v.Tools, v.History, v.Results = c.apply(v.System), c.apply(v.Tools), c.apply(v.History), c.apply(v.Results)
	v.Used = v.System + v.Tools + v.History + v.Results
	v.Window, v.Limit, v.Calibrated, v.Assumed = r.t.contextSize(), r.t.limit(), c.scale != 0, r.t.ContextWindow <= 0
	cur := r.conv.turnStart()
	for i := range min(stubs+min(partial, 1), len(r.conv.parts)) {
		p := r.conv.parts[i]
		if p.stubbed == nil {
			continue
		}
		v.Stubbed++
		if i >= cur {
			n := p.resultCount()
			if i == stubs {
				n = min(partial, n)
			}
			v.TurnStubbed++
			v.TurnStubbedResults += p.shrunk(n)
		}
	}
	return q
}

// shrinkTurn stubs results from the oldest on until q fits limit: those
// of the earlier parts, then one at a time those of the turn's own steps,
// so a step of many results (a model reading fifteen files at once) still
// shows the model the latest of them whole, rather than none. A function,
// as measureCut.
func shrinkTurn(r *run, tools []provider.Tool, q request, limit int) request {
	parts := r.conv.parts
	for s := 0; s < len(parts) && q.view.Used > limit; s++ {
		for k := 1; k < parts[s].resultCount() && q.view.Used > limit; k++ {
			q = measureCut(r, tools, s, k, 0)
		}
		if q.view.Used > limit {
			q = r.measure(tools, s+1, 0)
		}
	}
	return q
}

// fit is the next step's request within the model's context (force:
// compact even if the estimate fits, after the provider said it does not).
// It sends the meter's event.
//
// Earlier turns' results are stubbed first, from the oldest, in one large
// step (to three quarters of the limit) that later steps keep, so the
// requests' prefix, which a prompt cache holds, changes seldom; then the
// earlier turns are summarised; then, only if the turn in progress alone
// is over the limit, its own results are stubbed, its oldest first.
func (r *run) fit(ctx, store context.Context, tools []provider.Tool, force bool) (request, error) {
	c := r.conv
	limit := r.t.limit()
	cur := c.turnStart()
	q := r.measure(tools, min(c.stubs, cur), 0)
	exact(ctx, r, &q)
	if force || q.view.Used > limit {
		target := limit * 3 / 4
		for s := q.stubbed + 1; s <= cur && (force || q.view.Used > target); s++ {
			q = r.measure(tools, s, 0)
		}
	}
	if force || q.view.Used > limit {
		summarised, err := r.compact(ctx, store, tools, true, false)
		if err != nil {
			return q, err
		}
		q = shrinkTurn(r, tools, r.measure(tools, 0, 0), limit)
		q.summarised = summarised
	}
	q, err := keepAside(ctx, store, r, q, limit)
	if err != nil {
		return q, err
	}
	c.stubs = q.stubbed
	if !q.view.Exact {
		exact(ctx, r, &q) // the request as it now is, when it is near the limit still
	}
	r.meter(q.view)
	if q.view.Used > q.view.Window {
		done := "; nothing earlier in the chat was left to summarise"
		if q.summarised {
			done = ", with the earlier messages summarised"
		}
		return q, fmt.Errorf("%w (about %d of %d tokens%s): shorten the message or the tools' results, turn some tools off, or pick a model with a larger window",
			ErrTooLong, q.view.Used, q.view.Window, done)
	}
	return q, nil
}

// exact replaces the estimate of q by the provider's own count when it
// has one (provider.Counter: the built-in local model's llama-server) and
// q is near the limit, where the estimate's error matters: the count
// calibrates the chat's estimate, and q is measured again with it.
func exact(ctx context.Context, r *run, q *request) {
	counter, ok := r.t.Provider.(provider.Counter)
	if !ok || q.view.Used < r.t.limit()*3/4 {
		return
	}
	n, err := counter.CountTokens(ctx, provider.Request{Model: r.t.Model, System: r.t.System, Messages: q.msgs, Tools: q.tools})
	if err != nil || n <= 0 {
		return
	}
	r.conv.cal.set(q.raw, n)
	summarised := q.summarised
	*q = measureCut(r, q.tools, q.stubbed, q.partial, 0)
	q.view.Exact, q.summarised = true, summarised
}

// turnStart is the index of the part that starts the turn in progress
// (the user's last message); what comes before it may be summarised.
func (c *convo) turnStart() int {
	for i := len(c.parts) - 1; i >= 0; i-- {
		if c.parts[i].role == history.RoleUser {
			return i
		}
	}
	return 0
}

// meter sends the context meter, with the note on the window (r.told)
// when there is one to say.
func (r *run) meter(v ContextView) {
	ev := Event{Type: EventContext, Context: &v}
	ev.Error, r.told = r.told, ""
	r.emit(ev)
}

// fitsNew says whether the chat, with text added as a new user message,
// stays under the compaction limit; Send compacts before storing the
// message when it does not, so the summary comes before it.
func (r *run) fitsNew(tools []provider.Tool, text string) bool {
	limit := r.t.limit()
	if len(r.conv.parts) == 0 {
		return true
	}
	q := r.measure(tools, min(r.conv.stubs, len(r.conv.parts)), messageTokens(provider.Message{Role: provider.RoleUser, Text: text}))
	return q.view.Used <= limit
}

// Summaries. The chat's own model writes them; its request must fit the
// context too, so a long stretch is summarised in pieces, each with the
// summary so far.
const summarySystem = "You summarise a conversation between a user and an AI assistant that uses tools, so that the assistant can go on without the original messages. " +
	"Keep: what the user asked for and still wants (quote their latest request word for word), decisions and preferences, facts and figures found, " +
	"which tools were called with which important arguments and what they returned (ids, paths, names, numbers), what is done and what is left to do, and any open question. " +
	"Leave out pleasantries and anything superseded. Write it in the conversation's language, as compact notes under short headings, at most 400 words."

// summaryTokens caps a summary's length.
const summaryTokens = 1_024

// compact summarises the chat's convo, stores the summary and puts it in
// place of what it summarised: every part, or (keepTurn) the parts before
// the turn in progress, which stays verbatim after the summary. asked: the
// user asked for it (Compact now), stored with it so the chat says so.
// It says whether there was anything to summarise.
func (r *run) compact(ctx, store context.Context, tools []provider.Tool, keepTurn, asked bool) (bool, error) {
	parts := r.conv.parts
	covers := 0
	if cut := r.conv.turnStart(); keepTurn && cut < len(parts) {
		parts, covers = parts[:cut], parts[cut].seq-1
	}
	if len(parts) == 0 || len(parts) == 1 && parts[0].role == history.RoleSummary {
		return false, nil
	}
	r.meter(ContextView{Window: r.t.contextSize(), Limit: r.t.limit(), Assumed: r.t.ContextWindow <= 0, Compacting: true})
	start := time.Now()
	text, err := r.summarise(ctx, parts)
	if err != nil {
		return false, err
	}
	sum, err := r.appendMessage(store, history.Message{
		ChatID: r.t.ChatID, Role: history.RoleSummary, Text: text, Model: r.t.Model, Status: history.StatusComplete, Covers: covers, Asked: asked,
	})
	if err != nil {
		return false, fmt.Errorf("save summary: %w", err)
	}
	r.add(sum)
	r.emit(Event{Type: EventMessage, MessageID: sum.ID, Role: history.RoleSummary, Text: sum.Text, Steps: len(parts), DurationMs: time.Since(start).Milliseconds()})
	return true, nil
}

// summarise writes the summary of parts: the model's, in pieces that fit
// its context; if the model fails, a plain list of what the user asked,
// so the chat goes on (a summary is better than a dead chat). Stopped
// (ctx cancelled), it returns ctx's error and no summary: the model never
// failed, and a stand-in stored then would replace the earlier messages
// for the rest of the chat.
func (r *run) summarise(ctx context.Context, parts []part) (string, error) {
	// Each piece: the summary so far plus as many messages as fit half
	// the context (the rest is the instructions and the answer).
	room := r.t.contextSize()/2 - textTokens(summarySystem) - summaryTokens
	summary := ""
	var piece strings.Builder
	flush := func() error {
		if piece.Len() == 0 {
			return nil
		}
		prompt := "Conversation:\n\n" + piece.String()
		if summary != "" {
			prompt = "Summary of the conversation before this part:\n\n" + summary + "\n\n" + prompt
		}
		resp, err := r.t.Provider.Stream(ctx, provider.Request{
			Model: r.t.Model, System: summarySystem, MaxTokens: summaryTokens,
			Messages: []provider.Message{{Role: provider.RoleUser, Text: prompt + "\n\nWrite the summary now."}},
		}, func(provider.Event) {})
		if err != nil {
			return err
		}
		if s := strings.TrimSpace(resp.Text); s != "" {
			summary = s
		}
		piece.Reset()
		return nil
	}
	used := textTokens(summary)
	for _, p := range parts {
		line := transcript(p)
		n := textTokens(line)
		if used+n > room && piece.Len() > 0 {
			if err := flush(); err != nil {
				return failedSummary(ctx, parts, err)
			}
			used = textTokens(summary)
		}
		line = truncateHead(line, max(room-used, 200)*charsPerToken)
		piece.WriteString(line)
		used += textTokens(line)
	}
	if err := flush(); err != nil || summary == "" {
		return failedSummary(ctx, parts, err)
	}
	return summary, nil
}

// failedSummary is what stands in for a summary the model did not write:
// the plain list, unless the user stopped it (ctx's error then).
func failedSummary(ctx context.Context, parts []part, err error) (string, error) {
	if ctx.Err() != nil {
		return "", ctx.Err()
	}
	return plainSummary(parts, err), nil
}

// transcript is one part as the summariser reads it.
func transcript(p part) string {
	var b strings.Builder
	for _, m := range p.msgs {
		switch m.Role {
		case provider.RoleUser:
			fmt.Fprintf(&b, "User: %s\n\n", m.Text)
		case provider.RoleAssistant:
			if m.Text != "" {
				fmt.Fprintf(&b, "Assistant: %s\n\n", m.Text)
			}
			for _, c := range m.ToolCalls {
				fmt.Fprintf(&b, "Assistant called %s(%s)\n", c.Name, truncate(string(c.Arguments), 500))
			}
		case provider.RoleTool:
			fmt.Fprintf(&b, "Result of %s: %s\n\n", m.ToolName, truncate(m.Text, transcriptResult))
		}
	}
	return b.String()
}

// transcriptResult caps each tool result in what the summariser reads.
const transcriptResult = 2_000

// plainSummary stands in when the model could not summarise: what the
// user asked, in order, so the chat can go on.
func plainSummary(parts []part, err error) string {
	var b strings.Builder
	b.WriteString("(The model could not summarise the earlier messages")
	if err != nil {
		fmt.Fprintf(&b, ": %s", firstLine(err.Error()))
	}
	b.WriteString("; this is what the user asked in them.)\n")
	for _, p := range parts {
		for _, m := range p.msgs {
			if m.Role == provider.RoleUser {
				fmt.Fprintf(&b, "- %s\n", truncate(firstLine(m.Text), 300))
			}
		}
	}
	return b.String()
}

// step runs one model request within the model's context: fit, stream, and
// on a provider's context-length error (the estimate was short, or the
// context size is not known, or set larger than the model's) one
// compaction and a second try, answered into the same message: a refusal
// that the retry recovers from is neither stored nor shown, and one it
// does not is stored once, saying what was tried.
func (r *run) step(ctx, store context.Context, tools []provider.Tool) (history.Message, provider.Response, error) {
	q, err := r.fit(ctx, store, tools, false)
	if err != nil {
		return r.refuse(store, history.Message{}, err)
	}
	msg, resp, err := r.stream(ctx, store, q, q.tools, history.Message{})
	if !errors.Is(err, provider.ErrContextLength) || ctx.Err() != nil {
		// The answer keeps its request's estimate: add learns from it and
		// the reported usage, now and when the chat is read again.
		return msg, resp, err
	}
	r.told = learnRefusal(r, q, err)
	if q, err = r.fit(ctx, store, q.tools, true); err != nil {
		return r.refuse(store, msg, err)
	}
	q.retry = true
	return r.stream(ctx, store, q, q.tools, msg)
}

// learnRefusal takes in what a provider's context-length refusal of q
// says: the chat counts higher from now on (as high as the error says the
// request was); and the model's context size, for the retry and the rest
// of the chat, when it was not known, or when the error states one
// smaller than the one in use (a --context-window or a setting larger
// than the model's: with it every request past the model's size would be
// sent, refused and sent again). Then it returns the note saying so.
func learnRefusal(r *run, q request, err error) string {
	c, window, refused := r.conv, r.t.ContextWindow, refusedTokens(err)
	stated := statedSize(err)
	switch {
	case window <= 0:
		// Not known: take what the error says of it, else a guess below
		// what was refused, for the summary's requests and the chat's next
		// turns.
		c.toldSize = contextSizeFrom(err, q.view.Used)
		r.t.ContextWindow = c.toldSize
		c.cal.learn(q.raw, refused)
	case stated > 0 && stated < window:
		c.toldMax, r.t.ContextWindow = stated, stated
		if n := max(refused, stated+1); n > q.view.Used {
			c.cal.learn(q.raw, n) // the request was at least that long, and the estimate said less
		}
		return fmt.Sprintf("The model's context window is %d tokens (its provider said so refusing a longer request), not the %d this chat was given; the chat is kept within %d tokens now. To have it so from the start, set it in %s.",
			stated, window, stated, setWindowAt(stated))
	default:
		// It did not fit: count higher from now on.
		c.cal.learn(q.raw, max(refused, window+1))
	}
	return ""
}

// setWindowAt is where a model's context window is set (to tokens, when
// known), in the window and on the command line.
func setWindowAt(tokens int) string {
	v, n := "tokens", "N"
	if tokens > 0 {
		v, n = strconv.Itoa(tokens), strconv.Itoa(tokens)
	}
	return fmt.Sprintf("Settings → Chat → Long chats → Context windows (provider/model=%s), or with switchboard chat --context-window %s", v, n)
}

// answerError is a failed answer's stored error (ErrorText), but for a
// context-length refusal of the retry it says what the retry did (the
// provider cannot know) and where the model's real window is set.
func answerError(err error, q request, model string) string {
	if !q.retry || !errors.Is(err, provider.ErrContextLength) {
		return ErrorText(err)
	}
	tried := "after the earlier messages were summarised"
	if !q.summarised {
		tried = "(there were no earlier messages to summarise)"
	}
	return fmt.Sprintf("The model %q refused the request as longer than its context window, also when asked again %s. Set the model's real context window in %s; or shorten the message, or start a new chat.",
		model, tried, setWindowAt(0)) + "\n\n" + err.Error()
}

// refuse stores an assistant message saying why the request was not sent,
// so the chat shows it where the answer would be: held, when set, is the
// message of a request refused as too long that could not be asked again,
// else a new one.
func (r *run) refuse(store context.Context, held history.Message, cause error) (history.Message, provider.Response, error) {
	msg := held
	msg.Status, msg.Error = history.StatusError, ErrorText(cause)
	if errors.Is(cause, context.Canceled) { // stopped while summarising: as a stopped answer
		msg.Status, msg.Error = history.StatusCancelled, "stopped"
	}
	var err error
	if held.ID != "" {
		err = r.e.opts.History.UpdateMessage(store, msg)
	} else {
		msg, err = r.appendMessage(store, history.Message{
			ChatID: r.t.ChatID, Role: history.RoleAssistant, Model: r.t.Model, Status: msg.Status, Error: msg.Error,
		})
		if err == nil {
			r.emit(Event{Type: EventMessage, MessageID: msg.ID, Role: history.RoleAssistant})
		}
	}
	if err != nil {
		return msg, provider.Response{}, fmt.Errorf("save message: %w", err)
	}
	r.emit(Event{Type: EventMessageEnd, MessageID: msg.ID, Status: msg.Status, Error: msg.Error})
	return msg, provider.Response{}, cause
}

// sizeNumbers find the context size in providers' context-length errors:
// OpenAI's "maximum context length is 8192 tokens", Anthropic's "> 200000
// maximum", llama.cpp's "context size (4096 tokens)", Ollama's "num_ctx".
var sizeNumbers = regexp.MustCompile(`(?:maximum context length is |> ?|context size \(|num_ctx |context window of )(\d{3,9})`)

// refusedNumbers find the size of the refused request in providers'
// context-length errors: OpenAI's "resulted in 9701 tokens", Anthropic's
// "prompt is too long: 210000 tokens", Ollama's (this engine's) "about
// 9701 tokens".
var refusedNumbers = regexp.MustCompile(`(?:resulted in|too long: ?|request \(about) (\d{2,9}) tokens`)

// refusedTokens is the size of the refused request a context-length error
// tells, else 0.
func refusedTokens(err error) int {
	if m := refusedNumbers.FindStringSubmatch(err.Error()); m != nil {
		if n, perr := strconv.Atoi(m[1]); perr == nil {
			return n
		}
	}
	return 0
}

// statedSize is the context size a context-length error states, else 0.
func statedSize(err error) int {
	if m := sizeNumbers.FindStringSubmatch(err.Error()); m != nil {
		if n, perr := strconv.Atoi(m[1]); perr == nil {
			return n
		}
	}
	return 0
}

// contextSizeFrom is the context size a context-length error tells, else
// three quarters of the refused request's estimate.
func contextSizeFrom(err error, refused int) int {
	if n := statedSize(err); n > 0 && (refused == 0 || n < refused*2) {
		return n
	}
	return max(refused*3/4, 1024)
}

// Compact summarises the chat now ("Compact now"): from then on the model
// reads the summary instead of the messages before it. It runs as a turn
// of its own (ErrBusy while one runs), with t's model and events.
func (e *Engine) Compact(ctx context.Context, t Turn) error {
	ctx, r, done, err := e.idle(ctx, t)
	if err != nil {
		return err
	}
	defer r.emit(Event{Type: EventDone})
	defer done()
	store := context.WithoutCancel(ctx)
	tools, err := r.prepare(ctx, store)
	if err != nil {
		return err
	}
	if _, err := r.compact(ctx, store, tools, false, true); err != nil {
		return err
	}
	r.meter(r.measure(tools, 0, 0).view)
	return nil
}

// Measure is the context meter of the chat's next request (for a chat
// just opened); ErrBusy while a turn runs, whose events carry the meter.
//
// It does not take the chat (a message sent meanwhile is not refused as
// busy): it reads the chat into a conversation of its own.
func (e *Engine) Measure(ctx context.Context, t Turn) (ContextView, error) {
	if e.Running(t.ChatID) {
		return ContextView{}, ErrBusy
	}
	e.mu.Lock()
	own := &convo{}
	if c := e.convos[t.ChatID]; c != nil {
		own.cal, own.toldSize, own.toldMax = c.cal, c.toldSize, c.toldMax
	}
	e.mu.Unlock()
	r := e.runFor(t, own)
	tools, err := r.prepare(ctx, context.WithoutCancel(ctx))
	if err != nil {
		return ContextView{}, err
	}
	return r.measure(tools, 0, 0).view, nil
}

// idle takes the chat for work that is not a Send, to run under the
// context returned: done frees it.
func (e *Engine) idle(ctx context.Context, t Turn) (context.Context, *run, func(), error) {
	ctx, ok := e.begin(ctx, t.ChatID)
	if !ok {
		return ctx, nil, nil, ErrBusy
	}
	return ctx, e.runFor(t, e.convo(t.ChatID, false)), func() { e.end(t.ChatID) }, nil
}

// prepare lists the tools, brings the conversation up to date and returns
// what the next step would offer.
func (r *run) prepare(ctx, store context.Context) ([]provider.Tool, error) {
	if err := r.tools0(ctx); err != nil {
		return nil, err
	}
	if err := r.sync(store); err != nil {
		return nil, err
	}
	tools, err := r.offer(ctx)
	if err != nil {
		return nil, err
	}
	return keptOf(r).withKeptTools(tools), nil
}
