package host

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/history"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// The chats' views: what Chats returns of the history, and what the
// window's chat events and the tool playground show of a tool call.
// Wails renders json.RawMessage as number[] and time.Time as any in
// TypeScript, so timestamps here are RFC 3339 strings and raw JSON is JSON
// text or a typed field. A stored message and a streamed one have the same
// shape, so the page folds events into what Chats.Messages returned.

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
// the chat has older ones (HasMore) and newer ones (HasNewer: a page read
// around a search hit does not reach the chat's end).
type MessagePageView struct {
	Messages []MessageView `json:"messages"`
	HasMore  bool          `json:"hasMore"`
	HasNewer bool          `json:"hasNewer,omitempty"`
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
	Capped *KeptResult `json:"capped,omitempty"`
}

// TaskView is the state of a tool call that runs as an MCP task.
type TaskView struct {
	ID      string `json:"id"`
	Status  string `json:"status"` // working, input_required, completed, failed, cancelled
	Message string `json:"message"`
}

// ChatOptions are a chat's own choices, kept in its history record.
type ChatOptions struct {
	// OffServers and OffTools are the servers and tools (server__tool) the
	// user switched off for this chat; everything else is active.
	OffServers []string `json:"offServers,omitempty"`
	OffTools   []string `json:"offTools,omitempty"`
	// ToolMode is how this chat offers the tools: direct, code or both
	// (chat.ToolsDirect, …); "" leaves it to the agent, the settings and
	// the model's context window.
	ToolMode string `json:"toolMode,omitempty"`
}

func chatOptions(raw json.RawMessage) ChatOptions {
	var o ChatOptions
	if len(raw) > 0 {
		_ = json.Unmarshal(raw, &o)
	}
	return o
}

// Active says whether t is on in the chat (neither its server nor itself
// switched off).
func (o ChatOptions) Active(t Tool) bool {
	for _, s := range o.OffServers {
		if s == t.Server {
			return false
		}
	}
	for _, n := range o.OffTools {
		if n == t.Name {
			return false
		}
	}
	return true
}

// ContentView is one content block of a tool result.
type ContentView struct {
	Type     string `json:"type"` // text, image, audio, resource, resource_link
	Text     string `json:"text"`
	Data     string `json:"data"` // base64 for image/audio/blob
	MIMEType string `json:"mimeType"`
	URI      string `json:"uri"`
	// Name, Title and Description of a resource_link.
	Name        string `json:"name"`
	Title       string `json:"title"`
	Description string `json:"description"`
	// Size is, for image, audio or blob data a view left out (Data
	// empty: too large to send to the window), its size in bytes.
	Size int `json:"size,omitempty"`
}

