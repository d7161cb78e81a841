package cli

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/host"
)

func chatCmd() *Command {
	var file, prov, baseURL, model, chatID, system, agentName, toolMode string
	var yes bool
	var maxSteps, window int
	inputs := kvFlag{}
	return &Command{
		Name:    "chat",
		Args:    "[PROMPT]",
		Summary: "ask a model, with the tools of every server; PROMPT or stdin",
		Flags: func(fs *flag.FlagSet) {
			configFlags(fs, &file, inputs)
			fs.StringVar(&prov, "provider", "", "a provider from Settings, or a kind (openai, anthropic, ollama) used with --base-url")
			fs.StringVar(&baseURL, "base-url", "", "the provider's base URL (key from SWITCHBOARD_API_KEY, OPENAI_API_KEY or ANTHROPIC_API_KEY)")
			fs.StringVar(&model, "model", "", "the model (default: the provider's default model)")
			fs.StringVar(&chatID, "chat", "", "continue this chat (ID from the app or an earlier run) instead of starting one")
			fs.StringVar(&system, "system", "", "system prompt (default: the one in Settings)")
			fs.IntVar(&maxSteps, "max-steps", 0, "stop after this many model steps with tool calls")
			fs.IntVar(&window, "context-window", 0, "the model's context window in tokens, over what the provider and Settings → Chat → Long chats → Context windows say (default: what they say, else 32000 assumed); a smaller one the provider states when it refuses a request as too long wins over it")
			fs.BoolVar(&yes, "yes", false, "run every tool call without asking, and accept server forms with their defaults; not sampling (a server using the model), which follows Settings → Chat → Sampling (settings.chat.sampling in config.json)")
			fs.StringVar(&agentName, "agent", "", "chat as this agent (ID or name): its prompt, provider and model (a --provider of your own uses that provider's default model unless --model), servers, policies and delegate mode; a --chat goes on with its own agent ('switchboard agents' lists them)")
			fs.StringVar(&toolMode, "tools", "", "how the model gets the tools: direct (each tool), code (it lists them and runs a script that calls them), or both (default: the agent's, else Settings', else code for a context window up to 32k tokens)")
		},
		Run: func(ctx context.Context, inv *Invocation, args []string) (err error) {
			if err := host.ValidToolMode(toolMode); err != nil {
				return &UsageError{Cmd: inv.Path, Msg: "--tools: " + err.Error()}
			}
			prompt := strings.TrimSpace(strings.Join(args, " "))
			interactive := isTTY(inv.Stdin)
			if prompt == "" {
				if interactive {
					return &UsageError{Cmd: inv.Path, Msg: "needs a PROMPT argument or text on stdin"}
				}
				b, err := io.ReadAll(inv.Stdin)
				if err != nil {
					return err
				}
				prompt = strings.TrimSpace(string(b))
				interactive = false // stdin is spent: questions cannot be asked
			}
			if prompt == "" {
				return &UsageError{Cmd: inv.Path, Msg: "the prompt is empty"}
			}
			h, err := openHost(inv, file)
			if err != nil {
				return err
			}
			defer closeServers(h)
			settings, err := h.Settings.Chat()
			if err != nil {
				return err
			}
			var agent *host.ChatAgent
			if agentName != "" {
				a, err := settings.FindAgent(agentName)
				if err != nil {
					return &ValidationError{Err: err}
				}
				agent = &a
				if prov == "" && baseURL == "" {
					// The agent's model goes with its provider: a --provider
					// of one's own comes with that provider's default model.
					prov, model = a.Provider, cmp.Or(model, a.Model)
				}
			} else if chatID != "" {
				// A chat goes on with the agent it started from, as in the window.
				if agent, err = chatAgent(ctx, inv, h, settings, chatID); err != nil {
					return err
				}
			}
			if agent != nil {
				agentNotes(inv, h, agent, toolMode)
			}
			m, pname, adhoc, err := chatModel(h, settings, prov, baseURL, model)
			if err != nil {
				return host.ForAgent(agent, prov, err)
			}
			model = m.Name
			var only []string
			if agent != nil {
				only = append([]string{}, agent.Servers...) // never nil: no servers starts none
			}
			// The host keeps the history (closed with it) and titles and
			// defaults a new chat as the window does.
			if chatID == "" {
				c, err := h.Chats.Create(ctx, settings, host.NewChat{Provider: pname, Model: model, Agent: agent, Text: prompt})
				if err != nil {
					return err
				}
				chatID = c.ID
			} else if _, err := h.Chats.Get(ctx, chatID); err != nil {
				return err
			}
			// Said however the run ends, before its error: the chat is
			// saved, a failed turn too, and continued by its id.
			defer fmt.Fprintf(inv.Stderr, "switchboard: saved as chat %s (continue with --chat %s)\n", chatID, chatID)

			// Tool lines, questions and refusals come from several goroutines.
			errOut := &lockedWriter{w: inv.Stderr}
			term := &terminalRequests{in: bufio.NewReader(inv.Stdin), out: errOut, yes: yes, interactive: interactive}
			var approver host.Approver = term
			if yes {
				approver = host.ApproveAll{}
			}
			// Sampling follows its own settings (the host's), never --yes:
			// what they ask about is asked on the terminal, and each
			// refusal is printed.
			h.Chats.Wire(approver, &host.ChatRequests{Approver: term,
				Fallback: func(context.Context) (host.ChatModel, error) { return m, nil }, OnRefused: term.refused},
				func(q *host.ChatRequests) host.RequestHandler { return chatRequests{term: term, ChatRequests: q} })
			servers, err := loadServers(inv, file, inputs)
			if err != nil {
				return err
			}
			start(h, servers, only)
			settle(ctx, h)
			if agent != nil {
				unofferedNote(ctx, inv, h, agent)
			}

			// The same set-up as the window's: prompt, policies, agent, model, tool search.
			turn := h.Chats.Turn(ctx, settings, host.TurnRequest{ChatID: chatID, Text: prompt, System: system,
				Agent: agent, Provider: pname, Model: m, Adhoc: adhoc, Tools: toolMode})
			if maxSteps > 0 {
				turn.MaxSteps = maxSteps
			}
			if window > 0 {
				turn.ContextWindow = window
			}
			setAt := "--context-window N"
			if !adhoc {
				setAt += ", or in Settings → Chat → Long chats → Context windows (" + pname + "/" + model + "=tokens)"
			}
			out := &streamPrinter{out: inv.Stdout, errOut: errOut, quiet: inv.JSON, setWindow: setAt}
			out.status, out.width = terminalStatus(inv.Stderr, errOut)
			turn.OnEvent = out.event
			res, err := h.Chats.Send(ctx, turn)
			out.finish()
			if inv.JSON {
				if jerr := inv.PrintJSON(host.TurnReplyView(chatID, res)); jerr != nil {
					return jerr
				}
			}
			if err != nil && ctx.Err() != nil && errors.Is(err, context.Canceled) {
				// Ctrl-C: the turn's own words would be the provider's
				// "stream: context canceled".
				return &turnError{err: err, text: stoppedText}
			}
			if err != nil {
				return answerError(res, err)
			}
			if res.StepLimit {
				fmt.Fprintf(inv.Stderr, "switchboard: %s\n", termSafe(res.Message.Error))
			}
			return nil
		},
	}
}

