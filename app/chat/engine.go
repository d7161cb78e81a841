package chat

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/history"
	"github.com/switchboard-app/switchboard/mcpmanager/codemode"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// MaxSteps is how many model turns with tool calls one Send may take before
// it stops and says so; a Turn can lower or raise it.
var MaxSteps = 12

// Sentinel errors.
var (
	// ErrBusy: the chat already has a turn running.
	ErrBusy = errors.New("this chat is still answering; wait for it or press Stop")
	// ErrEmpty: nothing to send.
	ErrEmpty = errors.New("the message is empty")
	// ErrNoModel: the turn names no model.
	ErrNoModel = errors.New("no model chosen: pick one in the chat's model menu or set a default model in Settings → Models")
)

// Tools is the part of the tool router the engine uses
// (*router.Router). It must be safe for concurrent use. A call goes to
// the server and tool of the router.Tool the model was offered, never to
// a second lookup by name.
type Tools interface {
	Tools(ctx context.Context) ([]router.Tool, []router.ServerError)
	Call(ctx context.Context, server, tool string, args map[string]any, opts router.CallOptions) (*mcp.CallToolResult, error)
}

// History persists the conversation (*history.Store). It must be safe for
// concurrent use; a method returning nil means the write is durable.
type History interface {
	AppendMessage(ctx context.Context, m history.Message) (history.Message, error)
	// AppendMessageAfter appends m and saves done (calls of earlier
	// messages) in one durable write; SaveToolCalls saves calls in one.
	AppendMessageAfter(ctx context.Context, m history.Message, done []history.ToolCall) (history.Message, error)
	UpdateMessage(ctx context.Context, m history.Message) error
	SaveToolCalls(ctx context.Context, calls []history.ToolCall) error
	Messages(ctx context.Context, chatID string) ([]history.Message, error)
	// Recent is the chat's last summary and the messages after it (all
	// of them without a summary); MessagesAfter those with a higher seq.
	Recent(ctx context.Context, chatID string) ([]history.Message, error)
	MessagesAfter(ctx context.Context, chatID string, seq int) ([]history.Message, error)
	// Rewind takes the chat back to a user message (see Turn.From).
	Rewind(ctx context.Context, chatID, messageID, text string) (history.Message, error)
}

var (
	_ Tools   = (*router.Router)(nil)
	_ History = (*history.Store)(nil)
)

// Options configure an Engine.
type Options struct {
	Tools   Tools
	History History
	// Approver asks the user about calls whose policy is "ask". Nil denies them.
	Approver Approver
	// DefaultPolicy is the policy of tools the turn's Policies do not name;
	// nil means DefaultPolicy.
	DefaultPolicy func(router.Tool) Policy
	// Results keeps the whole of tool results over their budget, which
	// the model then reads a page at a time (see kept.go); nil cuts them
	// with a note.
	Results ResultStore
}

// Engine runs turns. It is safe for concurrent use; turns of different chats
// run in parallel, one turn per chat at a time.
type Engine struct {
	opts Options

	mu      sync.Mutex
	running map[string]bool            // chat ID → a turn is running
	wakes   map[string]*provider.Wake  // chat ID → its running turn's Wake (RetryNow)
	always  map[string]map[string]bool // chat ID → tools the user allowed for the chat
	calling map[string][]activeCall    // server → chats with a call running on it
	seq     map[string]int64           // chat ID → last event number
	found   map[string][]string        // chat ID → tools find_tools attached
	index   toolIndex                  // the find_tools index of the last tool set
	set     *toolSet                   // the last turn's tool set (toolset.go)
	convos  map[string]*convo          // chat ID → its conversation as the model reads it
	uses    uint64                     // convo calls so far: each convo's used is one
}

// KeptConversations is how many chats' conversations the engine keeps
// between turns, as the model reads them (the parsed messages, their token
// counts and stubs): those of the chats used last. Another chat's is read
// from the history again at its next turn, as after a restart; what was
// learnt of its model (the token calibration, a context size a provider's
// error told) is kept for every chat. Without a bound a day of chats kept
// every one of them in memory until the app closed. A variable so tests
// can lower it.
var KeptConversations = 8

// activeCall is a chat calling a server: the model its server's sampling
// requests go to when the router ties them to the chat.
type activeCall struct {
	chatID string
	model  Model
}

// New returns an engine.
func New(opts Options) *Engine {
	if opts.DefaultPolicy == nil {
		opts.DefaultPolicy = DefaultPolicy
	}
	return &Engine{opts: opts, running: map[string]bool{}, wakes: map[string]*provider.Wake{}, always: map[string]map[string]bool{}, calling: map[string][]activeCall{}, seq: map[string]int64{}, found: map[string][]string{}, convos: map[string]*convo{}}
}

