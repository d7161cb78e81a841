package chat

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/chat/provider"
)

// OfferedTool is a tool a server's sampling request offers the model, as
// the approval card lists it.
type OfferedTool struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

// offeredTools lists the tools of a sampling request.
func offeredTools(p mcp.CreateMessageParams) []OfferedTool {
	out := make([]OfferedTool, 0, len(p.Tools))
	for _, t := range p.Tools {
		out = append(out, OfferedTool{Name: t.Name, Description: t.Description})
	}
	return out
}

// samplingRequest turns a server's sampling request into a model request.
// With tools (sampling with tools, 2025-11-25) the exchange so far maps
// onto the provider's tool calls: an assistant message's tool_use blocks
// are its tool calls, a user message's tool_result blocks are tool results
// (their images and audio as such when the model takes them), and toolChoice says
// whether the model must, may or must not call one.
func samplingRequest(m Model, p mcp.CreateMessageParams) (provider.Request, error) {
	// The server's stop sequences are part of what it asked for (the
	// approval card shows them): a model that runs past one answers what
	// the server meant to cut off.
	pr := provider.Request{Model: m.Name, System: p.SystemPrompt, MaxTokens: p.MaxTokens, Stop: p.StopSequences}
	if p.Temperature != 0 {
		t := p.Temperature
		pr.Temperature = &t
	}
	for _, t := range p.Tools {
		raw, err := json.Marshal(t)
		if err != nil {
			return pr, fmt.Errorf("sampling tool %q: %w", t.Name, err)
		}
		var v struct {
			InputSchema json.RawMessage `json:"inputSchema"`
		}
		_ = json.Unmarshal(raw, &v)
		pr.Tools = append(pr.Tools, provider.Tool{Name: t.Name, Description: t.Description, InputSchema: v.InputSchema})
	}
	if p.ToolChoice != nil && len(p.Tools) > 0 {
		switch p.ToolChoice.Mode {
		case mcp.ToolChoiceModeRequired:
			pr.ToolChoice = provider.ToolChoiceRequired
		case mcp.ToolChoiceModeNone:
			pr.ToolChoice = provider.ToolChoiceNone
		case mcp.ToolChoiceModeAuto, "":
			pr.ToolChoice = provider.ToolChoiceAuto
		default:
			return pr, fmt.Errorf("sampling toolChoice mode %q: use auto, required or none", p.ToolChoice.Mode)
		}
	}
	names := map[string]string{} // tool_use id → tool name, for the results
	for i, sm := range p.Messages {
		blocks, err := contentBlocks(sm.Content)
		if err != nil {
			return pr, fmt.Errorf("sampling message %d: %w", i, err)
		}
		var texts []string
		if sm.Role == mcp.RoleAssistant {
			am := provider.Message{Role: provider.RoleAssistant}
			for _, b := range blocks {
				if c, ok := b.(mcp.ToolUseContent); ok {
					args, err := json.Marshal(c.Input)
					if err != nil || c.Input == nil {
						args = json.RawMessage(`{}`)
					}
					am.ToolCalls = append(am.ToolCalls, provider.ToolCall{ID: c.ID, Name: c.Name, Arguments: args})
					names[c.ID] = c.Name
					continue
				}
				texts = append(texts, samplingText(b))
			}
			am.Text = strings.Join(texts, "\n")
			pr.Messages = append(pr.Messages, am)
			continue
		}
		um := provider.Message{Role: provider.RoleUser}
		for _, b := range blocks {
			switch c := b.(type) {
			case mcp.ToolResultContent:
				if c.ToolUseID == "" {
					return pr, fmt.Errorf("sampling message %d: a tool_result without toolUseId", i)
				}
				res := mcp.CallToolResult{Content: c.Content, StructuredContent: c.StructuredContent}
				tm := provider.Message{Role: provider.RoleTool, ToolCallID: c.ToolUseID, ToolName: names[c.ToolUseID], IsError: c.IsError}
				tm.Images, tm.Audio = attach(&res, m.media())
				tm.Text = resultText(&res)
				pr.Messages = append(pr.Messages, tm)
			case mcp.ImageContent:
				if img, err := modelImage(c); err == nil && m.Images {
					um.Images = append(um.Images, img)
					continue
				}
				texts = append(texts, samplingText(b))
			case mcp.AudioContent:
				if a, err := modelAudio(c); err == nil && m.Audio {
					um.Audio = append(um.Audio, a)
					continue
				}
				texts = append(texts, samplingText(b))
			default:
				texts = append(texts, samplingText(b))
			}
		}
		if um.Text = strings.Join(texts, "\n"); um.Text != "" || len(um.Images) > 0 || len(um.Audio) > 0 {
			pr.Messages = append(pr.Messages, um)
		}
	}
	return pr, nil
}

// contentBlocks is a sampling message's content (one block or a list,
// typed by mcp-go or still generic JSON) as typed blocks.
func contentBlocks(c any) ([]any, error) {
	switch v := c.(type) {
	case nil:
		return nil, nil
	case []mcp.Content:
		out := make([]any, len(v))
		for i, b := range v {
			out[i] = b
		}
		return out, nil
	case []any:
		var out []any
		for _, b := range v {
			bs, err := contentBlocks(b)
			if err != nil {
				return nil, err
			}
			out = append(out, bs...)
		}
		return out, nil
	case map[string]any:
		b, err := mcp.ParseContent(v)
		if err != nil {
			return nil, err
		}
		return []any{b}, nil
	}
	return []any{c}, nil
}

// samplingResult is the model's answer as a sampling result: its text,
// or, when it called tools, its text and one tool_use block per call with
// stopReason "toolUse" (the server runs the tools and asks again).
func samplingResult(model string, resp provider.Response) *mcp.CreateMessageResult {
	res := &mcp.CreateMessageResult{Model: model, StopReason: "endTurn"}
	res.Role = mcp.RoleAssistant
	switch resp.Stop {
	case provider.StopMaxTokens:
		res.StopReason = "maxTokens"
	case provider.StopSequence:
		res.StopReason = "stopSequence"
	}
	if len(resp.ToolCalls) == 0 {
		res.Content = mcp.NewTextContent(resp.Text)
		return res
	}
	var content []mcp.Content
	if resp.Text != "" {
		content = append(content, mcp.NewTextContent(resp.Text))
	}
	for i, c := range resp.ToolCalls {
		var input map[string]any
		if json.Unmarshal(c.Arguments, &input) != nil || input == nil {
			input = map[string]any{} // the server's tool answers bad arguments
		}
		id := c.ID
		if id == "" {
			id = fmt.Sprintf("toolu_%d_%s", i, newID()) // the server matches its result by id
		}
		content = append(content, mcp.NewToolUseContent(id, c.Name, input))
	}
	res.Content, res.StopReason = content, "toolUse"
	return res
}
