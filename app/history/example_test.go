package history_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/switchboard-app/switchboard/app/history"
)

// A turn as the chat engine stores it: the user's message, the answer
// saved incomplete before its tool call runs (so a crash keeps both), the
// tool call, then the answer completed; searched with the last word as a
// prefix and exported.
func Example() {
	dir, _ := os.MkdirTemp("", "history")
	defer os.RemoveAll(dir)
	ctx := context.Background()

	st, err := history.Open(ctx, filepath.Join(dir, "history.db"))
	if err != nil {
		log.Fatal(err) // one sentence saying what to do
	}
	defer st.Close()
	c, _ := st.CreateChat(ctx, history.Chat{Title: "Trip plan", Provider: "openai", Model: "gpt-4o"})
	st.AppendMessage(ctx, history.Message{ChatID: c.ID, Role: "user", Text: "Find hotels in Lyon"})
	a, _ := st.AppendMessage(ctx, history.Message{ChatID: c.ID, Role: "assistant", Status: "incomplete"})
	if err := st.SaveToolCall(ctx, history.ToolCall{MessageID: a.ID, ID: "call_1", Server: "web", Tool: "web__search", Status: "running"}); err != nil {
		log.Fatal(err)
	}
	a.Text, a.Status = "Here are three hotels near the station.", "complete"
	if err := st.UpdateMessage(ctx, a); err != nil {
		log.Fatal(err)
	}

	hits, _ := st.Search(ctx, "lyon hot", 20)
	for _, h := range hits {
		fmt.Println(h.Title, "|", h.Snippet)
	}
	msgs, _ := st.Messages(ctx, c.ID)
	for _, m := range msgs {
		fmt.Println(m.Role, m.Status, len(m.ToolCalls))
	}
	var md strings.Builder
	if err := st.Export(ctx, c.ID, history.FormatMarkdown, &md); err != nil {
		log.Fatal(err)
	}
	fmt.Println(strings.SplitN(md.String(), "\n", 2)[0])
	// Output:
	// Trip plan | Find <mark>hotels</mark> in <mark>Lyon</mark>
	// user complete 0
	// assistant complete 1
	// # Trip plan
}
