package chat

import (
	"encoding/json"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// EventName is the Wails event every chat Event is emitted under.
const EventName = "chat:event"

// EventType names what an Event reports.
type EventType string

// Event types, in the order a turn produces them.
const (
	EventMessage    EventType = "message"    // a message was stored (user, or an assistant message starting)
	EventText       EventType = "text"       // a text delta of the assistant message
	EventToolCall   EventType = "toolCall"   // a tool call started streaming, or changed state
	EventToolArgs   EventType = "toolArgs"   // a delta of a streaming tool call's arguments
	EventRetry      EventType = "retry"      // the provider is rate-limited; waiting
	EventStepLimit  EventType = "stepLimit"  // the loop stopped at its step limit
	EventMessageEnd EventType = "messageEnd" // an assistant message is complete (or not)
	EventContext    EventType = "context"    // the context meter before a step (Context), or a summary being written
	EventProgress   EventType = "progress"   // a running call's server said how far it is (Progress; Call names the call)
	EventDone       EventType = "done"       // the turn is over
)

// Event is one thing that happened in a turn, for the UI.
type Event struct {
	ChatID string `json:"chatId"`
	// Seq numbers a chat's events 1, 2, 3… (across turns), so a UI that
	// receives them out of order (Wails' dev server delivers each event on
	// its own goroutine) can put them back in order.
	Seq       int64     `json:"seq"`
	Type      EventType `json:"type"`
	MessageID string    `json:"messageId,omitempty"`
	// Role of a EventMessage.
	Role string `json:"role,omitempty"`
	// Text is a text delta (EventText) or the message text (EventMessage,
	// EventMessageEnd).
	Text string `json:"text,omitempty"`
	// Call is set for EventToolCall and EventToolArgs (Args then holds the delta).
	Call *ToolCallView `json:"call,omitempty"`
	// Status of EventMessageEnd: complete, incomplete, error, cancelled.
	Status string `json:"status,omitempty"`
	// Error explains a non-complete status, a retry or the step limit; on a
	// context event, the model's window that a refusal stated (below the one
	// in use, which the chat now uses).
	Error        string `json:"error,omitempty"`
	RetryAfterMs int64  `json:"retryAfterMs,omitempty"`
	Usage        *Usage `json:"usage,omitempty"`
	// Steps is the step limit's count (EventStepLimit), or how many
	// messages a summary replaced (EventMessage of role "summary").
	Steps int `json:"steps,omitempty"`
	// DurationMs is how long a summary took to write.
	DurationMs int64 `json:"durationMs,omitempty"`
	// Context is the context meter (EventContext).
	Context *ContextView `json:"context,omitempty"`
	// Progress is how far a running call is (EventProgress), as its server
	// reported it; Call names the call (its ID, Index, Name, Server, Tool
	// and Parent, status running).
	Progress *Progress `json:"progress,omitempty"`
}

// Usage is the tokens a message used, when the provider reports them.
type Usage struct {
	InputTokens  int `json:"inputTokens"`
	OutputTokens int `json:"outputTokens"`
}

// Tool call states.
const (
	CallStreaming = "streaming" // the model is still writing the arguments
	CallPending   = "pending"   // waiting for the user's approval
	CallRunning   = "running"
	CallDone      = "done"
	CallError     = "error"     // the tool failed (the model is told)
	CallDenied    = "denied"    // the user or a policy refused it
	CallCancelled = "cancelled" // Stop was pressed
)

// ToolCallView is a tool call as the UI shows it.
type ToolCallView struct {
	ID     string `json:"id"`
	Index  int    `json:"index"`
	Name   string `json:"name"` // exposed name, server__tool
	Server string `json:"server,omitempty"`
	Tool   string `json:"tool,omitempty"`
	// Args is the arguments JSON (a delta for EventToolArgs).
	Args       string          `json:"args,omitempty"`
	Status     string          `json:"status"`
	Result     json.RawMessage `json:"result,omitempty"` // the MCP CallToolResult
	IsError    bool            `json:"isError,omitempty"`
	Error      string          `json:"error,omitempty"`
	DurationMs int64           `json:"durationMs,omitempty"`
	ApprovalID string          `json:"approvalId,omitempty"`
	// Parent is, for a call a sub-agent made, the ask_<server> call it
	// belongs to: the UI shows it nested under that card.
	Parent string `json:"parent,omitempty"`
	// Task is the state of a call that runs as an MCP task.
	Task *router.TaskUpdate `json:"task,omitempty"`
}

// resultError is a view's Error for a call that ended with res: what a
// result marked as an error says (a script's, the sentence it ended
// with; any other's, its text), "" for one that is not. The CLI prints
// Error after a failed call's name, and a card shows it.
func resultError(res *mcp.CallToolResult) string {
	if res == nil || !res.IsError {
		return ""
	}
	if s, ok := res.StructuredContent.(ScriptResult); ok && s.Error != "" {
		return s.Error
	}
	var text []string
	for _, c := range res.Content {
		if t, ok := c.(mcp.TextContent); ok && strings.TrimSpace(t.Text) != "" {
			text = append(text, t.Text)
		}
	}
	if len(text) == 0 {
		return "the tool reported an error without a message"
	}
	return strings.Join(text, "\n")
}