// Turn is one user message and everything the model does about it.
type Turn struct {
	ChatID   string
	Provider provider.Provider
	Model    string
	System   string
	Text     string
	// From, when set, makes the turn answer again from one of the chat's
	// user messages instead of appending Text: the message (FromLast for
	// the chat's last one) gets Text (empty keeps its text) and every
	// later message is deleted, in one write, before the model is asked.
	// Retry is FromLast with no Text; edit-and-resend is the edited
	// message's id with its new text.
	From string
	// Context, when set, is asked before each model step: what MCP Apps
	// told the model, which may change while the turn runs (it reaches
	// the very next step). It is app text, not the user's or the
	// system's: it goes to the model in the user's turn, before the user's
	// latest message (it should be a delimited block saying whose it is),
	// never into the system prompt, and is not stored in the history.
	Context func() string
	// Active selects the tools the model is offered; nil offers all.
	Active func(router.Tool) bool
	// Policies override the default policy per tool or server.
	Policies Policies
	// Rules allow or deny calls by their arguments; a deny rule wins over
	// everything, the Approver's answer included (the CLI's --yes).
	Rules Rules
	// MaxSteps limits model turns with tool calls; 0 means MaxSteps.
	MaxSteps int
	// ResultBudget limits one tool result's characters; 0 means ResultBudget.
	// A result over its budget reaches the model as its head and a handle
	// to the rest (Options.Results).
	ResultBudget int
	// ResultShare is the percent of the context window one result may take
	// (0: DefaultResultShare); the smaller of it and ResultBudget applies.
	ResultShare int
	// ResultBudgetFor sets a budget in characters per tool
	// ("server__tool") or server ("server__*"), over the two above.
	ResultBudgetFor map[string]int
	// KeepLimit is how many bytes of a capped result are kept for the
	// model to read on (0: DefaultKeepLimit); the rest is dropped, and the
	// result's note says so.
	KeepLimit int
	// CompactAt is the percent of the context window past which the chat
	// is summarised (0: DefaultCompactAt); see fit.go.
	CompactAt int
	// Tools is the tool mode: ToolsDirect ("" too), ToolsCode or
	// ToolsBoth (codemode.go); the host fills in DefaultToolMode.
	Tools string
	// CodeLimits bound each script code mode runs (zero fields: the
	// package codemode's defaults).
	CodeLimits codemode.Limits
	// Delegate offers one ask_<server> tool per server instead of the
	// servers' own tools; each call runs a sub-agent with only that server's
	// tools (see delegate.go).
	Delegate bool
	// SearchAbove, when positive: with more active tools than this, the
	// model gets find_tools and only the tools it found (plus Pinned); 0
	// leaves it to the size rule (SearchShare of ContextWindow), below 0
	// never (toolsearch.Rule).
	SearchAbove int
	// SearchShare is the percent of the model's context window the tool
	// definitions may take before the model searches them (0:
	// toolsearch.DefaultShare).
	SearchShare int
	// SearchLimit caps the tools one find_tools call attaches (0: 10); a
	// small model on this computer is given few tools at a time.
	SearchLimit int
	// ContextWindow is the model's context window in tokens, 0 when not
	// known (toolsearch.DefaultWindow is assumed).
	ContextWindow int
	// Pinned tools (server__tool) are always offered when tool search is on.
	Pinned []string
	// Skills, when set, are the servers' skills the model may load with
	// load_skill (skills.go).
	Skills SkillSet
	// Images says the model accepts images: those tools return reach it as
	// images (Settings.Images decides), else as a line describing each.
	Images bool
	// Audio says the model accepts audio: the WAV and MP3 clips tools
	// return reach it as audio (Settings.Audio decides; never for
	// Anthropic or Ollama, whose APIs take none), else as a line each.
	Audio bool
	// OnEvent receives the turn's events in order, on the turn's goroutine
	// (tool-call events may come from the call goroutines, serialised). It
	// must not block for long.
	OnEvent func(Event)
}

// FromLast is Turn.From for the chat's last user message: retry.
const FromLast = "last"

// Result is how a turn ended.
type Result struct {
	// Message is the last assistant message.
	Message history.Message
	// ToolCalls are every tool call of the turn, in order, across its
	// steps (Message holds only the last step's).
	ToolCalls []history.ToolCall
	// Steps is how many model requests the turn made.
	Steps int
	// StepLimit is true when the loop stopped at MaxSteps.
	StepLimit bool
}

