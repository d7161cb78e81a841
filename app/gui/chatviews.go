package gui

import (
	"encoding/json"
	"strings"

	"github.com/switchboard-app/switchboard/app/host"
)

// The chat's events. Bound methods and events return these and the host's
// chat views (host.ChatView, host.MessageView, …), never history or chat
// types: Wails renders json.RawMessage as number[] and time.Time as any in
// TypeScript. A streamed message has the shape of a stored one, so the
// page folds events into what ChatMessages returned.

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
	Call         *host.ToolCallView `json:"call,omitempty"`
	Status       string             `json:"status,omitempty"` // of a messageEnd
	Error        string             `json:"error,omitempty"`
	RetryAfterMs int64              `json:"retryAfterMs,omitempty"`
	Usage        *host.TokenUsage   `json:"usage,omitempty"`
	// Steps is a stepLimit's count, or how many messages a summary replaced.
	Steps int `json:"steps,omitempty"`
	// DurationMs is how long a summary took to write.
	DurationMs int64 `json:"durationMs,omitempty"`
	// Context is the context meter (a context event).
	Context *host.ChatContext `json:"context,omitempty"`
	// Progress is how far a running call is (a progress event; Call
	// names the call).
	Progress *ProgressView `json:"progress,omitempty"`
}

// ProgressView is how far a running tool call is, as its server reported
// it (notifications/progress).
type ProgressView struct {
	Progress float64 `json:"progress"`
	Total    float64 `json:"total,omitempty"` // 0 when the server did not say
	Message  string  `json:"message,omitempty"`
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
	Warnings []host.WarningView `json:"warnings"`
	// Tools are the tools a sampling request offers the model.
	Tools []host.OfferedTool `json:"tools,omitempty"`
	// App is the ui:// URI of the server's MCP App when the app asks to
	// use the model (sampling), not the server.
	App string `json:"app,omitempty"`
	// Script is the script (code mode) that makes this call, when one does.
	Script string `json:"script,omitempty"`
	// Specialist is the server whose specialist (an agent's ask_<server>)
	// makes this call, when one does.
	Specialist string `json:"specialist,omitempty"`
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

// chatEvent is the view of a chat engine event.
func chatEvent(ev host.ChatEvent) ChatEvent {
	out := ChatEvent{ChatID: ev.ChatID, Seq: ev.Seq, Type: string(ev.Type), MessageID: ev.MessageID, Role: ev.Role, Text: ev.Text,
		Status: ev.Status, Error: ev.Error, RetryAfterMs: ev.RetryAfterMs, Usage: host.UsageView(ev.Usage), Steps: ev.Steps, DurationMs: ev.DurationMs, Context: host.ContextView(ev.Context)}
	if c := ev.Call; c != nil {
		v := host.CallView(*c)
		lightCall(&v)
		out.Call = &v
	}
	if p := ev.Progress; p != nil {
		out.Progress = &ProgressView{Progress: p.Progress, Total: p.Total, Message: p.Message}
	}
	return out
}

// MaxCardMedia is how many bytes of base64 data (images, audio, binary
// resources) one tool card is sent, its result's blocks in order: a few
// screenshots. A block past it is sent without its data, its size in its
// place, so a chat of screenshots neither crosses the binding whole each
// time it opens nor stays whole in the window's memory.
var MaxCardMedia = 4 << 20

// lightCall leaves out of v the media data past MaxCardMedia (see
// ContentView.Size), in its steps too.
func lightCall(v *host.ToolCallView) {
	if r := v.Result; r != nil {
		budget := MaxCardMedia
		for i, c := range r.Content {
			if c.Data == "" {
				continue
			}
			if len(c.Data) <= budget {
				budget -= len(c.Data)
				continue
			}
			r.Content[i].Size = decodedLen(c.Data)
			r.Content[i].Data = ""
		}
	}
	for i := range v.Steps {
		lightCall(&v.Steps[i])
	}
}

// decodedLen is how many bytes base64 text holds.
func decodedLen(b64 string) int {
	n := len(b64) / 4 * 3
	if len(b64)%4 == 0 {
		n -= len(b64) - len(strings.TrimRight(b64, "="))
	} else {
		n += len(b64) % 4 * 3 / 4
	}
	return n
}

// lightMessages is ms with each tool card's media past MaxCardMedia left
// out (lightCall).
func lightMessages(ms []host.MessageView) []host.MessageView {
	for i := range ms {
		for j := range ms[i].ToolCalls {
			lightCall(&ms[i].ToolCalls[j])
		}
	}
	return ms
}

func approvalView(r host.ApprovalRequest) ApprovalView {
	return ApprovalView{ID: r.ID, ChatID: r.ChatID, Kind: r.Kind, Server: r.Server, Tool: r.Tool,
		Arguments: host.ArgsText(r.Arguments), Destructive: r.Destructive, Warnings: host.WarningsView(r.Warnings), Tools: host.OfferedToolsView(r.Tools), App: r.App, Script: r.Script, Specialist: r.Specialist}
}

func elicitView(r host.ElicitRequest) ElicitView {
	v := ElicitView{ID: r.ID, ChatID: r.ChatID, Server: r.Server, Mode: r.Mode, Message: r.Message, URL: r.URL, Domain: r.Domain, Registrable: r.Registrable, Written: r.Written, Retry: r.Retry}
	if len(r.Schema) > 0 {
		_ = json.Unmarshal(r.Schema, &v.Schema) // not an object: the page shows an empty form
	}
	return v
}