// chatAgent is the agent the stored chat chatID started from (nil for
// none), saying on stderr when it was deleted since: the chat then goes on
// with the default set-up, every server included.
func chatAgent(ctx context.Context, inv *Invocation, h *host.Host, s host.ChatSettings, chatID string) (*host.ChatAgent, error) {
	c, err := h.Chats.Get(ctx, chatID)
	if err != nil || c.Agent == "" {
		return nil, err
	}
	a := s.ChatAgent(c.Agent)
	if a == nil {
		fmt.Fprintln(inv.Stderr, "switchboard: this chat's agent was deleted: it goes on with the default set-up (every server, the prompt and policies of Settings); --agent NAME chats as another")
	}
	return a, nil
}

// agentNotes says on stderr what of agent will not apply to this run: the
// servers it names that are not set up, and a tool mode (--tools, its
// own) that a delegating agent does not use.
func agentNotes(inv *Invocation, h *host.Host, agent *host.ChatAgent, toolMode string) {
	if v, err := h.Agents.Get(agent.ID); err == nil && len(v.Missing) > 0 {
		fmt.Fprintf(inv.Stderr, "switchboard: agent %s names servers that are not set up: %s; it chats without them (add them with 'switchboard servers add', or take them out with 'switchboard agents edit %s --servers …')\n",
			termSafe(agent.Name), termSafe(strings.Join(v.Missing, ", ")), termSafe(agent.Name))
	}
	if agent.Delegate && cmp.Or(toolMode, agent.ToolMode) != "" {
		fmt.Fprintf(inv.Stderr, "switchboard: agent %s delegates (one ask_<server> specialist per server), so tool mode %q does not apply: its specialists call their server's tools directly\n",
			termSafe(agent.Name), cmp.Or(toolMode, agent.ToolMode))
	}
}

