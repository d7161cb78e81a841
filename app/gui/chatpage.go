package gui

import (
	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/switchboard-app/switchboard/app/host"
	"github.com/yosida95/uritemplate/v3"
)

// ChatPage is the chat: chats, turns, approvals, prompts and resources.
type ChatPage struct{ *core }

// PendingRequests lists approvals and forms waiting for an answer.
func (a *ChatPage) PendingRequests() ([]PendingRequest, error) {
	var out []PendingRequest
	for _, q := range a.asker.open() {
		var p PendingRequest
		if q.Approval != nil {
			v := approvalView(*q.Approval)
			p.Approval = &v
		}
		if q.Elicit != nil {
			v := elicitView(*q.Elicit)
			p.Elicit = &v
		}
		out = append(out, p)
	}
	return out, nil
}

// AnswerApproval answers an approval request: "once", "always" or "deny".
func (a *ChatPage) AnswerApproval(id, decision string) error {
	d := host.Decision(decision)
	switch d {
	case host.ApproveOnce, host.ApproveAlways, host.Deny:
	default:
		return errors.New("decision must be once, always or deny")
	}
	return a.asker.answer(id, d)
}

// AnswerElicitation answers a server's form: action accept (with content),
// decline or cancel.
func (a *ChatPage) AnswerElicitation(id string, action string, contentJSON string) error {
	ans := host.ElicitAnswer{Action: action}
	switch action {
	case "accept":
		if contentJSON != "" {
			if err := json.Unmarshal([]byte(contentJSON), &ans.Content); err != nil {
				return errors.New("the form's answer is not a JSON object")
			}
		}
	case "decline", "cancel":
	default:
		return errors.New("action must be accept, decline or cancel")
	}
	return a.asker.answer(id, ans)
}

// Chats lists chats, most recent first.
func (a *ChatPage) Chats(limit, offset int) ([]host.ChatView, error) {
	return a.h.Chats.List(a.bg(), limit, offset)
}

// SearchChats runs a full-text search over every chat.
func (a *ChatPage) SearchChats(query string) ([]host.ChatHit, error) {
	return a.h.Chats.Search(a.bg(), query, 50)
}

// NewChat starts an empty chat with a provider and model ("" = defaults).
// The window passes the model in use (the open chat's, else the last
// chat's), so a new chat goes on with it; a provider removed since then
// gives way to the default provider and its default model.
func (a *ChatPage) NewChat(providerName, model string) (host.ChatView, error) {
	s, err := a.h.Settings.Chat()
	if err != nil {
		return host.ChatView{}, err
	}
	if _, err := s.Provider(providerName); providerName != "" && err != nil {
		providerName, model = "", ""
	}
	return a.createChat(s, host.NewChat{Provider: providerName, Model: model})
}

// Chat returns one chat.
func (a *ChatPage) Chat(id string) (host.ChatView, error) {
	return a.h.Chats.Get(a.bg(), id)
}

// ChatMessages returns a chat's messages with their tool calls.
func (a *ChatPage) ChatMessages(id string) ([]host.MessageView, error) {
	ms, err := a.h.Chats.Messages(a.bg(), id)
	return lightMessages(ms), err
}

// ChatMessagesPage returns up to limit of a chat's messages before seq
// before (0 = the last ones), so the window opens a long chat at its end
// and reads older pages as the user scrolls up.
func (a *ChatPage) ChatMessagesPage(id string, before, limit int) (host.MessagePageView, error) {
	p, err := a.h.Chats.MessagesPage(a.bg(), id, before, min(limit, MaxMessagePage))
	p.Messages = lightMessages(p.Messages)
	return p, err
}

// ChatMessagesAround returns up to limit of a chat's messages around
// message messageID (a search hit), and whether older and newer ones
// remain, so the window opens a chat at the hit.
func (a *ChatPage) ChatMessagesAround(id, messageID string, limit int) (host.MessagePageView, error) {
	p, err := a.h.Chats.MessagesAround(a.bg(), id, messageID, min(limit, MaxMessagePage))
	p.Messages = lightMessages(p.Messages)
	return p, err
}

// RenameChat sets a chat's title.
func (a *ChatPage) RenameChat(id, title string) error {
	return a.h.Chats.Rename(a.bg(), id, title)
}

// DeleteChat deletes a chat and its messages (the UI confirms first).
func (a *ChatPage) DeleteChat(id string) error {
	return a.h.Chats.Delete(a.bg(), id)
}

// ExportChat renders a chat as "markdown" or "json".
func (a *ChatPage) ExportChat(id, format string) (string, error) {
	return a.h.Chats.Export(a.bg(), id, format)
}