// CallResult is a tool call's outcome for the playground.
type CallResult struct {
	IsError    bool          `json:"isError"`
	Content    []ContentView `json:"content"`
	Structured string        `json:"structured"` // structuredContent as JSON text, if any
	// SchemaError says why the structured content does not match the
	// tool's outputSchema (the router turned the result into an error).
	SchemaError string  `json:"schemaError"`
	DurationMs  float64 `json:"durationMs"`
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

// messageViews are stored messages as the doors show them. running says
// whether the chat has a turn running here: when it has none, a call
// stored without its result (pending, running) is one whose result the
// app lost when it stopped, not one waiting for an answer, and says so as
// the model is told it (chat.LostResult).
func messageViews(ms []history.Message, running bool) []MessageView {
	out := make([]MessageView, 0, len(ms))
	for _, m := range ms {
		v := MessageView{ID: m.ID, ChatID: m.ChatID, Seq: m.Seq, Role: m.Role, Text: m.Text, Status: m.Status, Error: m.Error,
			Model: m.Model, InputTokens: m.InputTokens, OutputTokens: m.OutputTokens, CreatedAt: rfc3339(m.CreatedAt),
			ToolCalls: make([]ToolCallView, 0, len(m.ToolCalls)), Asked: m.Asked}
		for i, c := range m.ToolCalls {
			cv := storedCallView(i, c)
			if !running && cv.Result == nil && (c.Status == chat.CallPending || c.Status == chat.CallRunning) {
				cv.Status, cv.IsError, cv.Error = chat.CallError, true, chat.LostResult
			}
			v.ToolCalls = append(v.ToolCalls, cv)
		}
		out = append(out, v)
	}
	return out
}

// storedCallView is a stored tool call as a card shows it; a delegated
// call's steps come back from its structured result.
func storedCallView(index int, c history.ToolCall) ToolCallView {
	v := ToolCallView{ID: c.ID, Index: index, Name: c.Tool, Server: c.Server, Tool: ownName(c.Server, c.Tool),
		Args: ArgsText(c.Arguments), Status: c.Status, IsError: c.IsError, DurationMs: c.DurationMs}
	if t := c.Task; t != nil {
		v.Task = &TaskView{ID: t.ID, Status: t.Status, Message: t.Message}
	}
	res := parseResult(c.Result)
	if res == nil {
		return v
	}
	r := ResultView(res, float64(c.DurationMs))
	v.Result = &r
	if k, ok := chat.KeptOf(c.Result); ok {
		v.Capped = keptView(&k)
	}
	if c.IsError {
		v.Error = v.Result.Text()
	}
	var sc struct {
		Steps []chat.Step `json:"steps"`
	}
	if v.Result.Structured == "" || json.Unmarshal([]byte(v.Result.Structured), &sc) != nil {
		return v
	}
	for i, st := range sc.Steps {
		step := ToolCallView{ID: c.ID + "/" + strconv.Itoa(i), Index: i, Name: st.Tool, Server: st.Server, Tool: ownName(st.Server, st.Tool),
			Args: ArgsText(st.Arguments), Status: chat.CallDone, IsError: st.IsError, DurationMs: st.DurationMs, Parent: c.ID,
			Result: &CallResult{IsError: st.IsError, Content: []ContentView{{Type: "text", Text: st.Result}}, DurationMs: float64(st.DurationMs)}}
		if st.IsError {
			step.Status, step.Error = chat.CallError, st.Result
		}
		if st.Status != "" { // denied, cancelled: as the card showed it live
			step.Status = st.Status
		}
		v.Steps = append(v.Steps, step)
	}
	return v
}

// ResultView is a tool call's result as the doors show it, took its
// duration in milliseconds.
func ResultView(res *mcp.CallToolResult, took float64) CallResult {
	out := CallResult{IsError: res.IsError, DurationMs: took, Content: make([]ContentView, 0, len(res.Content))}
	for _, c := range res.Content {
		switch c := c.(type) {
		case mcp.TextContent:
			out.Content = append(out.Content, ContentView{Type: "text", Text: c.Text})
		case mcp.ImageContent:
			out.Content = append(out.Content, ContentView{Type: "image", Data: c.Data, MIMEType: c.MIMEType})
		case mcp.AudioContent:
			out.Content = append(out.Content, ContentView{Type: "audio", Data: c.Data, MIMEType: c.MIMEType})
		case mcp.ResourceLink:
			out.Content = append(out.Content, ContentView{Type: "resource_link", URI: c.URI, Text: c.Name, MIMEType: c.MIMEType,
				Name: c.Name, Title: c.Title, Description: c.Description})
		case mcp.EmbeddedResource:
			v := ContentView{Type: "resource"}
			switch r := c.Resource.(type) {
			case mcp.TextResourceContents:
				v.URI, v.MIMEType, v.Text = r.URI, r.MIMEType, r.Text
			case mcp.BlobResourceContents:
				v.URI, v.MIMEType, v.Data = r.URI, r.MIMEType, r.Blob
			}
			out.Content = append(out.Content, v)
		}
	}
	if res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			out.Structured = string(b)
		}
	}
	if res.Meta != nil {
		out.SchemaError, _ = res.Meta.AdditionalFields[router.MetaOutputSchemaError].(string)
	}
	return out
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

// Text joins the result's text parts, or shows its structured content.
func (r *CallResult) Text() string {
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

// ArgsText is arguments as JSON text; a stored JSON string (arguments that
// were not valid JSON) is shown as the text it holds.
func ArgsText(raw json.RawMessage) string {
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

// CallView is a streamed tool call (a chat event's) as a card shows it.
func CallView(c TurnCall) ToolCallView {
	v := ToolCallView{ID: c.ID, Index: c.Index, Name: c.Name, Server: c.Server, Tool: c.Tool, Args: c.Args, Status: c.Status,
		IsError: c.IsError, Error: c.Error, DurationMs: c.DurationMs, ApprovalID: c.ApprovalID, Parent: c.Parent}
	if t := c.Task; t != nil {
		v.Task = &TaskView{ID: t.ID, Status: t.Status, Message: t.Message}
	}
	if res := parseResult(c.Result); res != nil {
		r := ResultView(res, float64(c.DurationMs))
		v.Result = &r
	}
	if k, ok := chat.KeptOf(c.Result); ok {
		v.Capped = keptView(&k)
	}
	return v
}
