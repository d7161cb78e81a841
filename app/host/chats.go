package host

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/history"
)

// Chats are the chat sessions, end to end: the chat history (opened once,
// closed with the host), a new chat's title and model, the engine and the
// servers' requests wired to it, a stored chat's model, the turns running,
// and each turn's settings and context window.
type Chats struct {
	h *Host

	histMu  sync.Mutex
	hist    *history.Store
	histErr error
	closed  bool

	// engine is the one Wire made (nil before).
	engine atomic.Pointer[chat.Engine]

	turnsMu sync.Mutex
	turns   map[string]*turnRun
}

// store is the chat history (history.db), opened on first use and closed
// by Host.Close; an open that failed is the error of every call, so the
// rest of the host still works. It never leaves the host: the doors see
// the chats through Chats' methods (chathistory.go).
func (c *Chats) store() (*history.Store, error) {
	c.histMu.Lock()
	defer c.histMu.Unlock()
	if c.closed {
		return nil, ErrHistoryClosed
	}
	if c.hist == nil && c.histErr == nil {
		c.hist, c.histErr = history.Open(c.h.ctx, c.h.dir.History())
		if c.histErr != nil {
			slog.Error("open history", "err", c.histErr)
		}
	}
	return c.hist, c.histErr
}

// Wire makes the door's chat engine: over the host's history and tools,
// asking approver (the window's cards, the terminal, chat.ApproveAll for
// --yes). q answers the servers' requests (sampling, forms) with that
// engine under the host's sampling settings; wrap, when not nil, adds the
// door's own handling (the terminal's forms) before the servers get it.
func (c *Chats) Wire(approver Approver, q *ChatRequests, wrap func(*ChatRequests) RequestHandler) {
	eng := c.newEngine(storedHistory{c}, approver)
	c.engine.Store(eng)
	q.Engine = eng
	c.requests(q)
	var r RequestHandler = q
	if wrap != nil {
		r = wrap(q)
	}
	c.h.Servers.HandleRequests(r)
}

// wired is the engine Wire made, or ErrNotWired.
func (c *Chats) wired() (*chat.Engine, error) {
	if eng := c.engine.Load(); eng != nil {
		return eng, nil
	}
	return nil, ErrNotWired
}

// Running says whether chatID has a turn running on the wired engine.
func (c *Chats) Running(chatID string) bool {
	eng := c.engine.Load()
	return eng != nil && eng.Running(chatID)
}

// Send runs one turn t (see TurnSetup and Turn) on the wired engine: the
// model's replies, the tool calls it asks for (decided by the approver
// Wire was given) and the chat's history, to the end of the turn or ctx.
func (c *Chats) Send(ctx context.Context, t Turn) (TurnResult, error) {
	eng, err := c.wired()
	if err != nil {
		return TurnResult{}, err
	}
	return eng.Send(ctx, t)
}

// Compact summarises the chat of t now ("Compact now"): from then on the
// model reads the summary instead of the messages before it (see
// chat.Engine.Compact; ErrBusy while a turn runs).
func (c *Chats) Compact(ctx context.Context, t Turn) error {
	eng, err := c.wired()
	if err != nil {
		return err
	}
	return eng.Compact(ctx, t)
}

// Measure is the context meter of the chat's next request, without
// sending it (see chat.Engine.Measure; ErrBusy while a turn runs).
func (c *Chats) Measure(ctx context.Context, t Turn) (ChatContext, error) {
	eng, err := c.wired()
	if err != nil {
		return ChatContext{}, err
	}
	v, err := eng.Measure(ctx, t)
	return *ContextView(&v), err
}

// ToolSearch says whether turn t would search its tools rather than list
// them all to the model, and why (see chat.Engine.ToolSearch).
func (c *Chats) ToolSearch(ctx context.Context, t Turn) (ToolSearch, error) {
	eng, err := c.wired()
	if err != nil {
		return ToolSearch{}, err
	}
	d, err := eng.ToolSearch(ctx, t)
	return ToolSearchView(d), err
}

// NewChat is what a chat starts with: a provider and model ("": the
// default provider, its default model), the agent it chats as (nil:
// none) and, when known, its first message.
type NewChat struct {
	Provider, Model string
	Agent           *ChatAgent
	Text            string
}

// Create saves a new chat: its provider and model defaulted by
// DefaultModel, its title by the one rule of chatTitle. The window and the
// CLI both create chats here, so a chat reads the same from either.
func (c *Chats) Create(ctx context.Context, s ChatSettings, n NewChat) (ChatView, error) {
	hist, err := c.store()
	if err != nil {
		return ChatView{}, err
	}
	ch := history.Chat{Title: chatTitle(history.Chat{}, n.Text)}
	ch.Provider, ch.Model = DefaultModel(s, n.Provider, n.Model)
	if n.Agent != nil {
		ch.Agent = n.Agent.ID
	}
	ch, err = hist.CreateChat(ctx, ch)
	if err != nil {
		return ChatView{}, err
	}
	return chatView(ch), nil
}