// SaveChatExport asks where to save the chat as "markdown" or "json" (the
// system's save dialog) and writes it there atomically. It returns the path
// written, or "" when the user cancelled the dialog.
func (a *ChatPage) SaveChatExport(id, format string) (string, error) {
	name, err := a.h.Chats.ExportName(a.bg(), id, format)
	if err != nil {
		return "", err
	}
	ctx := a.wailsContext()
	if ctx == nil {
		return "", errors.New("no window to show the save dialog in: use Copy and paste the export instead")
	}
	filter := wruntime.FileFilter{DisplayName: "Markdown (*.md)", Pattern: "*.md"}
	if strings.HasSuffix(name, ".json") {
		filter = wruntime.FileFilter{DisplayName: "JSON (*.json)", Pattern: "*.json"}
	}
	path, err := wruntime.SaveFileDialog(ctx, wruntime.SaveDialogOptions{
		Title: "Export chat", DefaultFilename: name,
		Filters: []wruntime.FileFilter{filter}, CanCreateDirectories: true,
	})
	if err != nil || path == "" {
		return "", err
	}
	if err := a.h.Chats.ExportFile(a.bg(), id, format, path); err != nil {
		return "", err
	}
	return path, nil
}

// SetChatModel switches a chat's provider and model.
func (a *ChatPage) SetChatModel(id, providerName, model string) error {
	return a.h.Chats.SetModel(a.bg(), id, providerName, model)
}

// SetChatOptions stores which servers and tools a chat uses.
func (a *ChatPage) SetChatOptions(id string, opts host.ChatOptions) error {
	return a.h.Chats.SetOptions(a.bg(), id, opts)
}

// ChatOptionsOf returns a chat's server and tool choices.
func (a *ChatPage) ChatOptionsOf(id string) (host.ChatOptions, error) {
	c, err := a.Chat(id)
	if err != nil {
		return host.ChatOptions{}, err
	}
	return c.Options, nil
}

// SendMessage sends the user's text to the chat's model and returns at once;
// the answer streams as chat:event events. It fails at once when the chat is
// busy, has no model, or no provider is set up.
func (a *ChatPage) SendMessage(chatID, text string) error {
	text = strings.TrimSpace(text)
	if text == "" {
		return host.ErrEmpty
	}
	return a.startTurn(chatID, text, "", false)
}

// RetryAnswer asks the model again for the answer to the chat's last
// user message: the last answer and its tool calls are deleted (in one
// write with the rewind) and a new one streams as chat:event events.
func (a *ChatPage) RetryAnswer(chatID string) error {
	return a.startTurn(chatID, "", host.FromLast, false)
}

// CompactChat summarises the chat's messages now ("Compact now"): the
// model reads the summary instead of them from then on; they stay in the
// history. It returns at once; the summary arrives as chat:event events.
func (a *ChatPage) CompactChat(chatID string) error {
	return a.startTurn(chatID, "", "", true)
}

// EditMessage replaces the text of one of the user's messages, deletes
// every later message of the chat (the window confirms first) and asks
// the model again; the answer streams as chat:event events.
func (a *ChatPage) EditMessage(chatID, messageID, text string) error {
	text = strings.TrimSpace(text)
	if text == "" {
		return host.ErrEmpty
	}
	if messageID == "" || messageID == host.FromLast {
		return errors.New("edit message: no message id")
	}
	return a.startTurn(chatID, text, messageID, false)
}

// startTurn runs a turn in the background: text appended as a new user
// message, or (from set) the chat rewound to a user message, see
// host.Turn.From; or (compact) the chat summarised.
func (a *ChatPage) startTurn(chatID, text, from string, compact bool) error {
	s, err := a.h.Settings.Chat()
	if err != nil {
		return err
	}
	title := text
	if compact || from != "" {
		title = "" // only a first message titles a chat
	}
	st, err := a.h.Chats.Begin(a.bg(), s, chatID, title)
	if err != nil {
		return err
	}
	c, m, ctx := st.Chat, st.Model, st.Ctx
	opts := c.Options
	a.turnWG.Add(1)
	a.settler.turnStarted()
	go func() {
		defer a.turnWG.Done()
		defer st.End()
		t := a.h.Chats.Turn(ctx, s, host.TurnRequest{ChatID: chatID, Text: text, From: from,
			Agent: s.ChatAgent(c.Agent), Active: opts.Active, Provider: c.Provider, Model: m, Tools: opts.ToolMode})
		if a.apps != nil { // what an MCP App in this chat asked the model to know, at each step
			t.Context = func() string { return a.apps.ModelContext(chatID) }
		}
		batch := newDeltaBatch(func(ev ChatEvent) { a.emitEvent(EventChat, ev) })
		defer batch.flush()
		t.OnEvent = func(ev host.ChatEvent) { batch.push(chatEvent(ev)) }
		var err error
		if compact {
			err = a.h.Chats.Compact(ctx, t)
		} else {
			_, err = a.h.Chats.Send(ctx, t)
		}
		if err != nil && ctx.Err() == nil {
			slog.Warn("chat turn", "chat", chatID, "err", err)
		}
	}()
	return nil
}

