package history

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"
)

// Format is an export format.
type Format string

// Export formats.
const (
	// FormatMarkdown is for people: the title, each message under a heading
	// with its role and time, tool calls as collapsible <details> blocks
	// with their arguments and result text.
	FormatMarkdown Format = "markdown"
	// FormatJSON is for programs; its shape is ExportDoc.
	FormatJSON Format = "json"
)

// ParseFormat reads a format name as a user types it: "markdown", "md" or "json".
func ParseFormat(name string) (Format, error) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "markdown", "md":
		return FormatMarkdown, nil
	case "json":
		return FormatJSON, nil
	}
	return "", fmt.Errorf("export format %q: %w (use markdown or json)", name, ErrInvalid)
}

// ExportVersion is ExportDoc.Version; it changes only when a field changes
// meaning or goes away (new fields may be added without a bump).
const ExportVersion = 1

// ExportDoc is the JSON export. Times are RFC 3339 in UTC; JSON values
// (settings, arguments, result) are embedded as they were stored.
//
//	{"format": "switchboard.chat", "version": 1,
//	 "chat": {"id", "title", "provider", "model", "agent", "settings", "createdAt", "updatedAt"},
//	 "messages": [{"id", "seq", "role", "text", "status", "error", "model",
//	               "inputTokens", "outputTokens", "createdAt",
//	               "toolCalls": [{"id", "server", "tool", "arguments", "result",
//	                              "isError", "status", "startedAt", "durationMs"}]}]}
type ExportDoc struct {
	Format   string          `json:"format"` // always "switchboard.chat"
	Version  int             `json:"version"`
	Chat     ExportChat      `json:"chat"`
	Messages []ExportMessage `json:"messages"`
}

// ExportChat is the chat in an ExportDoc.
type ExportChat struct {
	ID        string          `json:"id"`
	Title     string          `json:"title"`
	Provider  string          `json:"provider"`
	Model     string          `json:"model"`
	Agent     string          `json:"agent"`
	Settings  json.RawMessage `json:"settings"` // null when unset
	CreatedAt time.Time       `json:"createdAt"`
	UpdatedAt time.Time       `json:"updatedAt"`
}

// ExportMessage is one message in an ExportDoc.
type ExportMessage struct {
	ID           string           `json:"id"`
	Seq          int              `json:"seq"`
	Role         string           `json:"role"`
	Text         string           `json:"text"`
	Status       string           `json:"status"`
	Error        string           `json:"error"`
	Model        string           `json:"model"`
	InputTokens  int              `json:"inputTokens"`
	OutputTokens int              `json:"outputTokens"`
	CreatedAt    time.Time        `json:"createdAt"`
	ToolCalls    []ExportToolCall `json:"toolCalls"` // [] when none
}

// ExportToolCall is one tool call in an ExportDoc.
type ExportToolCall struct {
	ID         string          `json:"id"`
	Server     string          `json:"server"`
	Tool       string          `json:"tool"`
	Arguments  json.RawMessage `json:"arguments"` // null when unset
	Result     json.RawMessage `json:"result"`    // MCP CallToolResult; null until the call ended
	IsError    bool            `json:"isError"`
	Status     string          `json:"status"`
	StartedAt  *time.Time      `json:"startedAt"` // null when unknown
	DurationMs int64           `json:"durationMs"`
}

// Export writes the chat with id chatID to w in format f.
func (s *Store) Export(ctx context.Context, chatID string, f Format, w io.Writer) error {
	if f != FormatMarkdown && f != FormatJSON {
		return fmt.Errorf("export chat %q: format %q: %w (use markdown or json)", chatID, f, ErrInvalid)
	}
	c, err := s.Chat(ctx, chatID)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	msgs, err := s.Messages(ctx, chatID)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if f == FormatJSON {
		err = writeJSON(w, c, msgs)
	} else {
		err = writeMarkdown(w, c, msgs, s.loc)
	}
	if err != nil {
		return fmt.Errorf("export chat %q: %w", chatID, err)
	}
	return nil
}

