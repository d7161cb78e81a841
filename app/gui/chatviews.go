package gui

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/history"
	"github.com/switchboard-app/switchboard/app/host"
)

// The chat's views. Bound methods and events return these, never history or
// chat types: Wails renders json.RawMessage as number[] and time.Time as
// any in TypeScript, so timestamps here are RFC 3339 strings and raw JSON is
// JSON text or a typed field. A stored message and a streamed one have the
// same shape, so the page folds events into what ChatMessages returned.

// ChatView is a chat in the list and the header.
type ChatView struct {
	ID       string      `json:"id"`
	Title    string      `json:"title"`
	Provider string      `json:"provider"`
	Model    string      `json:"model"`
	Agent    string      `json:"agent"` // the agent it started from, "" for none
	Options  ChatOptions `json:"options"`
	// CreatedAt and UpdatedAt are RFC 3339; UpdatedAt moves with every message.
	CreatedAt    string `json:"createdAt"`
	UpdatedAt    string `json:"updatedAt"`
	MessageCount int    `json:"messageCount"`
}

// MessageView is one message of a chat with its tool calls.
type MessageView struct {
	ID           string         `json:"id"`
	ChatID       string         `json:"chatId"`
	Seq          int            `json:"seq"`
	Role         string         `json:"role"`   // user, assistant or system
	Text         string         `json:"text"`   // Markdown as the model wrote it
	Status       string         `json:"status"` // complete, streaming, incomplete, error, cancelled
	Error        string         `json:"error"`
	Model        string         `json:"model"`
	InputTokens  int            `json:"inputTokens"`
	OutputTokens int            `json:"outputTokens"`
	CreatedAt    string         `json:"createdAt"` // RFC 3339
	ToolCalls    []ToolCallView `json:"toolCalls"`
	// Asked is, on a summary, true when the user asked for it (Compact now).
	Asked bool `json:"asked,omitempty"`
}

// MessagePageView is a run of a chat's messages, oldest first, and whether
// the chat has older ones.
type MessagePageView struct {
	Messages []MessageView `json:"messages"`
	HasMore  bool          `json:"hasMore"`
}

// ToolCallView is a tool call as a chat card shows it, stored (in a
// MessageView) or streaming (in a ChatEvent).
type ToolCallView struct {
	ID     string `json:"id"`
	Index  int    `json:"index"`  // its place in the message
	Name   string `json:"name"`   // the name the model called (server__tool, ask_server, find_tools)
	Server string `json:"server"` // "" while streaming, and for Switchboard's own tools
	Tool   string `json:"tool"`   // the server's own name for it
	// Args is the arguments as JSON text; in a toolArgs event, the next piece of it.
	Args   string `json:"args"`
	Status string `json:"status"` // streaming, pending, running, done, error, denied, cancelled
	// Result is set once the call ended.
	Result     *CallResult `json:"result,omitempty"`
	IsError    bool        `json:"isError"`
	Error      string      `json:"error"`
	DurationMs int64       `json:"durationMs"`
	ApprovalID string      `json:"approvalId"` // the approval it waits for (status pending)
	// Parent is, for a call a sub-agent made, the ask_<server> call it
	// belongs to; the page shows it nested under that card.
	Parent string `json:"parent,omitempty"`
	// Steps are a delegated (ask_<server>) call's sub-agent calls, in order.
	Steps []ToolCallView `json:"steps,omitempty"`
	// Task is, for a call running as an MCP task, its id, status and the
	// server's status message; the card offers Cancel while it works.
	Task *TaskView `json:"task,omitempty"`
	// Capped is set when the result was over its budget: the model saw
	// its first Shown lines and reads the rest from the content store.
	Capped *host.KeptResult `json:"capped,omitempty"`
}

// TaskView is the state of a tool call that runs as an MCP task.
type TaskView struct {
	ID      string `json:"id"`
	Status  string `json:"status"` // working, input_required, completed, failed, cancelled
	Message string `json:"message"`
}

// ChatEvent is one thing that happened in a turn, emitted as EventChat. Seq
// numbers a chat's events 1, 2, 3… so the page can put them back in order.
type ChatEvent struct {
	ChatID string `json:"chatId"`
	Seq    int64  `json:"seq"`
	// From, when set, is the first Seq this event stands for: streamed
	// pieces are sent joined (deltaBatch), so one event covers From…Seq.
	From      int64  `json:"from,omitempty"`
	Type      string `json:"type"` // message, text, toolCall, toolArgs, retry, stepLimit, messageEnd, done
	MessageID string `json:"messageId,omitempty"`
	Role      string `json:"role,omitempty"`
	// Text is a text delta (text) or the whole text (message, messageEnd).
	Text string `json:"text,omitempty"`
	// Call is the call of a toolCall event, or the delta of a toolArgs one.
	Call         *ToolCallView    `json:"call,omitempty"`
	Status       string           `json:"status,omitempty"` // of a messageEnd
	Error        string           `json:"error,omitempty"`
	RetryAfterMs int64            `json:"retryAfterMs,omitempty"`
	Usage        *host.TokenUsage `json:"usage,omitempty"`
	// Steps is a stepLimit's count, or how many messages a summary replaced.
	Steps int `json:"steps,omitempty"`
	// DurationMs is how long a summary took to write.
	DurationMs int64 `json:"durationMs,omitempty"`
	// Context is the context meter (a context event).
	Context *host.ChatContext `json:"context,omitempty"`
}