// unofferedNote says on stderr which tools agent names that its servers,
// now started, do not list (host.Agents.Unoffered): without it, a server
// narrowed to a misspelt tool just gives the chat none of its tools.
func unofferedNote(ctx context.Context, inv *Invocation, h *host.Host, agent *host.ChatAgent) {
	if names := h.Agents.Unoffered(ctx, *agent); len(names) > 0 {
		fmt.Fprintf(inv.Stderr, "switchboard: agent %s names tools its servers do not offer: %s; a server narrowed only to such tools gives it none, and a policy on one applies to nothing "+
			"(see the names with 'switchboard tools list', then 'switchboard agents edit %s --tools …' or --policy NAME=)\n",
			termSafe(agent.Name), termSafe(strings.Join(names, ", ")), termSafe(agent.Name))
	}
}

// answerError is a failed turn's error as 'switchboard chat' prints it
// (once, as the run's error): the failed answer's stored error, which
// is the sentence the window shows and then the detail, when the turn
// ended on one; else err itself.
// stoppedText is what switchboard chat says when the user stopped it.
const stoppedText = "stopped; the chat keeps what was answered so far"

func answerError(res host.TurnResult, err error) error {
	m := res.Message
	if m.Error == "" || (m.Status != "error" && m.Status != "incomplete") {
		return err
	}
	return &turnError{err: err, text: m.Error}
}

// turnError is a turn's err with the text its answer was stored with
// (chat.ErrorText: the sentence, a blank line, the detail).
type turnError struct {
	err  error
	text string
}

func (e *turnError) Error() string { return e.err.Error() }
func (e *turnError) Unwrap() error { return e.err }

// Plain says the error as the window does (plain.Explainer).
func (e *turnError) Plain() (sentence, detail string) {
	sentence, detail, _ = strings.Cut(e.text, "\n\n")
	return sentence, strings.TrimSpace(detail)
}

// chatModel picks the model: a configured provider's by name (opened by
// the host, as the window opens it), or an ad-hoc one from a kind and base
// URL with the key from the environment (adhoc true).
func chatModel(h *host.Host, s host.ChatSettings, name, baseURL, model string) (m host.ChatModel, pname string, adhoc bool, err error) {
	kind := host.ProviderKind(name)
	if baseURL != "" || (host.DefaultBaseURL(kind) != "" && !hasProvider(s, name)) {
		if kind == "" {
			kind = host.ProviderOpenAI
		}
		if host.DefaultBaseURL(kind) == "" {
			return m, "", true, &ValidationError{Err: fmt.Errorf("--provider %q: with --base-url give a kind: openai, anthropic or ollama", name)}
		}
		if model == "" {
			return m, "", true, &ValidationError{Err: errors.New("--model is required with an ad-hoc provider")}
		}
		key := os.Getenv("SWITCHBOARD_API_KEY")
		if key == "" && kind == host.ProviderOpenAI {
			key = os.Getenv("OPENAI_API_KEY")
		}
		if key == "" && kind == host.ProviderAnthropic {
			key = os.Getenv("ANTHROPIC_API_KEY")
		}
		m, err = h.Chats.AdHocModel(host.AdHocProvider{Kind: kind, BaseURL: baseURL, Model: model, APIKey: key})
		return m, string(kind), true, err
	}
	m, pname, err = h.Chats.Model(s, name, model)
	return m, pname, false, err
}