func writeJSON(w io.Writer, c Chat, msgs []Message) error {
	doc := ExportDoc{
		Format: "switchboard.chat", Version: ExportVersion,
		Chat: ExportChat{
			ID: c.ID, Title: c.Title, Provider: c.Provider, Model: c.Model, Agent: c.Agent,
			Settings: c.Settings, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt,
		},
		Messages: make([]ExportMessage, 0, len(msgs)),
	}
	for _, m := range msgs {
		em := ExportMessage{
			ID: m.ID, Seq: m.Seq, Role: m.Role, Text: m.Text, Status: m.Status, Error: m.Error, Model: m.Model,
			InputTokens: m.InputTokens, OutputTokens: m.OutputTokens, CreatedAt: m.CreatedAt,
			ToolCalls: make([]ExportToolCall, 0, len(m.ToolCalls)),
		}
		for _, tc := range m.ToolCalls {
			et := ExportToolCall{
				ID: tc.ID, Server: tc.Server, Tool: tc.Tool, Arguments: tc.Arguments, Result: tc.Result,
				IsError: tc.IsError, Status: tc.Status, DurationMs: tc.DurationMs,
			}
			if !tc.StartedAt.IsZero() {
				t := tc.StartedAt
				et.StartedAt = &t
			}
			em.ToolCalls = append(em.ToolCalls, et)
		}
		doc.Messages = append(doc.Messages, em)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // the text is Markdown; keep < > & readable
	return enc.Encode(doc)
}

// mdTime is how Markdown exports show times.
const mdTime = "2006-01-02 15:04:05 MST"

func writeMarkdown(w io.Writer, c Chat, msgs []Message, loc *time.Location) error {
	b := bufio.NewWriter(w)
	title := c.Title
	if strings.TrimSpace(title) == "" {
		title = "Untitled chat"
	}
	fmt.Fprintf(b, "# %s\n\n", htmlEscape(oneLine(title)))
	var meta []string
	if c.Provider != "" || c.Model != "" {
		meta = append(meta, "Model: "+strings.Trim(c.Provider+" / "+c.Model, " /"))
	}
	if c.Agent != "" {
		meta = append(meta, "Agent: "+c.Agent)
	}
	meta = append(meta, "Started: "+c.CreatedAt.In(loc).Format(mdTime))
	fmt.Fprintf(b, "_%s_\n", strings.Join(meta, " · "))
	for _, m := range msgs {
		role := roleTitle(m.Role)
		if m.Model != "" && m.Role == RoleAssistant {
			role += " (" + m.Model + ")"
		}
		fmt.Fprintf(b, "\n## %s · %s\n\n", role, m.CreatedAt.In(loc).Format(mdTime))
		if m.Status != StatusComplete {
			note := "_Status: " + m.Status + "_"
			if m.Error != "" {
				note = "> **" + m.Status + ":** " + oneLine(m.Error)
			}
			fmt.Fprintf(b, "%s\n\n", note)
		}
		if strings.TrimSpace(m.Text) != "" {
			fmt.Fprintf(b, "%s\n", strings.TrimRight(m.Text, "\n"))
		}
		for _, tc := range m.ToolCalls {
			writeMarkdownCall(b, tc)
		}
	}
	return b.Flush()
}

func roleTitle(role string) string {
	switch role {
	case RoleUser:
		return "User"
	case RoleAssistant:
		return "Assistant"
	case RoleSystem:
		return "System"
	case RoleSummary:
		return "Summary of the messages above (what the model read instead of them)"
	}
	return role
}

// writeMarkdownCall renders a tool call as a <details> block: collapsed in
// renderers that know it (GitHub, most editors), plain text elsewhere.
func writeMarkdownCall(b *bufio.Writer, tc ToolCall) {
	summary := "Tool call: " + tc.Tool
	if tc.Server != "" && !strings.HasPrefix(tc.Tool, tc.Server+"__") {
		summary += " on " + tc.Server
	}
	summary += " — " + tc.Status
	if tc.DurationMs > 0 {
		summary += fmt.Sprintf(", %d ms", tc.DurationMs)
	}
	fmt.Fprintf(b, "\n<details>\n<summary>%s</summary>\n\n", htmlEscape(summary))
	fmt.Fprintf(b, "Arguments:\n\n%s\n", fence("json", prettyJSON(tc.Arguments)))
	switch {
	case len(tc.Result) == 0:
		fmt.Fprintf(b, "\nNo result.\n")
	case tc.IsError:
		fmt.Fprintf(b, "\nResult (error):\n\n%s\n", fence("", resultText(tc.Result)))
	default:
		fmt.Fprintf(b, "\nResult:\n\n%s\n", fence("", resultText(tc.Result)))
	}
	fmt.Fprintf(b, "\n</details>\n")
}

// callResult is the part of an MCP CallToolResult an export shows.
type callResult struct {
	Content []struct {
		Type     string `json:"type"`
		Text     string `json:"text"`
		MimeType string `json:"mimeType"`
		Data     string `json:"data"`
		URI      string `json:"uri"`
		Name     string `json:"name"`
		Resource *struct {
			URI      string `json:"uri"`
			MimeType string `json:"mimeType"`
			Text     string `json:"text"`
			Blob     string `json:"blob"`
		} `json:"resource"`
	} `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent"`
}

// resultText is a tool result as text: its text parts, a note for each
// binary part, or the structured content when there is nothing else.
func resultText(raw json.RawMessage) string {
	var r callResult
	if err := json.Unmarshal(raw, &r); err != nil || (r.Content == nil && r.StructuredContent == nil) {
		return prettyJSON(raw) // not a CallToolResult: show what was stored
	}
	var parts []string
	for _, c := range r.Content {
		switch c.Type {
		case "text":
			parts = append(parts, c.Text)
		case "image", "audio":
			parts = append(parts, fmt.Sprintf("[%s %s, %d bytes base64]", c.Type, c.MimeType, len(c.Data)))
		case "resource_link":
			parts = append(parts, fmt.Sprintf("[link %s: %s]", c.Name, c.URI))
		case "resource":
			if c.Resource == nil {
				continue
			}
			if c.Resource.Text != "" {
				parts = append(parts, fmt.Sprintf("[resource %s]\n%s", c.Resource.URI, c.Resource.Text))
			} else {
				parts = append(parts, fmt.Sprintf("[resource %s %s, %d bytes base64]", c.Resource.URI, c.Resource.MimeType, len(c.Resource.Blob)))
			}
		default:
			parts = append(parts, "["+c.Type+" content]")
		}
	}
	if len(parts) == 0 && len(r.StructuredContent) > 0 {
		return prettyJSON(r.StructuredContent)
	}
	return strings.Join(parts, "\n")
}

// prettyJSON indents valid JSON; anything else is returned as it is.
func prettyJSON(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "null"
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, raw, "", "  "); err != nil {
		return string(raw)
	}
	return buf.String()
}

// fence wraps text in a code fence longer than any backtick run inside it,
// so tool output cannot end the block early.
func fence(lang, text string) string {
	longest, run := 0, 0
	for _, r := range text {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	f := strings.Repeat("`", max(3, longest+1))
	return f + lang + "\n" + strings.TrimRight(text, "\n") + "\n" + f
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

var htmlReplacer = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// htmlEscape keeps a title or summary line from opening HTML tags in the export.
func htmlEscape(s string) string { return htmlReplacer.Replace(s) }
