package chat_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/mcpmanager"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// everything starts the pinned @modelcontextprotocol/server-everything
// (mcpmanager/testdata/npm, installed by make test) and returns the
// router serving it as server "everything".
func everything(t *testing.T) *router.Router {
	t.Helper()
	return serving(t, "everything", proctest.NPM(t, "mcp-server-everything"))
}

// serving runs command as the stdio server name until the test ends and
// returns the router serving it, once it has started (or failed).
func serving(t *testing.T, name, command string) *router.Router {
	t.Helper()
	m := mcpmanager.New(mcpmanager.Options{})
	m.Apply([]mcpmanager.ServerConfig{{Name: name, Command: command}})
	t.Cleanup(func() { m.Close(context.Background()) })
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	m.WaitSettled(ctx)
	return m.Router()
}

// TestToolImagesReachTheModel: the image server-everything's get-tiny-image
// returns is in the next model request as an image in each wire format —
// Anthropic: an image block inside the tool_result; OpenAI-compatible: the
// tool message keeps the text and a user message with the image part
// follows; Ollama (its native /api/chat): the tool message's images field
// — and, for a model that takes no images, only its description.
func TestToolImagesReachTheModel(t *testing.T) {
	reg := everything(t)
	direct, err := reg.Call(t.Context(), "everything", "get-tiny-image", nil, router.CallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tiny, _ := mcptest.Content[mcp.ImageContent](direct)
	if tiny.Data == "" || tiny.MIMEType != "image/png" {
		t.Fatalf("get-tiny-image returned no PNG: %+v", direct.Content)
	}

	for _, tc := range []struct {
		kind   provider.Kind
		images bool
		check  func(t *testing.T, body []byte)
	}{
		{provider.KindAnthropic, true, func(t *testing.T, body []byte) {
			var req struct {
				Messages []struct {
					Role    string `json:"role"`
					Content []struct {
						Type    string `json:"type"`
						Content []struct {
							Type   string `json:"type"`
							Text   string `json:"text"`
							Source struct {
								Type      string `json:"type"`
								MediaType string `json:"media_type"`
								Data      string `json:"data"`
							} `json:"source"`
						} `json:"content"`
					} `json:"content"`
				} `json:"messages"`
			}
			mustJSON(t, body, &req)
			last := req.Messages[len(req.Messages)-1]
			if last.Role != "user" || len(last.Content) != 1 || last.Content[0].Type != "tool_result" {
				t.Fatalf("last message is not the tool result: %s", body)
			}
			var text bool
			var img int
			for _, b := range last.Content[0].Content {
				switch {
				case b.Type == "text" && strings.Contains(b.Text, "Here's the image you requested"):
					text = true
				case b.Type == "image" && b.Source.Type == "base64" && b.Source.MediaType == "image/png" && b.Source.Data == tiny.Data:
					img++
				}
			}
			if !text || img != 1 {
				t.Errorf("tool_result has text %v, %d images of get-tiny-image; want the text and one: %s", text, img, body)
			}
		}},
		{provider.KindOpenAI, true, openAIImageCheck(tiny)},
		{provider.KindOllama, true, func(t *testing.T, body []byte) {
			var req struct {
				Messages []struct {
					Role       string   `json:"role"`
					Content    string   `json:"content"`
					Images     []string `json:"images"`
					ToolCallID string   `json:"tool_call_id"`
				} `json:"messages"`
			}
			mustJSON(t, body, &req)
			last := req.Messages[len(req.Messages)-1]
			if last.Role != "tool" || last.ToolCallID != "c1" {
				t.Fatalf("last message is not the tool result: %s", body)
			}
			if !strings.Contains(last.Content, "Here's the image you requested") || strings.Contains(last.Content, tiny.Data) {
				t.Errorf("tool message content: %q", last.Content)
			}
			// Plain base64, as Ollama's images field takes it.
			if len(last.Images) != 1 || last.Images[0] != tiny.Data {
				t.Errorf("tool message images %q, want get-tiny-image's base64: %s", last.Images, body)
			}
		}},
		{provider.KindOpenAI, false, func(t *testing.T, body []byte) {
			if strings.Contains(string(body), tiny.Data) || !strings.Contains(string(body), "[image image/png") {
				t.Errorf("a model without images got the image, or no description of it: %s", body)
			}
		}},
	} {
		name := string(tc.kind)
		if !tc.images {
			name += " without images"
		}
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, tc.kind, nil)
			f.eng.SetTools(reg)
			f.llm.Enqueue(
				providertest.Reply{ToolCalls: []providertest.ToolCall{call("c1", "everything__get-tiny-image", `{}`)}},
				providertest.Reply{Text: "A tiny logo."},
			)
			if _, err := f.send(t.Context(), "Show me the tiny image", func(turn *chat.Turn) { turn.Images = tc.images }); err != nil {
				t.Fatal(err)
			}
			reqs := f.llm.Requests()
			if len(reqs) != 2 {
				t.Fatalf("%d model requests, want 2", len(reqs))
			}
			tc.check(t, reqs[1])
		})
	}
}

// openAIImageCheck: the tool message keeps the text, and the next message
// is a user message carrying the image as a data: URL part.
func openAIImageCheck(tiny mcp.ImageContent) func(t *testing.T, body []byte) {
	return func(t *testing.T, body []byte) {
		var req struct {
			Messages []struct {
				Role       string          `json:"role"`
				ToolCallID string          `json:"tool_call_id"`
				Content    json.RawMessage `json:"content"`
			} `json:"messages"`
		}
		mustJSON(t, body, &req)
		n := len(req.Messages)
		if n < 2 || req.Messages[n-2].Role != "tool" || req.Messages[n-1].Role != "user" {
			t.Fatalf("want a tool message then a user message last: %s", body)
		}
		var toolText string
		if json.Unmarshal(req.Messages[n-2].Content, &toolText) != nil || !strings.Contains(toolText, "Here's the image you requested") || strings.Contains(toolText, tiny.Data) {
			t.Errorf("tool message content: %s", req.Messages[n-2].Content)
		}
		var parts []struct {
			Type     string `json:"type"`
			ImageURL struct {
				URL string `json:"url"`
			} `json:"image_url"`
		}
		mustJSON(t, req.Messages[n-1].Content, &parts)
		var found bool
		for _, p := range parts {
			found = found || p.Type == "image_url" && p.ImageURL.URL == "data:image/png;base64,"+tiny.Data
		}
		if !found {
			t.Errorf("the user message after the tool result has no image part with get-tiny-image: %s", req.Messages[n-1].Content)
		}
	}
}

func mustJSON(t *testing.T, raw []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
}