func hasProvider(s host.ChatSettings, name string) bool {
	_, err := s.Provider(name)
	return name != "" && err == nil
}

func isTTY(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && isTerminal(f)
}

// streamPrinter writes the answer to stdout as it streams and tool activity
// to stderr. A failed answer's error is not printed as the answer ends:
// the turn ends with it, and the run prints it once (answerError).
type streamPrinter struct {
	out, errOut io.Writer
	quiet       bool // --json: only the final JSON goes to stdout
	// setWindow says where the model's context window is set, for the
	// note that it was assumed.
	setWindow string
	mu        sync.Mutex
	midLine   bool
	// toldAssumed, toldStubbed: each note is printed once a run.
	toldAssumed, toldStubbed bool
	// status draws the calls' progress as one line on a terminal (nil
	// without one: progress lines, at most one a call every
	// progressLineEvery, progressAt saying when each call's last went
	// out); width is the terminal's. now is time.Now but in tests.
	status     statusShower
	width      int
	progressAt map[string]time.Time
	now        func() time.Time
}

func (s *streamPrinter) event(ev host.ChatEvent) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch ev.Type {
	case host.EventText:
		if !s.quiet {
			s.clearStatus()
			fmt.Fprint(s.out, termSafe(ev.Text))
			s.midLine = !strings.HasSuffix(ev.Text, "\n")
		}
	case host.EventToolCall:
		c := ev.Call
		indent := ""
		if c.Parent != "" {
			indent = "    " // a script's (or a specialist's) call, under its card
		}
		switch c.Status {
		case host.CallRunning:
			s.newline()
			if script, ok := scriptOf(c); ok {
				// Whole, written out as the window's card shows it.
				fmt.Fprint(s.errOut, termSafe(fmt.Sprintf("→ %s\n%s\n", c.Name, indentLines(host.Show(script, math.MaxInt).Text, "  │ "))))
				break
			}
			fmt.Fprint(s.errOut, termSafe(fmt.Sprintf("%s→ %s %s\n", indent, c.Name, excerpt(string(c.Args), MaxShownArgs))))
		case host.CallDone:
			fmt.Fprintf(s.errOut, "%s← %s done (%d ms)\n", indent, termSafe(c.Name), c.DurationMs)
			s.scriptEnd(c)
		case host.CallError, host.CallDenied, host.CallCancelled:
			s.newline()
			fmt.Fprint(s.errOut, termSafe(fmt.Sprintf("%s← %s %s: %s\n", indent, c.Name, c.Status, c.Error)))
			s.scriptEnd(c)
		}
	case host.EventProgress:
		s.progress(ev)
	case host.EventRetry:
		s.newline()
		fmt.Fprintf(s.errOut, "switchboard: rate-limited, retrying in %d ms\n", ev.RetryAfterMs)
	case host.EventContext:
		if ev.Error != "" { // what the engine learnt of the model's window, said once
			s.newline()
			fmt.Fprintf(s.errOut, "switchboard: %s\n", termSafe(ev.Error))
		}
		v := ev.Context
		if v == nil {
			break
		}
		if v.Compacting {
			s.newline()
			fmt.Fprintln(s.errOut, "switchboard: the chat is near the model's context window; summarising the earlier messages…")
		}
		if v.Assumed && !s.toldAssumed {
			s.toldAssumed = true
			s.newline()
			fmt.Fprintf(s.errOut, "switchboard: the model's context window is not known; assuming %d tokens (set it with %s)\n", v.Window, s.setWindow)
		}
		// Results, not steps: one step of fifteen results may have a few
		// of them stubbed, the latest whole.
		if n := v.TurnStubbedResults; n > 0 && !s.toldStubbed {
			s.toldStubbed = true
			s.newline()
			as := "as stubs, the oldest first"
			if n == 1 {
				as = "as a stub, the oldest"
			}
			fmt.Fprintf(s.errOut, "switchboard: this turn's tool results no longer fit the model's context together; the model sees %d of them %s\n", n, as)
		}
	case host.EventMessage:
		if host.IsSummary(ev) {
			fmt.Fprintf(s.errOut, "switchboard: summarised %d earlier messages (%d ms); the originals stay in the chat's history and its export\n", ev.Steps, ev.DurationMs)
		}
	}
}