// Send stores the user's message, then runs the model and the tools it asks
// for until the model answers. Cancelling ctx (Stop) cancels the model stream
// and every tool call in flight; what arrived is kept and marked cancelled.
func (e *Engine) Send(ctx context.Context, t Turn) (Result, error) {
	if t.Text == "" && t.From == "" {
		return Result{}, ErrEmpty
	}
	if t.Model == "" {
		return Result{}, ErrNoModel
	}
	ctx, ok := e.begin(ctx, t.ChatID)
	if !ok {
		return Result{}, ErrBusy
	}
	r := e.runFor(t, e.convo(t.ChatID, t.From != ""))
	// Deferred calls run last first: the chat is free again before "done"
	// goes out, so a UI that sends on "done" never meets ErrBusy.
	defer r.emit(Event{Type: EventDone})
	defer e.end(t.ChatID)
	// Persisting must outlive Stop: what arrived before it is kept.
	store := context.WithoutCancel(ctx)
	var user history.Message
	var err error
	var stopWatching func()
	r.changes, stopWatching = watchTools(r.e.opts.Tools) // before the listing: a change while it runs is heard
	defer stopWatching()
	if err := r.tools0(ctx); err != nil {
		return Result{}, err
	}
	if t.From == "" {
		// A message that would take the chat past its limit: the summary
		// comes first, so the message itself reaches the model whole.
		if err := r.sync(store); err != nil {
			return Result{}, err
		}
		if tools, err := r.offer(ctx); err == nil && !r.fitsNew(tools, t.Text) {
			// Stopped while summarising: nothing is summarised, and the
			// message is still stored, its turn ending as stopped.
			if _, err := r.compact(ctx, store, tools, false, false); err != nil && ctx.Err() == nil {
				return Result{}, err
			}
		}
	}
	if t.From != "" {
		// The UI drops what followed the message when its event comes
		// again (the same message id).
		from := t.From
		if from == FromLast {
			from = ""
		}
		user, err = e.opts.History.Rewind(store, t.ChatID, from, t.Text)
	} else {
		user, err = e.opts.History.AppendMessage(store, history.Message{ChatID: t.ChatID, Role: "user", Text: t.Text, Status: "complete"})
	}
	if err != nil {
		return Result{}, fmt.Errorf("save message: %w", err)
	}
	r.emit(Event{Type: EventMessage, MessageID: user.ID, Role: "user", Text: user.Text})
	return r.loop(ctx, store)
}

// begin takes the chat for a turn (false: one runs already); the turn runs
// under the context returned, whose rate-limit waits RetryNow cuts short.
func (e *Engine) begin(ctx context.Context, chatID string) (context.Context, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.running[chatID] {
		return ctx, false
	}
	e.running[chatID] = true
	w := &provider.Wake{}
	e.wakes[chatID] = w
	return provider.WithWake(ctx, w), true
}

func (e *Engine) end(chatID string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.running, chatID)
	delete(e.wakes, chatID)
}

// RunningChats are the chats with a turn in progress, sorted. A turn is
// over here before its EventDone goes out, as for Running.
func (e *Engine) RunningChats() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Sorted(maps.Keys(e.running))
}

// RetryNow ends the rate-limit waits of chatID's running turn ("Retry
// now"): its requests waiting out a provider's Retry-After, the turn's own
// and its sub-agents', are sent again at once. It reports whether one was
// waiting; a call when none waits does nothing (the next wait is not
// skipped). Safe to call from any goroutine while the turn runs.
func (e *Engine) RetryNow(chatID string) bool {
	e.mu.Lock()
	w := e.wakes[chatID]
	e.mu.Unlock()
	return w != nil && w.Now()
}

// SetTools sets the router when it is built after the engine (the
// engine must exist first to answer the servers' requests). Call it before
// the first Send.
func (e *Engine) SetTools(t Tools) { e.opts.Tools = t }

// Running reports whether chatID has a turn in progress.
func (e *Engine) Running(chatID string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.running[chatID]
}

// AllowAlways remembers that the user allowed t for the rest of the chat
// (the model's calls and its MCP Apps' alike). It is kept by server and
// tool, not by exposed name: a name can pass to another server's tool when
// servers come and go.
func (e *Engine) AllowAlways(chatID string, t router.Tool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.always[chatID] == nil {
		e.always[chatID] = map[string]bool{}
	}
	e.always[chatID][alwaysKey(t)] = true
}

// AllowedAlways reports whether the user allowed t for the rest of chatID.
func (e *Engine) AllowedAlways(chatID string, t router.Tool) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.always[chatID][alwaysKey(t)]
}

// alwaysKey is t's server and tool, which no server or tool name can forge.
func alwaysKey(t router.Tool) string { return t.Server + "\x00" + t.Tool.Name }

// calls records that chatID is calling server until the returned func runs.
func (e *Engine) calls(server, chatID string, m Model) (done func()) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.calling[server] = append(e.calling[server], activeCall{chatID, m})
	return func() {
		e.mu.Lock()
		defer e.mu.Unlock()
		cs := e.calling[server]
		for i, c := range cs {
			if c.chatID == chatID {
				cs = append(cs[:i:i], cs[i+1:]...)
				break
			}
		}
		if len(cs) == 0 {
			delete(e.calling, server)
			return
		}
		e.calling[server] = cs
	}
}