// StopChat cancels the chat's model stream and tool calls in flight.
func (a *ChatPage) StopChat(chatID string) error {
	a.h.Chats.Stop(chatID)
	return nil
}

// RetryNow cuts short the chat's wait after a rate limit ("Retry now" on
// the countdown): the provider is asked again at once. It reports whether
// the chat was waiting; when it was not (the retry went out meanwhile),
// nothing happens.
func (a *ChatPage) RetryNow(chatID string) bool {
	return a.h.Chats.RetryNow(chatID)
}

// RunningChats are the IDs of the chats with a turn running, for the list
// to mark them answering when the window loads (or reloads) mid-turn.
func (a *ChatPage) RunningChats() []string {
	return a.h.Chats.RunningChats()
}

// CompleteArgument suggests values for an argument of a prompt (prompt set)
// or a resource template (template set) from the server
// (completion/complete), for the slash-command form; given are the
// arguments filled in so far. A server without completions suggests none.
func (a *ChatPage) CompleteArgument(server, prompt, template, argument, value string, given map[string]string) ([]string, error) {
	return a.h.Tools.Complete(a.bg(), server, host.Completion{
		Prompt: prompt, Template: template, Argument: argument, Value: value, Given: given,
	})
}

// Prompts lists every running server's prompts (a server that fails to
// list them is left out).
func (a *ChatPage) Prompts() ([]PromptView, error) {
	out := eachServer(a, func(ctx context.Context, server string) ([]PromptView, error) {
		ps, err := a.h.Tools.Prompts(ctx, server)
		var vs []PromptView
		for _, p := range ps {
			v := PromptView{Server: server, Name: p.Name, Title: p.Title, Description: p.Description, Arguments: []PromptArgument{}, Icon: a.iconSrc(p.Icons)}
			for _, arg := range p.Arguments {
				v.Arguments = append(v.Arguments, PromptArgument{Name: arg.Name, Description: arg.Description, Required: arg.Required})
			}
			vs = append(vs, v)
		}
		return append(vs, a.templatePrompts(ctx, server)...), err
	})
	if out == nil {
		out = []PromptView{}
	}
	return out, nil
}

// UsePrompt expands a prompt with its arguments into the text of a message
// (prompts/get; each message of the result becomes a paragraph).
func (a *ChatPage) UsePrompt(server, name string, args map[string]string) (string, error) {
	res, err := a.h.Tools.Prompt(a.bg(), server, name, args)
	if err != nil {
		return "", err
	}
	var parts []string
	for _, m := range res.Messages {
		parts = append(parts, contentText(m.Content))
	}
	return strings.Join(parts, "\n\n"), nil
}

// Resources lists every running server's resources.
func (a *ChatPage) Resources() ([]ResourceView, error) {
	out := eachServer(a, func(ctx context.Context, server string) ([]ResourceView, error) {
		rs, err := a.h.Tools.Resources(ctx, server)
		var vs []ResourceView
		for _, r := range rs {
			vs = append(vs, ResourceView{Server: server, URI: r.URI, Name: r.Name, Description: r.Description, MIMEType: r.MIMEType, Icon: a.iconSrc(r.Icons)})
		}
		return vs, err
	})
	if out == nil {
		out = []ResourceView{}
	}
	return out, nil
}

// AttachResource reads a resource and returns it as a block to add to the
// message: the model sees the URI and the text (binary content is named,
// not inlined).
func (a *ChatPage) AttachResource(server, uri string) (string, error) {
	res, err := a.h.Tools.Read(a.bg(), server, uri)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, c := range res.Contents {
		switch c := c.(type) {
		case mcp.TextResourceContents:
			fmt.Fprintf(&b, "<resource uri=%q server=%q>\n%s\n</resource>\n", c.URI, server, c.Text)
		case mcp.BlobResourceContents:
			fmt.Fprintf(&b, "<resource uri=%q server=%q mimeType=%q>(binary, %d bytes base64, not included)</resource>\n", c.URI, server, c.MIMEType, len(c.Blob))
		}
	}
	text := b.String()
	if len(text) > MaxAttachment {
		return "", fmt.Errorf("resource %s is %d KB of text; attach something under %d KB", uri, len(text)/1024, MaxAttachment/1024)
	}
	return text, nil
}