// Begin starts a turn of the stored chat chatID: the chat, the model it
// runs on (its provider's, opened with the keyring's key), and the chat
// titled from text when text is its first message (chatTitle). It fails at
// once with chat.ErrBusy while the chat's turn runs. The turn's context,
// made from ctx, ends at Stop(chatID); End must be called when it is over.
func (c *Chats) Begin(ctx context.Context, s ChatSettings, chatID, text string) (Started, error) {
	hist, err := c.store()
	if err != nil {
		return Started{}, err
	}
	if c.Running(chatID) {
		return Started{}, chat.ErrBusy
	}
	ch, err := hist.Chat(ctx, chatID)
	if err != nil {
		return Started{}, err
	}
	m, _, err := c.Model(s, ch.Provider, ch.Model)
	if err != nil {
		return Started{}, ForAgent(s.ChatAgent(ch.Agent), ch.Provider, err)
	}
	if ch.MessageCount == 0 && text != "" {
		if title := chatTitle(ch, text); title != ch.Title {
			_ = hist.RenameChat(ctx, chatID, title)
			ch.Title = title
		}
	}
	tctx, end := c.track(ctx, chatID)
	return Started{Chat: chatView(ch), Model: m, Ctx: tctx, End: end}, nil
}

// Started is a turn Begin started.
type Started struct {
	Chat  ChatView
	Model ChatModel
	// Ctx ends at Stop (or with Begin's ctx); End releases the turn.
	Ctx context.Context
	End func()
}

// Stop cancels the running turn of chatID (its model stream and tool calls
// in flight); nothing when none runs.
func (c *Chats) Stop(chatID string) {
	c.turnsMu.Lock()
	t := c.turns[chatID]
	c.turnsMu.Unlock()
	if t != nil {
		t.cancel()
	}
}

// RetryNow sends chatID's requests that wait out a provider's rate limit
// again at once (chat.Engine.RetryNow); false when none waits.
func (c *Chats) RetryNow(chatID string) bool {
	eng := c.engine.Load()
	return eng != nil && eng.RetryNow(chatID)
}

// RunningChats are the chats with a turn running on the wired engine
// (chat.Engine.RunningChats), sorted: a window that loads while they run
// marks them as answering.
func (c *Chats) RunningChats() []string {
	if eng := c.engine.Load(); eng != nil {
		return eng.RunningChats()
	}
	return nil
}

// TurnSetup fills the settings part of a chat turn: the system prompt
// (given, else the agent's, else Settings'), the approval policies (the
// agent's merged over Settings'), which tools are active (off: those the
// chat switched off; an agent's choice of servers and tools), delegate
// mode, tool search and the step limit. agent may be nil; system and
// active may be empty/nil.
func TurnSetup(s ChatSettings, agent *ChatAgent, system string, active func(Tool) bool) Turn {
	if active == nil {
		active = func(Tool) bool { return true }
	}
	t := Turn{
		System: cmp.Or(system, s.System), Policies: s.Policies, Rules: s.Rules, Active: active,
		MaxSteps: s.MaxSteps, SearchAbove: s.ToolSearchAbove, SearchShare: s.ToolSearchShare, Pinned: s.Pinned,
		CompactAt: s.CompactAt, ResultShare: s.ResultShare, ResultBudgetFor: s.ResultBudgets, KeepLimit: s.KeepMB << 20,
		Tools: s.Tools, CodeLimits: s.CodeMode,
	}
	if agent == nil {
		return t
	}
	ag := *agent
	t.System = cmp.Or(system, ag.System, s.System)
	t.Active = func(tool Tool) bool { return ag.Allows(tool) && active(tool) }
	t.Policies = ag.Merged(s.Policies)
	t.Delegate = ag.Delegate
	t.Tools = cmp.Or(ag.ToolMode, t.Tools)
	return t
}

// TurnRequest is what a front door knows of a turn to run: which chat,
// what the user wrote, and the model it opened (Chats.Model) or, for a
// provider named on the command line only, made itself (Adhoc).
type TurnRequest struct {
	ChatID string
	Text   string
	// From rewinds the chat to this user message first (see Turn.From).
	From string
	// System overrides the system prompt (agent's, else settings').
	System string
	// Agent is the chat's agent (nil: none).
	Agent *ChatAgent
	// Active says which tools the chat has on (nil: all).
	Active func(Tool) bool
	// Provider names the configured provider Model comes from.
	Provider string
	Model    ChatModel
	// Adhoc: Model is not a configured provider's, so its context window
	// comes from what the provider tells (provider.WindowOf), else from
	// what is known of the model's family.
	Adhoc bool
	// Tools is the tool mode for this turn (chat.ToolsDirect, ToolsCode,
	// ToolsBoth): the chat's own or the CLI's --tools; "" leaves it to
	// the agent, the settings, then the model's context window.
	Tools string
}

