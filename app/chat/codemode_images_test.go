package chat_test

import (
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// TestAScriptsImageReachesTheModelAsAnImage: a script that returns what
// server-everything's get-tiny-image gave it reaches the model as a direct
// call's image does — the tool message's text without the base64, then
// the image as an image part — not as 5,000 characters of base64.
func TestAScriptsImageReachesTheModelAsAnImage(t *testing.T) {
	reg := everything(t)
	direct, err := reg.Call(t.Context(), "everything", "get-tiny-image", nil, router.CallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tiny, _ := mcptest.Content[mcp.ImageContent](direct)
	f := newFixture(t, provider.KindOpenAI, nil)
	f.eng.SetTools(reg)
	f.llm.Enqueue(
		providertest.Reply{ToolCalls: []providertest.ToolCall{script("s1", `const img = await tools.everything["get-tiny-image"]({}); return img;`)}},
		providertest.Reply{Text: "A tiny logo."},
	)
	if _, err := f.send(t.Context(), "Show me the tiny image", func(turn *chat.Turn) { turn.Tools = chat.ToolsCode; turn.Images = true }); err != nil {
		t.Fatal(err)
	}
	reqs := f.llm.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2", len(reqs))
	}
	openAIImageCheck(tiny)(t, reqs[1])
}