func (s *streamPrinter) newline() {
	if s.midLine && !s.quiet {
		fmt.Fprintln(s.out)
		s.midLine = false
	}
}

func (s *streamPrinter) finish() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clearStatus()
	s.newline()
}

// Approve asks on the terminal whether a tool may run (or a server may use
// the model); without a terminal it denies. It makes terminalRequests a
// host.Approver, so 'switchboard chat' asks everything in one place.
func (t *terminalRequests) Approve(ctx context.Context, req host.ApprovalRequest) (host.Decision, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.interactive && req.Kind == host.KindSampling {
		return host.Deny, errors.New("no terminal to ask on (--yes does not cover sampling; Settings → Chat → Sampling can allow it)")
	}
	if !t.interactive {
		return host.Deny, errors.New("no terminal to ask on; use --yes to allow tool calls")
	}
	what := "run " + req.Tool
	switch {
	case req.Kind == host.KindSampling:
		what = "let " + req.Server + " use the model"
	case req.Specialist != "": // not the model the user talks to: say whose call it is
		what = "(the " + req.Specialist + " specialist) run " + req.Tool
	}
	args := host.Show(string(req.Arguments), MaxShownArgs)
	what += " " + args.Text
	if note := args.Note(); note != "" { // the part not shown is approved too: say so
		what += "\n" + note
	}
	s, err := t.line(ctx, what+"\nAllow? [y]es / [a]lways in this chat / [N]o: ")
	if err != nil {
		return host.Deny, err
	}
	switch strings.ToLower(s) {
	case "y", "yes":
		return host.ApproveOnce, nil
	case "a", "always":
		return host.ApproveAlways, nil
	}
	return host.Deny, nil
}

// refused prints a sampling request Switchboard refused, so the user sees
// what a server tried (host.ChatRequests.OnRefused).
func (t *terminalRequests) refused(r host.SamplingRefusal) {
	fmt.Fprint(t.out, termSafe(fmt.Sprintf("switchboard: refused %s's request to use the model: %s\n", r.Server, r.Why)))
}

// lockedWriter serialises writes to w. On a terminal it also keeps a
// status line (Status, chatprogress.go), erased before each write.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
	// status: a status line is drawn (no newline after it); open: the
	// last write did not end its line (a question waits there).
	status, open bool
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.clearLocked()
	if len(p) > 0 {
		l.open = p[len(p)-1] != '\n'
	}
	return l.w.Write(p)
}

// chatRequests answers the servers' requests during a chat: sampling goes
// to the chat's model (after approval), forms are asked on the terminal.
type chatRequests struct {
	*host.ChatRequests
	term *terminalRequests
}

// Elicit implements host.RequestHandler.
func (c chatRequests) Elicit(ctx context.Context, server string, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	return c.term.Elicit(ctx, server, req)
}

var (
	_ host.Approver       = (*terminalRequests)(nil)
	_ host.RequestHandler = chatRequests{}
)