// callModel returns the model of chatID's turn calling server, ok false
// when no turn of that chat is calling it. Whose call a server's question
// is, the router tells (router.TiedTo); this is only what to ask with.
func (e *Engine) callModel(server, chatID string) (m Model, ok bool) {
	if chatID == "" {
		return Model{}, false
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, c := range e.calling[server] {
		if c.chatID == chatID {
			return c.model, true
		}
	}
	return Model{}, false
}

// Forget drops what the engine remembers about a chat (after it is deleted).
func (e *Engine) Forget(chatID string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.always, chatID)
	delete(e.seq, chatID)
	delete(e.found, chatID)
	delete(e.convos, chatID)
}

// runFor is a run of t on conversation c, with t's defaults filled in:
// the step limit, the result budget, and the context window a
// context-length error told: when t knows none, or when it stated one
// smaller than t's.
func (e *Engine) runFor(t Turn, c *convo) *run {
	if t.MaxSteps <= 0 {
		t.MaxSteps = MaxSteps
	}
	if t.ResultBudget <= 0 {
		t.ResultBudget = ResultBudget
	}
	if t.ContextWindow <= 0 {
		t.ContextWindow = c.toldSize
	}
	if c.toldMax > 0 && (t.ContextWindow <= 0 || c.toldMax < t.ContextWindow) {
		t.ContextWindow = c.toldMax
	}
	return &run{e: e, t: t, conv: c}
}

// convo is the chat's conversation as the engine keeps it; fresh starts it
// again (a rewind changes the history under it).
func (e *Engine) convo(chatID string, fresh bool) *convo {
	e.mu.Lock()
	defer e.mu.Unlock()
	c := e.convos[chatID]
	if c == nil || fresh {
		cal := calibration{}
		if c != nil {
			cal = c.cal
		}
		c = &convo{cal: cal}
		if old := e.convos[chatID]; old != nil {
			c.toldSize, c.toldMax = old.toldSize, old.toldMax
		}
		e.convos[chatID] = c
	}
	e.uses++
	c.used = e.uses
	e.dropOldConvosLocked(chatID)
	return c
}

// dropOldConvosLocked keeps the conversations of at most KeptConversations
// chats: past that, the least recently used one that has no turn running
// (and is not keep's) keeps only what was learnt of its model. e.mu is
// held; a running chat's convo belongs to its run and is not read here.
func (e *Engine) dropOldConvosLocked(keep string) {
	for {
		kept, oldest := 0, ""
		for id, c := range e.convos {
			switch {
			case id == keep || e.running[id]:
				kept++
			case c.parts != nil:
				kept++
				if oldest == "" || c.used < e.convos[oldest].used {
					oldest = id
				}
			}
		}
		if kept <= KeptConversations || oldest == "" {
			return
		}
		c := e.convos[oldest]
		e.convos[oldest] = &convo{cal: c.cal, toldSize: c.toldSize, toldMax: c.toldMax, used: c.used}
	}
}

// run is one Send in progress.
type run struct {
	e     *Engine
	t     Turn
	emitM sync.Mutex

	// set is the turn's tools (toolset.go), shared with other runs: read
	// it, never change it. all and withheld are its.
	set *toolSet
	all []provider.Tool // every active tool
	// tools are the run's own synthetic tools (find_tools, ask_<server>,
	// load_skill, ...) by name; tool looks a name up here, then in set.
	tools map[string]router.Tool
	synth map[string]synthetic // find_tools and ask_<server>, by name
	// withheld are tools the router's gate left out (a definition that
	// changed since the user trusted it), by name: why, for a model that
	// calls one anyway.
	withheld map[string]string
	// changes hears of the router's listing changing during the turn
	// (watchTools); nil for a Tools that cannot say.
	changes <-chan struct{}
	// searching: find_tools was offered in this turn, and stays so (see
	// offer).
	searching bool
	// conv is the chat's conversation, this turn's while it runs.
	conv *convo
	// told is a note for the next meter event: the model's context window
	// a provider's refusal stated, smaller than the one the turn had.
	told string
	// done are the results of the step's calls, not yet stored: the next
	// step's message carries them in its own write (appendMessage), and the
	// loop stores what is left when it ends (flush).
	doneMu sync.Mutex
	done   []history.ToolCall
	// waits is, per ask_<server> or run_script call, the time its nested
	// calls waited for the user's approval: its duration leaves it out.
	waits approvalWaits
}

// approvalWaits is the time calls nested under a parent call waited for
// the user, by parent call ID. Safe for concurrent use.
type approvalWaits struct {
	mu sync.Mutex
	by map[string]time.Duration
}

// add adds d, time a call nested under parent (an ask_<server> or
// run_script call) waited for the user's approval, to what parent's
// duration leaves out.
func (w *approvalWaits) add(parent string, d time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.by == nil {
		w.by = map[string]time.Duration{}
	}
	w.by[parent] += d
}

// take is the time the calls nested under call id waited for the user,
// and forgets it.
func (w *approvalWaits) take(id string) time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	d := w.by[id]
	delete(w.by, id)
	return d
}

