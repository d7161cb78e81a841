package chat

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/history"
)

// LostResult is what the model reads of a call stored without its result:
// the app stopped (a crash, a kill) before the result was written. Results
// are held until the next step's write (one durable write a step, see the
// package doc), so the call may well have finished and taken effect — a
// file written, a message sent — with only its result lost; told that it
// did not complete, a model would run a side effect again unchecked.
const LostResult = "The app stopped before this call's result was saved. The call may have run and taken effect (a file written, a message sent); check before calling it again."

// toolMessage is the model's view of one stored tool call. With md.images
// (the model accepts them), each image of the result goes with the message,
// scaled down to MaxImageSide / MaxImageBytes, and its line in the text
// says so; with md.audio, each WAV or MP3 clip up to MaxAudioBytes goes the
// same way. An image or clip that cannot be sent keeps its description.
func toolMessage(c history.ToolCall, budget int, md media) provider.Message {
	msg := provider.Message{Role: provider.RoleTool, ToolCallID: c.ID, ToolName: c.Tool, IsError: c.IsError}
	var res mcp.CallToolResult
	if len(c.Result) == 0 {
		msg.Text, msg.IsError = LostResult, true
		return msg
	}
	if err := json.Unmarshal(c.Result, &res); err != nil {
		msg.Text = truncate(string(c.Result), budget)
		return msg
	}
	msg.Images, msg.Audio = attach(&res, md)
	msg.Text = resultText(&res)
	if k, ok := KeptOf(c.Result); ok && !fitsBudget(msg.Text, budget) {
		msg.Text = cappedText(msg.Text, budget, k)
		return msg
	}
	msg.Text = truncate(msg.Text, budget)
	return msg
}

// attach returns the images (with md.images: image content, and embedded
// blob resources of an image type) and audio (with md.audio) of res that
// can go to the model and replaces each of them in res.Content by a line
// saying it was attached.
func attach(res *mcp.CallToolResult, md media) ([]provider.Image, []provider.Audio) {
	if !md.images && !md.audio {
		return nil, nil
	}
	var imgs []provider.Image
	var clips []provider.Audio
	res.Content = slices.Clone(res.Content) // the caller's slice stays as it was
	for i, c := range res.Content {
		if ic, uri, ok := resourceImage(c); ok && md.images {
			if img, err := modelImage(ic); err == nil {
				imgs = append(imgs, img)
				res.Content[i] = mcp.NewTextContent(fmt.Sprintf("[resource %s: image %d: %s, attached]", uri, len(imgs), img.MIMEType))
			}
			continue // else described in text, as without images
		}
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
