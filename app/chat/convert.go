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
// (truncated) result; a call that never finished says so. The images and
// audio tools returned go to the model as such when md says it takes them
// (see toolMessage).
func toProvider(past []history.Message, budget int, md media) []provider.Message {
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
				out = append(out, toolMessage(c, budget, md))
			}
		}
	}
	return out
}

// toolMessage is the model's view of one stored tool call. With md.images
// (the model accepts them), each image of the result goes with the message,
// scaled down to MaxImageSide / MaxImageBytes, and its line in the text
// says so; with md.audio, each WAV or MP3 clip up to MaxAudioBytes goes the
// same way. An image or clip that cannot be sent keeps its description.
func toolMessage(c history.ToolCall, budget int, md media) provider.Message {
	msg := provider.Message{Role: provider.RoleTool, ToolCallID: c.ID, ToolName: c.Tool, IsError: c.IsError}
	var res mcp.CallToolResult
	if len(c.Result) == 0 {
		msg.Text, msg.IsError = "The call did not complete (the app stopped while it ran).", true
		return msg
	}
	if err := json.Unmarshal(c.Result, &res); err != nil {
		msg.Text = string(c.Result)
	} else {
		msg.Images, msg.Audio = attach(&res, md)
		msg.Text = resultText(&res)
	}
	msg.Text = truncate(msg.Text, budget)
	return msg
}

// attach returns the images (with md.images) and audio (with md.audio) of
// res that can go to the model and replaces each of them in res.Content by
// a line saying it was attached.
func attach(res *mcp.CallToolResult, md media) ([]provider.Image, []provider.Audio) {
	if !md.images && !md.audio {
		return nil, nil
	}
	var imgs []provider.Image
	var clips []provider.Audio
	res.Content = slices.Clone(res.Content) // the caller's slice stays as it was
	for i, c := range res.Content {
		switch c := c.(type) {
		case mcp.ImageContent:
			if !md.images {
				continue
			}
			img, err := modelImage(c)
			if err != nil {
				continue // described in text, as without images
			}
			imgs = append(imgs, img)
			res.Content[i] = mcp.NewTextContent(fmt.Sprintf("[image %d: %s, attached]", len(imgs), img.MIMEType))
		case mcp.AudioContent:
			if !md.audio {
				continue
			}
			a, err := modelAudio(c)
			if err != nil {
				continue // described in text, as without audio
			}
			clips = append(clips, a)
			res.Content[i] = mcp.NewTextContent(fmt.Sprintf("[audio %d: %s, attached]", len(clips), a.Format))
		}
	}
	return imgs, clips
}