// finished keeps a call's final state for the next durable write.
func (r *run) finished(hc history.ToolCall) {
	r.doneMu.Lock()
	defer r.doneMu.Unlock()
	r.done = append(r.done, hc)
}

// takeFinished returns the calls finished since the last write, and
// forgets them.
func (r *run) takeFinished() []history.ToolCall {
	r.doneMu.Lock()
	defer r.doneMu.Unlock()
	done := r.done
	r.done = nil
	return done
}

// appendMessage stores m with the results of the calls that finished since
// the last write, in one transaction: a tool step costs one durable write
// for its answer and its calls' results, and the write overlaps the next
// model request (stream). The results stay held when the write fails.
func (r *run) appendMessage(store context.Context, m history.Message) (history.Message, error) {
	done := r.takeFinished()
	out, err := r.e.opts.History.AppendMessageAfter(store, m, done)
	if err != nil {
		r.doneMu.Lock()
		r.done = append(done, r.done...)
		r.doneMu.Unlock()
	}
	return out, err
}

// flush stores the results still held: the turn ends after calls (the
// step limit, a stop, an error) with no message to carry them.
func (r *run) flush(store context.Context) error {
	done := r.takeFinished()
	if len(done) == 0 {
		return nil
	}
	if err := r.e.opts.History.SaveToolCalls(store, done); err != nil {
		return fmt.Errorf("save tool calls: %w", err)
	}
	return nil
}

func (r *run) emit(ev Event) {
	if r.t.OnEvent == nil {
		return
	}
	ev.ChatID = r.t.ChatID
	r.emitM.Lock()
	defer r.emitM.Unlock()
	r.e.mu.Lock()
	r.e.seq[r.t.ChatID]++
	ev.Seq = r.e.seq[r.t.ChatID]
	r.e.mu.Unlock()
	r.t.OnEvent(ev)
}

// tools0 lists the turn's active tools: at its start, and again between
// steps when the router's listing changed since (r.changes, watchTools): a
// tool a call of this turn added (enabling a toolset sends
// notifications/tools/list_changed) is offered at the next step, one it
// removed is no longer. Nothing is listed when nothing changed: a signal
// is a channel receive, and one that changed nothing (another server's
// prompts) finds the kept set by the listing's version. The turn's choice
// (policies, Active) applies to new tools as to the first ones, so a tool
// switched off stays off.
func (r *run) tools0(ctx context.Context) error {
	first := r.set == nil
	if !first {
		select {
		case <-r.changes:
		default:
			return nil // nil changes too: a Tools that cannot say keeps its first listing
		}
	}
	set, err := r.toolSet(ctx)
	if err != nil {
		return err
	}
	r.set, r.all, r.withheld = set, set.all, set.withheld
	if first {
		r.tools, r.synth = map[string]router.Tool{}, map[string]synthetic{}
	}
	return nil
}

func (r *run) loop(ctx, store context.Context) (res Result, err error) {
	defer func() {
		if ferr := r.flush(store); ferr != nil && err == nil {
			err = ferr
		}
	}()
	if err := r.sync(store); err != nil {
		return Result{}, err
	}
	for step := 1; ; step++ {
		if err := r.tools0(ctx); err != nil {
			return res, err
		}
		tools, err := r.offer(ctx)
		if err != nil {
			return res, err
		}
		tools = keptOf(r).withKeptTools(tools)
		msg, resp, err := r.step(ctx, store, tools)
		res.Message, res.Steps = msg, step
		if err != nil || len(resp.ToolCalls) == 0 {
			if msg.ID != "" {
				r.add(msg)
			}
			return res, err
		}
		calls := r.runCalls(ctx, store, msg, resp.ToolCalls)
		res.Message.ToolCalls = calls
		res.ToolCalls = append(res.ToolCalls, calls...)
		r.add(res.Message)
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
		if step >= r.t.MaxSteps {
			res.StepLimit = true
			note := fmt.Sprintf("Stopped after %d model steps with tool calls (the limit). Send \"continue\" to let the model go on.", step)
			res.Message.Error = note
			if err := r.e.opts.History.UpdateMessage(store, res.Message); err != nil {
				return res, fmt.Errorf("save message: %w", err)
			}
			r.takeFinished() // stored with the message: its calls are res.Message.ToolCalls
			r.emit(Event{Type: EventStepLimit, MessageID: msg.ID, Steps: step, Error: note})
			return res, nil
		}
	}
}

// withContext puts the turn's Context into the step's messages: before the
// text of the user's latest message, in the same message (providers want
// user and assistant turns to alternate), so what the user wrote comes
// after it and the system prompt stays the user's.
func (r *run) withContext(msgs []provider.Message) []provider.Message {
	if r.t.Context == nil {
		return msgs
	}
	c := strings.TrimSpace(r.t.Context())
	if c == "" {
		return msgs
	}
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == provider.RoleUser {
			msgs[i].Text = c + "\n\n" + msgs[i].Text // msgs is this step's own copy
			return msgs
		}
	}
	return append(msgs, provider.Message{Role: provider.RoleUser, Text: c})
}

