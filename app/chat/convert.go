package chat

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/history"
)

// toProvider turns stored messages into the conversation the model sees.
// Failed assistant messages with nothing in them are left out, and user
// messages that end up adjacent are joined, because providers want user and
// assistant turns to alternate. Each tool call becomes a tool message with its
// (truncated) result; a call that never finished says so. With images, the
// images tools returned go to the model as images (see toolMessage).
func toProvider(past []history.Message, budget int, images bool) []provider.Message {
	var out []provider.Message
	for _, m := range past {
		switch m.Role {
		case "user":
			if n := len(out); n > 0 && out[n-1].Role == provider.RoleUser {
				out[n-1].Text += "\n\n" + m.Text
				continue
			}
			out = append(out, provider.Message{Role: provider.RoleUser, Text: m.Text})
		case "assistant":
			if m.Text == "" && len(m.ToolCalls) == 0 {
				continue
			}
			am := provider.Message{Role: provider.RoleAssistant, Text: m.Text}
			for _, c := range m.ToolCalls {
				am.ToolCalls = append(am.ToolCalls, provider.ToolCall{ID: c.ID, Name: c.Tool, Arguments: c.Arguments})
			}
			out = append(out, am)
			for _, c := range m.ToolCalls {
				out = append(out, toolMessage(c, budget, images))
			}
		}
	}
	return out
}

// toolMessage is the model's view of one stored tool call. With images
// (the model accepts them), each image of the result goes with the message,
// scaled down to MaxImageSide / MaxImageBytes, and its line in the text
// says so; an image that cannot be sent keeps its description.
func toolMessage(c history.ToolCall, budget int, images bool) provider.Message {
	msg := provider.Message{Role: provider.RoleTool, ToolCallID: c.ID, ToolName: c.Tool, IsError: c.IsError}
	var res mcp.CallToolResult
	if len(c.Result) == 0 {
		msg.Text, msg.IsError = "The call did not complete (the app stopped while it ran).", true
		return msg
	}
	if err := json.Unmarshal(c.Result, &res); err != nil {
		msg.Text = string(c.Result)
	} else {
		if images {
			msg.Images = attachImages(&res)
		}
		msg.Text = resultText(&res)
	}
	msg.Text = truncate(msg.Text, budget)
	return msg
}

// attachImages returns the images of res that can go to the model and
// replaces each of them in res.Content by a line saying it was attached.
func attachImages(res *mcp.CallToolResult) []provider.Image {
	var out []provider.Image
	res.Content = slices.Clone(res.Content) // the caller's slice stays as it was
	for i, c := range res.Content {
		ic, ok := c.(mcp.ImageContent)
		if !ok {
			continue
		}
		img, err := modelImage(ic)
		if err != nil {
			continue // described in text, as without images
		}
		out = append(out, img)
		res.Content[i] = mcp.NewTextContent(fmt.Sprintf("[image %d: %s, attached]", len(out), img.MIMEType))
	}
	return out
}