// Turn sets up one chat turn the same way for the window and the CLI:
// the settings' part (TurnSetup), the model and what it accepts (images,
// audio), and its context window (which tool search weighs the tools'
// definitions against; this may ask the provider for its model list,
// once per provider and ten minutes).
func (c *Chats) Turn(ctx context.Context, s ChatSettings, r TurnRequest) Turn {
	t := TurnSetup(s, r.Agent, r.System, r.Active)
	t.ChatID, t.Text, t.From = r.ChatID, r.Text, r.From
	t.Skills = c.h.Skills.forTurn(s, r.Agent, r.Active)
	t.Provider, t.Model, t.Images, t.Audio = r.Model.Provider, r.Model.Name, r.Model.Images, r.Model.Audio
	if r.Adhoc {
		// Named on the command line: what the provider tells (Ollama's
		// /api/show, a model list, a llama.cpp server's /props), else what
		// is known of the model's family.
		lctx, cancel := context.WithTimeout(ctx, modelListTimeout)
		t.ContextWindow = cmp.Or(provider.WindowOf(lctx, r.Model.Provider, r.Model.Name), provider.KnownContextWindow(r.Model.Name))
		cancel()
	} else {
		t.ContextWindow = c.ContextWindow(ctx, s, r.Provider, r.Model.Name)
	}
	// The chat's (or --tools'), else the agent's, else the settings', else
	// the window's: the one precedence the Tools menu shows too.
	t.Tools = ToolModeOf(s, r.Agent, r.Tools, t.ContextWindow).Mode
	if ps, err := s.Provider(r.Provider); err == nil && ps.Kind == chat.KindLocal && !r.Adhoc {
		// A small model on a CPU: few tools in front of it at a time,
		// unless the user chose when tool search turns on.
		if s.ToolSearchAbove == 0 {
			t.SearchAbove = LocalSearchAbove
		}
		t.SearchLimit = LocalSearchLimit
	}
	return t
}

// DefaultModel fills in the default provider and its default model.
func DefaultModel(s ChatSettings, providerName, model string) (string, string) {
	if p, err := s.Provider(providerName); err == nil {
		return p.Name, cmp.Or(model, p.DefaultModel)
	}
	return providerName, model
}

// Model opens a configured provider ("" for the default) with its key from
// the keyring, and the model to use (given, else the provider's default).
func (c *Chats) Model(s ChatSettings, providerName, model string) (ChatModel, string, error) {
	ps, err := s.Provider(providerName)
	if err != nil {
		return ChatModel{}, "", err
	}
	model = cmp.Or(model, ps.DefaultModel)
	if model == "" {
		return ChatModel{}, "", chat.ErrNoModel
	}
	p, err := c.open(s, ps)
	if err != nil {
		return ChatModel{}, "", err
	}
	return ChatModel{Provider: p, Name: model, Images: ps.AcceptsImages(model), Audio: ps.AcceptsAudio(model)}, ps.Name, nil
}

// AdHocProvider is a provider that is not in config.json ('switchboard
// chat --provider KIND --base-url URL'), with the key the door found.
type AdHocProvider struct {
	Kind    ProviderKind
	BaseURL string // "" for the kind's default (chat.DefaultBaseURL)
	Model   string
	APIKey  string
}

// AdHocModel opens model p.Model of the ad-hoc provider p.
func (c *Chats) AdHocModel(p AdHocProvider) (ChatModel, error) {
	base := cmp.Or(p.BaseURL, chat.DefaultBaseURL(p.Kind))
	pr, err := provider.New(provider.Config{Kind: p.Kind, Name: string(p.Kind), BaseURL: base, APIKey: p.APIKey})
	return ChatModel{Provider: pr, Name: p.Model, Images: chat.DefaultImages(p.Kind, base, p.Model), Audio: chat.DefaultAudio(p.Kind, base, p.Model)}, err
}

// open opens a configured provider: the model on this computer through
// Local, any other with its key from the keyring.
func (c *Chats) open(s ChatSettings, ps ProviderSettings) (provider.Provider, error) {
	if ps.Kind == chat.KindLocal {
		return &localProvider{l: c.h.Local, name: ps.Name, s: s}, nil
	}
	return ps.Open(c.h.store.Lookup)
}