// stream runs one model request and stores the assistant message. into
// is the message of a request the provider refused as too long (step asks
// again into it, so only the last outcome is stored and shown); without
// it the answer is a new message, and a context-length refusal of it is
// held: returned with the message stored as it started ("incomplete",
// empty), neither stored as the answer nor shown.
func (r *run) stream(ctx, store context.Context, q request, tools []provider.Tool, into history.Message) (history.Message, provider.Response, error) {
	msgs := q.msgs
	type appended struct {
		msg history.Message
		err error
	}
	stored := make(chan appended, 1)
	msg := into
	if into.ID != "" {
		stored <- appended{into, nil} // stored and shown already
	} else {
		// The answer is stored "incomplete" while the model is asked, not
		// before: the durable write (an fsync) overlaps the request instead
		// of adding to every step. The message has its ID already, for the
		// events.
		msg = history.Message{ID: messageID(), ChatID: r.t.ChatID, Role: "assistant", Status: "incomplete", Model: r.t.Model, CreatedAt: time.Now()}
		go func() {
			m, err := r.appendMessage(store, msg)
			stored <- appended{m, err}
		}()
		r.emit(Event{Type: EventMessage, MessageID: msg.ID, Role: "assistant"})
	}
	// Nothing the model says is shown before the message is durable: a
	// crash after the first words keeps the unfinished answer, and the
	// words shown are written as they stream (partialText).
	var a appended
	var once sync.Once
	wait := func() { once.Do(func() { a = <-stored }) }
	partial := &partialText{save: func(text string) {
		m := a.msg
		m.Text, m.Status, m.ToolCalls = text, "incomplete", nil
		_ = r.e.opts.History.UpdateMessage(store, m)
	}}
	resp, serr := r.t.Provider.Stream(ctx, provider.Request{
		Model: r.t.Model, System: r.t.System, Messages: msgs, Tools: tools,
	}, func(ev provider.Event) {
		wait()
		switch ev.Kind {
		case provider.EventText:
			if a.err == nil {
				partial.add(ev.Text)
			}
			r.emit(Event{Type: EventText, MessageID: msg.ID, Text: ev.Text})
		case provider.EventToolCallStart:
			r.emit(Event{Type: EventToolCall, MessageID: msg.ID, Call: &ToolCallView{ID: ev.ID, Index: ev.Index, Name: ev.Name, Status: CallStreaming}})
		case provider.EventToolCallArgs:
			r.emit(Event{Type: EventToolArgs, MessageID: msg.ID, Call: &ToolCallView{ID: ev.ID, Index: ev.Index, Args: ev.ArgsDelta, Status: CallStreaming}})
		case provider.EventRetry:
			r.emit(Event{Type: EventRetry, MessageID: msg.ID, RetryAfterMs: ev.After.Milliseconds(), Error: errText(ev.Err)})
		}
	})
	wait()
	partial.stop()
	if a.err != nil {
		return msg, provider.Response{}, fmt.Errorf("save message: %w", a.err)
	}
	msg = a.msg
	if into.ID == "" && errors.Is(serr, provider.ErrContextLength) && ctx.Err() == nil {
		return msg, provider.Response{}, serr // held for step's retry
	}
	msg.Text = resp.Text
	msg.InputTokens, msg.OutputTokens, msg.EstimatedTokens = resp.Usage.InputTokens, resp.Usage.OutputTokens, q.raw
	switch {
	case serr == nil:
		msg.Status, msg.Error = "complete", ""
	case ctx.Err() != nil:
		msg.Status, msg.Error = "cancelled", "stopped"
	case errors.Is(serr, provider.ErrIncomplete):
		msg.Status, msg.Error = "incomplete", ErrorText(serr)
	default:
		msg.Status, msg.Error = "error", answerError(serr, q, r.t.Model)
	}
	if serr != nil {
		resp.ToolCalls = nil // never run calls from a broken or stopped stream
	}
	// The calls are stored pending with the message, in the model's order
	// (history keeps calls in the order of their first save), in the same
	// transaction: one durable write fewer per call and step.
	ensureIDs(resp.ToolCalls)
	msg.ToolCalls = pendingCalls(msg.ID, resp.ToolCalls)
	if err := r.e.opts.History.UpdateMessage(store, msg); err != nil {
		return msg, resp, fmt.Errorf("save message: %w", err)
	}
	end := Event{Type: EventMessageEnd, MessageID: msg.ID, Text: msg.Text, Status: msg.Status, Error: msg.Error}
	if resp.Usage != (provider.Usage{}) {
		end.Usage = &Usage{InputTokens: resp.Usage.InputTokens, OutputTokens: resp.Usage.OutputTokens}
	}
	r.emit(end)
	if serr != nil {
		return msg, resp, serr
	}
	return msg, resp, nil
}