// ApprovalView is a tool call (or a server's sampling request) waiting for
// the user, emitted as EventApproval and listed by PendingRequests.
type ApprovalView struct {
	ID     string `json:"id"`
	ChatID string `json:"chatId"`
	Kind   string `json:"kind"` // tool or sampling
	Server string `json:"server"`
	Tool   string `json:"tool"` // server__tool; "" for sampling
	// Arguments is the exact JSON the tool will receive (or the sampling
	// request), as text.
	Arguments   string `json:"arguments"`
	Destructive bool   `json:"destructive"`
	// Warnings: hidden instructions found in the tool's definition.
	Warnings []WarningView `json:"warnings"`
	// Tools are the tools a sampling request offers the model.
	Tools []host.OfferedTool `json:"tools,omitempty"`
	// App is the ui:// URI of the server's MCP App when the app asks to
	// use the model (sampling), not the server.
	App string `json:"app,omitempty"`
	// Script is the script (code mode) that makes this call, when one does.
	Script string `json:"script,omitempty"`
}

// ElicitView is a server's form (or link) waiting for the user, emitted as
// EventElicit and listed by PendingRequests.
type ElicitView struct {
	ID      string `json:"id"`
	ChatID  string `json:"chatId,omitempty"`
	Server  string `json:"server"`
	Mode    string `json:"mode"` // form or url
	Message string `json:"message"`
	// Schema is the form's JSON Schema (mode form).
	Schema map[string]any `json:"schema,omitempty"`
	URL    string         `json:"url,omitempty"` // mode url
	// Domain is the URL's host in ASCII (xn-- for letters of other
	// alphabets), shown with it (mode url); Registrable is its registered
	// domain, highlighted; Written is the host as written when it differs.
	Domain      string `json:"domain,omitempty"`
	Registrable string `json:"registrable,omitempty"`
	Written     string `json:"written,omitempty"`
	// Retry: a tool call waits for this URL (it failed with -32042); the
	// card offers Done, and the server's completion withdraws it.
	Retry bool `json:"retry,omitempty"`
}

// RequestDone is emitted as EventRequestDone when a question was answered
// or withdrawn.
type RequestDone struct {
	ID string `json:"id"`
}

// rfc3339 formats t for a view; the zero time is "".
func rfc3339(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.RFC3339Nano)
}

func chatView(c history.Chat) ChatView {
	return ChatView{ID: c.ID, Title: c.Title, Provider: c.Provider, Model: c.Model, Agent: c.Agent,
		Options: chatOptions(c.Settings), CreatedAt: rfc3339(c.CreatedAt), UpdatedAt: rfc3339(c.UpdatedAt), MessageCount: c.MessageCount}
}

func chatViews(cs []history.Chat) []ChatView {
	out := make([]ChatView, 0, len(cs))
	for _, c := range cs {
		out = append(out, chatView(c))
	}
	return out
}

func messageViews(ms []history.Message) []MessageView {
	out := make([]MessageView, 0, len(ms))
	for _, m := range ms {
		v := MessageView{ID: m.ID, ChatID: m.ChatID, Seq: m.Seq, Role: m.Role, Text: m.Text, Status: m.Status, Error: m.Error,
			Model: m.Model, InputTokens: m.InputTokens, OutputTokens: m.OutputTokens, CreatedAt: rfc3339(m.CreatedAt),
			ToolCalls: make([]ToolCallView, 0, len(m.ToolCalls)), Asked: m.Asked}
		for i, c := range m.ToolCalls {
			v.ToolCalls = append(v.ToolCalls, storedCallView(i, c))
		}
		out = append(out, v)
	}
	return out
}