// Models lists the models of the provider named name ("" for the
// default); the model on this computer lists those installed, without
// starting.
func (c *Chats) Models(ctx context.Context, name string) ([]ProviderModel, error) {
	s, err := c.h.Settings.Chat()
	if err != nil {
		return nil, err
	}
	ps, err := s.Provider(name)
	if err != nil {
		return nil, err
	}
	p, err := c.open(s, ps)
	if err != nil {
		return nil, err
	}
	ms, err := p.Models(ctx)
	if err != nil {
		return nil, err
	}
	return modelsView(ms), nil
}

// FallbackModel is the model servers' sampling requests use when a chat
// does not name one: the default provider's default model.
func (c *Chats) FallbackModel(context.Context) (ChatModel, error) {
	h := c.h
	s, err := h.Settings.Chat()
	if err != nil {
		return ChatModel{}, err
	}
	m, _, err := h.Chats.Model(s, "", "")
	return m, err
}

// newEngine builds a chat engine over this host's tools and hist, with its
// default approval policy; approver asks the user.
func (c *Chats) newEngine(hist chat.History, approver Approver) *chat.Engine {
	h := c.h
	return chat.New(chat.Options{Tools: h.router(), History: hist, Approver: approver, DefaultPolicy: h.Tools.DefaultPolicy, Results: h.results})
}

// Delete deletes chat id: first the tool results it kept (so none outlive
// it), then the chat with its messages from the history; chat.ErrBusy
// while its turn runs. Results that cannot be deleted (another Switchboard
// process holds the chat's store) leave the chat in place, with an error
// saying so.
func (c *Chats) Delete(ctx context.Context, id string) error {
	hist, err := c.store()
	if err != nil {
		return err
	}
	if c.Running(id) {
		return chat.ErrBusy
	}
	if err := c.h.results.forget(ctx, id); err != nil {
		return fmt.Errorf("%w; close the chat in the other Switchboard window or command and delete it again", err)
	}
	if err := hist.DeleteChat(ctx, id); err != nil {
		return err
	}
	if eng := c.engine.Load(); eng != nil {
		eng.Forget(id)
	}
	return nil
}

// ContextWindow is the context window of model at the provider named
// providerName ("" for the default), in tokens: what the provider's model
// list says (OpenRouter, LM Studio, vLLM, Anthropic say it), else what is
// known of the model's family (provider.KnownContextWindow), else 0 — the
// caller assumes a conservative window then.
func (c *Chats) ContextWindow(ctx context.Context, s ChatSettings, providerName, model string) int {
	h := c.h
	ps, err := s.Provider(providerName)
	if err != nil {
		return provider.KnownContextWindow(model)
	}
	if model == "" {
		model = ps.DefaultModel
	}
	if w := ps.ContextWindows[model]; w > 0 {
		return w
	}
	if ps.Kind == chat.KindLocal { // the context it runs (or would run) with
		return h.Local.window(s, model)
	}
	key := ps.Name + "\x00" + ps.BaseURL
	l, _ := modelLists.Load(key)
	ml, ok := l.(modelList)
	_, listed := ml.windows[model]
	if !ok || time.Since(ml.at) > modelListTTL || ml.failed && time.Since(ml.at) > modelListRetry ||
		!listed && !ml.failed && time.Since(ml.at) > modelListMiss { // a model loaded since (LM Studio, Ollama pull)
		ml = modelList{at: time.Now(), windows: map[string]int{}}
		p, err := ps.Open(h.store.Lookup)
		if err == nil {
			lctx, cancel := context.WithTimeout(ctx, modelListTimeout)
			var ms []provider.Model
			ms, err = p.Models(lctx)
			cancel()
			for _, m := range ms {
				ml.windows[m.ID] = m.ContextWindow
			}
		}
		ml.failed = err != nil
		modelLists.Store(key, ml)
	}
	if w := ml.windows[model]; w > 0 {
		return w
	}
	for id, w := range ml.windows { // "claude-sonnet-4-5" listed as "claude-sonnet-4-5-20250929"
		if w > 0 && strings.HasPrefix(id, model+"-") {
			return w
		}
	}
	return provider.KnownContextWindow(model)
}

// requests completes q, what answers the servers' requests for a front
// door, with what the host knows: the user's sampling settings, read from
// config.json at each request (a change in Settings applies to the next
// one). Whose call a request came from (a chat's, or the Tools page's or an
// MCP App's, during which their server may sample too) the router says
// (sampling.go). Both doors' Wire calls it, so a sampling request is
// decided the same way in the window and the CLI (chat.DecideSampling).
func (c *Chats) requests(q *ChatRequests) *ChatRequests {
	h := c.h
	q.Sampling = func() chat.SamplingSettings {
		s, err := h.Settings.Chat()
		if err != nil {
			// A config.json that cannot be read allows nothing more than
			// the defaults: ask, during the server's own calls.
			return chat.SamplingSettings{}
		}
		return s.Sampling
	}
	return q
}