// ErrorText is how a failed answer's error is stored and shown: what
// happened and what to do in plain words (provider.Explain), a blank line,
// then the technical detail; the detail alone when there are no plain
// words for it. A UI shows the first paragraph and the rest on request.
func ErrorText(err error) string {
	if plain := provider.Explain(err); plain != "" {
		return plain + "\n\n" + err.Error()
	}
	return err.Error()
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// runCalls runs a step's tool calls in parallel and stores each result.
func (r *run) runCalls(ctx, store context.Context, msg history.Message, calls []provider.ToolCall) []history.ToolCall {
	out := make([]history.ToolCall, len(calls))
	ensureIDs(calls) // stream stored them pending, with these IDs
	var wg sync.WaitGroup
	for i, c := range calls {
		wg.Go(func() { out[i] = r.call(ctx, store, msg, i, c, nil) })
	}
	wg.Wait()
	return out
}

// pendingCalls are a step's calls as history keeps them before they run.
func pendingCalls(messageID string, calls []provider.ToolCall) []history.ToolCall {
	if len(calls) == 0 {
		return nil
	}
	out := make([]history.ToolCall, len(calls))
	for i, c := range calls {
		args := c.Arguments
		if len(args) == 0 {
			args = json.RawMessage("{}")
		}
		out[i] = history.ToolCall{ID: c.ID, MessageID: messageID, Tool: c.Name, Arguments: args, Status: CallPending, StartedAt: time.Now()}
	}
	return out
}

// ensureIDs gives each call of a step an ID of its own: some providers
// (Ollama) send none, and a model may give two calls of one step the same
// one ("dup1" twice). History and the UI key a step's calls by ID (history
// kept one of the two, the last written), and a request holding two calls
// of one ID is refused by the APIs. The first call keeps its ID; a repeat
// gets a new one, which its result then carries.
func ensureIDs(calls []provider.ToolCall) {
	seen := make(map[string]bool, len(calls))
	for i := range calls {
		if calls[i].ID == "" || seen[calls[i].ID] {
			calls[i].ID = fmt.Sprintf("call_%d_%s", i, newID())
		}
		seen[calls[i].ID] = true
	}
}

// call runs one tool call: approval, the call, the stored result. A call
// of a sub-agent (sub != nil) is not stored in the history: it shows nested
// under its parent's card and ends up in the parent's result.
func (r *run) call(ctx, store context.Context, msg history.Message, index int, c provider.ToolCall, sub *subAgent) history.ToolCall {
	args := c.Arguments
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	hc := history.ToolCall{ID: c.ID, MessageID: msg.ID, Tool: c.Name, Arguments: args, StartedAt: time.Now()}
	view := &ToolCallView{ID: c.ID, Index: index, Name: c.Name, Args: string(args)}
	lookup := r.tool
	if sub != nil {
		view.Parent = sub.parent
		lookup = func(name string) (router.Tool, bool) { t, ok := sub.tools[name]; return t, ok }
	}
	update := func(status string) {
		hc.Status, view.Status = status, status
		switch {
		case sub == nil && (status == CallPending || status == CallRunning):
			// Not a durable write: the call is already stored pending (with
			// its message), and a call that never ends is shown interrupted
			// whether it was waiting or running. The card follows the event.
		case sub == nil:
			// Stored with the next step's message (appendMessage), or when
			// the turn ends (flush): one durable write per step, not per call.
			r.finished(hc)
		case status != CallPending && status != CallRunning: // the sub-agent's step is over
			sub.record(hc)
		}
		v := *view // the UI may hold it while the call goes on
		r.emit(Event{Type: EventToolCall, MessageID: msg.ID, Call: &v})
	}
	// sofar is what a synthetic call (ask_<server>) did before it ended
	// early: its result keeps it after the sentence it ended with.
	var sofar *mcp.CallToolResult
	fail := func(status, text string) history.ToolCall {
		hc.IsError, view.IsError = true, true
		hc.Result = errorResult(text, sofar)
		view.Result, view.Error = hc.Result, text
		update(status)
		return hc
	}

	t, ok := lookup(c.Name)
	if why, held := r.withheld[c.Name]; !ok && held {
		return fail(CallError, "This tool is withheld and cannot be called: "+why)
	}
	if !ok {
		return fail(CallError, fmt.Sprintf("There is no tool named %q. Use one of the tools you were given.", c.Name))
	}
	hc.Server, view.Server, view.Tool = t.Server, t.Server, t.Tool.Name
	var params map[string]any
	if err := json.Unmarshal(args, &params); err != nil {
		return fail(CallError, fmt.Sprintf("The arguments are not a JSON object (%v). Call the tool again with valid JSON arguments.", err))
	}
	named := t.Name
	if sub != nil && sub.script != "" { // a script's call: named as the script wrote it
		named = codemode.Function{Server: t.Server, Tool: t.Tool.Name}.Path()
	}
	if problem := argsProblem(t, named, params); problem != "" { // checked against the server's own schema (args.go)
		return fail(CallError, problem)
	}

	syn, isSynth := r.synthFor(c.Name, sub)
	switch ruling := Decide(t, params, r.t.Rules, r.t.Policies, r.e.opts.DefaultPolicy, r.e.AllowedAlways(r.t.ChatID, t)); {
	case isSynth:
		// find_tools and ask_<server> only search or delegate; the
		// sub-agent's own calls are asked about one by one.
	case ruling.Verdict == Refuse:
		return fail(CallDenied, ruling.Why)
	case ruling.Verdict == Ask:
		req := NewApprovalRequest(r.t.ChatID, t, args)
		req.Tool = c.Name // the name the model called it by
		if sub != nil {
			req.Parent, req.Script, req.Specialist = sub.parent, sub.script, sub.server // a script's (or a specialist's) call: the card names it
		}
		view.ApprovalID = req.ID
		update(CallPending)
		d := Deny
		if r.e.opts.Approver != nil {
			var err error
			asked := time.Now()
			d, err = askUser(ctx, r.e.opts.Approver, req)
			if sub != nil { // the specialist's (or script's) time is its work, not the user's answer
				r.waits.add(sub.parent, time.Since(asked))
			}
			if err != nil {
				if ctx.Err() != nil {
					return fail(CallCancelled, stopText(ctx, "The user stopped the chat before answering."))
				}
				return fail(CallDenied, "The approval could not be asked: "+err.Error())
			}
		}
		switch d {
		case ApproveAlways:
			r.e.AllowAlways(r.t.ChatID, t)
		case ApproveOnce:
		default:
			return fail(CallDenied, "The user denied this tool call. Do not retry it; ask the user what to do instead.")
		}
	}

	update(CallRunning)
	start := time.Now()
	var res *mcp.CallToolResult
	var err error
	if isSynth {
		res, err = r.runSynthetic(ctx, msg, syn, c.ID, params)
	} else {
		done := r.e.calls(t.Server, r.t.ChatID, Model{Provider: r.t.Provider, Name: r.t.Model, Images: r.t.Images, Audio: r.t.Audio})
		progress := progressOf(r.emit, msg.ID, view) // the server's progress reports, on the card and the CLI (progress.go)
		// The chat's own call: its server's questions come to this chat and no other (router.Tie).
		res, err = r.e.opts.Tools.Call(router.WithParty(ctx, Party(r.t.ChatID)), t.Server, t.Tool.Name, params, router.CallOptions{
			// A call run as a task: its card shows the status live (and offers Cancel).
			OnTask: func(u router.TaskUpdate) {
				view.Task = &u
				hc.Task = &history.Task{ID: u.ID, Status: u.Status, Message: u.Message} // a reopened chat shows how it ended
				update(CallRunning)
			},
			OnProgress: progress.report,
		})
		progress.stop()
		done()
	}
	stripKept(res) // a server's handle is no handle: the engine writes its own below
	hc.DurationMs = (time.Since(start) - r.waits.take(c.ID)).Milliseconds()
	view.DurationMs = hc.DurationMs
	if isSynth && res != nil && (err != nil || ctx.Err() != nil) {
		sofar = res
	}
	switch {
	case ctx.Err() != nil:
		return fail(CallCancelled, stopText(ctx, "The user stopped the chat; the call was cancelled."))
	case err != nil:
		return fail(CallError, "The tool call failed: "+err.Error())
	}
	// A script's output is kept as a result is, and a skill's file too: a
	// long reference cut with no handle could not be read past its head
	// (load_skill reads a file whole, not in parts).
	if sub == nil && (!isSynth || syn.kind == "cm-run" || syn.kind == "skill") {
		keptOf(r).keep(ctx, c.ID, c.Name, res, keptOf(r).resultBudget(t))
	}
	raw, err := json.Marshal(res)
	if err != nil {
		return fail(CallError, "The tool's result could not be encoded: "+err.Error())
	}
	hc.Result, view.Result = raw, raw
	hc.IsError, view.IsError = res.IsError, res.IsError
	view.Error = resultError(res) // what the CLI prints after "error:"
	if res.IsError {
		update(CallError)
	} else {
		update(CallDone)
	}
	return hc
}

// errorResult is a CallToolResult JSON with one error text, followed by
// what sofar (a synthetic call ended early, nil for none) did until then,
// and sofar's structured result saying how it ended.
func errorResult(text string, sofar *mcp.CallToolResult) json.RawMessage {
	res := mcp.NewToolResultError(text)
	if sofar != nil {
		if more := resultText(sofar); more != "" {
			res.Content = []mcp.Content{mcp.NewTextContent(text + "\n\n" + more)}
		}
		if p, ok := sofar.StructuredContent.(partial); ok {
			res.StructuredContent = p.endedWith(text)
		}
	}
	raw, _ := json.Marshal(res)
	return raw
}

// messageID is an assistant message's ID, chosen before it is stored.
func messageID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func newID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