// storedCallView is a stored tool call as a card shows it; a delegated
// call's steps come back from its structured result.
func storedCallView(index int, c history.ToolCall) ToolCallView {
	v := ToolCallView{ID: c.ID, Index: index, Name: c.Tool, Server: c.Server, Tool: ownName(c.Server, c.Tool),
		Args: argsText(c.Arguments), Status: c.Status, IsError: c.IsError, DurationMs: c.DurationMs}
	if t := c.Task; t != nil {
		v.Task = &TaskView{ID: t.ID, Status: t.Status, Message: t.Message}
	}
	res := parseResult(c.Result)
	if res == nil {
		return v
	}
	r := resultView(res, float64(c.DurationMs))
	v.Result = &r
	if k, ok := chat.KeptOf(c.Result); ok {
		v.Capped = host.KeptView(&k)
	}
	if c.IsError {
		v.Error = resultText(v.Result)
	}
	var sc struct {
		Steps []chat.Step `json:"steps"`
	}
	if v.Result.Structured == "" || json.Unmarshal([]byte(v.Result.Structured), &sc) != nil {
		return v
	}
	for i, st := range sc.Steps {
		step := ToolCallView{ID: c.ID + "/" + strconv.Itoa(i), Index: i, Name: st.Tool, Server: st.Server, Tool: ownName(st.Server, st.Tool),
			Args: argsText(st.Arguments), Status: chat.CallDone, IsError: st.IsError, DurationMs: st.DurationMs, Parent: c.ID,
			Result: &CallResult{IsError: st.IsError, Content: []ContentView{{Type: "text", Text: st.Result}}, DurationMs: float64(st.DurationMs)}}
		if st.IsError {
			step.Status, step.Error = chat.CallError, st.Result
		}
		v.Steps = append(v.Steps, step)
	}
	return v
}

// chatEvent is the view of a chat engine event.
func chatEvent(ev chat.Event) ChatEvent {
	out := ChatEvent{ChatID: ev.ChatID, Seq: ev.Seq, Type: string(ev.Type), MessageID: ev.MessageID, Role: ev.Role, Text: ev.Text,
		Status: ev.Status, Error: ev.Error, RetryAfterMs: ev.RetryAfterMs, Usage: host.UsageView(ev.Usage), Steps: ev.Steps, DurationMs: ev.DurationMs, Context: host.ContextView(ev.Context)}
	if c := ev.Call; c != nil {
		v := ToolCallView{ID: c.ID, Index: c.Index, Name: c.Name, Server: c.Server, Tool: c.Tool, Args: c.Args, Status: c.Status,
			IsError: c.IsError, Error: c.Error, DurationMs: c.DurationMs, ApprovalID: c.ApprovalID, Parent: c.Parent}
		if t := c.Task; t != nil {
			v.Task = &TaskView{ID: t.ID, Status: t.Status, Message: t.Message}
		}
		if res := parseResult(c.Result); res != nil {
			r := resultView(res, float64(c.DurationMs))
			v.Result = &r
		}
		if k, ok := chat.KeptOf(c.Result); ok {
			v.Capped = host.KeptView(&k)
		}
		out.Call = &v
	}
	return out
}

func approvalView(r chat.ApprovalRequest) ApprovalView {
	return ApprovalView{ID: r.ID, ChatID: r.ChatID, Kind: r.Kind, Server: r.Server, Tool: r.Tool,
		Arguments: argsText(r.Arguments), Destructive: r.Destructive, Warnings: warningViews(r.Warnings), Tools: host.OfferedToolsView(r.Tools), App: r.App, Script: r.Script}
}

func elicitView(r chat.ElicitRequest) ElicitView {
	v := ElicitView{ID: r.ID, ChatID: r.ChatID, Server: r.Server, Mode: r.Mode, Message: r.Message, URL: r.URL, Domain: r.Domain, Registrable: r.Registrable, Written: r.Written, Retry: r.Retry}
	if len(r.Schema) > 0 {
		_ = json.Unmarshal(r.Schema, &v.Schema) // not an object: the page shows an empty form
	}
	return v
}

// parseResult reads a stored or streamed MCP CallToolResult; nil when there
// is none (the call has not ended) or it cannot be read.
func parseResult(raw json.RawMessage) *mcp.CallToolResult {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var res mcp.CallToolResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil
	}
	return &res
}

// resultText joins a result's text parts, or shows its structured content.
func resultText(r *CallResult) string {
	var parts []string
	for _, c := range r.Content {
		if c.Type == "text" {
			parts = append(parts, c.Text)
		}
	}
	if len(parts) > 0 {
		return strings.Join(parts, "\n")
	}
	return r.Structured
}

// argsText is arguments as JSON text; a stored JSON string (arguments that
// were not valid JSON) is shown as the text it holds.
func argsText(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// ownName is the server's own name of an exposed tool name (server__tool).
func ownName(server, name string) string {
	if server != "" {
		if rest, ok := strings.CutPrefix(name, server+"__"); ok {
			return rest
		}
	}
	return name
}
