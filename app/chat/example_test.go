package chat_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/app/history"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// notes is a one-tool toolbox. Anything with Tools and Call serves as the
// engine's tools; the app passes the router of every running server.
type notes struct{}

func (notes) Tools(context.Context) ([]router.Tool, []router.ServerError) {
	t := router.Tool{Name: "files__read", Server: "files"}
	t.Tool = mcp.NewTool("read", mcp.WithDescription("read a note"), mcp.WithReadOnlyHintAnnotation(true), mcp.WithString("path"))
	return []router.Tool{t}, nil
}

func (notes) Call(_ context.Context, server, tool string, args map[string]any, _ router.CallOptions) (*mcp.CallToolResult, error) {
	return mcp.NewToolResultText(fmt.Sprintf("%s of %s on %s: buy milk", tool, args["path"], server)), nil
}

// A turn: the model asks for a tool, the engine decides (a read-only tool
// runs without asking), runs it, gives the result back and stores every
// message as it completes: the user's, the model's with its tool call and
// result, and the answer.
func Example() {
	ctx := context.Background()
	llm, _ := providertest.New("") // a local server speaking OpenAI's wire format
	defer llm.Close()
	llm.Enqueue(
		providertest.Reply{ToolCalls: []providertest.ToolCall{{ID: "c1", Name: "files__read", Arguments: `{"path":"notes.md"}`}}},
		providertest.Reply{Text: "It says: buy milk."},
	)
	dir, _ := os.MkdirTemp("", "chat-example")
	defer os.RemoveAll(dir)
	hist, _ := history.Open(ctx, filepath.Join(dir, "history.db"))
	defer hist.Close()
	c, _ := hist.CreateChat(ctx, history.Chat{Title: "Notes"})
	p, _ := provider.New(provider.Config{Kind: provider.KindOpenAI, Name: "local", BaseURL: llm.URL(provider.KindOpenAI)})

	eng := chat.New(chat.Options{Tools: notes{}, History: hist, Approver: chat.ApproveAll{}, DefaultPolicy: chat.DefaultPolicy})
	res, err := eng.Send(ctx, chat.Turn{ChatID: c.ID, Provider: p, Model: "fake-model", Text: "What is in notes.md?", MaxSteps: 5})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, tc := range res.ToolCalls {
		fmt.Println(tc.Tool, tc.Status)
	}
	fmt.Println(res.Message.Text)
	msgs, _ := hist.Messages(ctx, c.ID)
	fmt.Println(len(msgs), "messages stored")
	// Output:
	// files__read done
	// It says: buy milk.
	// 3 messages stored
}