// CancelTask asks a server to cancel a tool call running as an MCP task
// (tasks/cancel), from the Cancel of its card; the call then ends saying
// it was cancelled.
func (a *ChatPage) CancelTask(server, taskID string) error {
	ctx, cancel := context.WithTimeout(a.bg(), 15*time.Second)
	defer cancel()
	return a.h.Tools.CancelTask(ctx, server, taskID)
}

// templatePrompts are server's resource templates as slash commands: the
// template's variables are the arguments, completed like a prompt's.
func (a *ChatPage) templatePrompts(ctx context.Context, server string) []PromptView {
	ts, err := a.h.Tools.ResourceTemplates(ctx, server)
	if err != nil {
		return nil
	}
	var out []PromptView
	for _, t := range ts {
		if t.URITemplate == nil || t.URITemplate.Template == nil {
			continue
		}
		v := PromptView{Server: server, Name: t.Name, Title: t.Title, Description: t.Description, Arguments: []PromptArgument{},
			Template: t.URITemplate.Raw(), Icon: a.iconSrc(t.Icons)}
		for _, name := range t.URITemplate.Varnames() {
			v.Arguments = append(v.Arguments, PromptArgument{Name: name, Required: true})
		}
		out = append(out, v)
	}
	return out
}

// UseTemplate reads the resource a server's URI template names once its
// variables are filled in, as text for the message (like AttachResource).
func (a *ChatPage) UseTemplate(server, uriTemplate string, args map[string]string) (string, error) {
	t, err := uritemplate.New(uriTemplate)
	if err != nil {
		return "", fmt.Errorf("resource template %q: %w", uriTemplate, err)
	}
	vals := uritemplate.Values{}
	for k, v := range args {
		vals.Set(k, uritemplate.String(v))
	}
	uri, err := t.Expand(vals)
	if err != nil {
		return "", fmt.Errorf("resource template %q: %w", uriTemplate, err)
	}
	return a.AttachResource(server, uri)
}

// ToolSearchStatus says whether the chat's next turn would give the model
// find_tools instead of its tools, and why in numbers (for the chat's Tools
// popover): its active tools (its own choices and its agent's), their
// estimated tokens and its model's context window, weighed by the Settings
// rule exactly as the turn will.
func (a *ChatPage) ToolSearchStatus(chatID string) (host.ToolSearch, error) {
	ctx, cancel := context.WithTimeout(a.bg(), 10*time.Second)
	defer cancel()
	c, err := a.h.Chats.Get(ctx, chatID)
	if err != nil {
		return host.ToolSearch{}, err
	}
	s, err := a.h.Settings.Chat()
	if err != nil {
		return host.ToolSearch{}, err
	}
	t := host.TurnSetup(s, s.ChatAgent(c.Agent), "", c.Options.Active)
	_, model := host.DefaultModel(s, c.Provider, c.Model)
	t.ContextWindow = a.h.Chats.ContextWindow(ctx, s, c.Provider, model)
	return a.h.Chats.ToolSearch(ctx, t)
}

// ToolModeStatus is how the chat's next turn offers the tools (direct,
// code or both), who chose it, and what the model's context window alone
// would choose (for the chat's Tools menu).
func (a *ChatPage) ToolModeStatus(chatID string) (host.ToolMode, error) {
	ctx, cancel := context.WithTimeout(a.bg(), 10*time.Second)
	defer cancel()
	c, err := a.h.Chats.Get(ctx, chatID)
	if err != nil {
		return host.ToolMode{}, err
	}
	s, err := a.h.Settings.Chat()
	if err != nil {
		return host.ToolMode{}, err
	}
	_, model := host.DefaultModel(s, c.Provider, c.Model)
	window := a.h.Chats.ContextWindow(ctx, s, c.Provider, model)
	return host.ToolModeOf(s, s.ChatAgent(c.Agent), c.Options.ToolMode, window), nil
}

// ChatContext is the context meter of the chat's next request: what it
// would take of the model's window, and of what (for a chat just opened;
// a running turn's events carry it from then on).
func (a *ChatPage) ChatContext(chatID string) (host.ChatContext, error) {
	ctx, cancel := context.WithTimeout(a.bg(), 10*time.Second)
	defer cancel()
	c, err := a.h.Chats.Get(ctx, chatID)
	if err != nil {
		return host.ChatContext{}, err
	}
	s, err := a.h.Settings.Chat()
	if err != nil {
		return host.ChatContext{}, err
	}
	m, name, err := a.h.Chats.Model(s, c.Provider, c.Model)
	if err != nil {
		return host.ChatContext{}, err
	}
	opts := c.Options
	t := a.h.Chats.Turn(ctx, s, host.TurnRequest{ChatID: chatID, Agent: s.ChatAgent(c.Agent), Active: opts.Active, Provider: name, Model: m, Tools: opts.ToolMode})
	return a.h.Chats.Measure(ctx, t)
}
