// Command seedchat writes a chat of N messages into a Switchboard history
// database through the history package, so tests (the long-chat e2e) can open
// a chat far longer than they could type. It prints the new chat's id.
//
//	go run ./app/history/testdata/seedchat -db DATA_DIR/history.db -title "Long chat" -messages 1000
//
// Messages alternate user and assistant; message i's text starts "Message i "
// so a test can find the first and last; every tenth assistant message made a
// tool call.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"strings"
	"time"

	"github.com/switchboard-app/switchboard/app/history"
)

func main() {
	db := flag.String("db", "", "the history database (DATA_DIR/history.db)")
	title := flag.String("title", "Seeded chat", "the chat's title")
	n := flag.Int("messages", 1000, "how many messages")
	flag.Parse()
	if *db == "" {
		log.Fatal("seedchat: -db is required")
	}
	ctx := context.Background()
	s, err := history.Open(ctx, *db)
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	c, err := s.CreateChat(ctx, history.Chat{Title: *title, Provider: "Fake", Model: "fake-model"})
	if err != nil {
		log.Fatal(err)
	}
	for i := 1; i <= *n; i++ {
		m := history.Message{ChatID: c.ID, Role: history.RoleUser, Text: fmt.Sprintf("Message %d of %s: a question.", i, *title)}
		if i%2 == 0 {
			m.Role, m.Model = history.RoleAssistant, "fake-model"
			// Lengths vary so the rows do: one to six paragraphs, some with a list.
			var b strings.Builder
			fmt.Fprintf(&b, "Message %d of %s: **an answer**.", i, *title)
			for p := 0; p < i%6; p++ {
				fmt.Fprintf(&b, "\n\nParagraph %d of the answer, long enough to wrap on a narrow window when it is shown in the chat.", p+1)
			}
			if i%4 == 0 {
				b.WriteString("\n\n- one\n- two\n- three")
			}
			m.Text, m.InputTokens, m.OutputTokens = b.String(), 100+i, 20+i%50
			if i%20 == 0 {
				m.ToolCalls = []history.ToolCall{{
					ID: fmt.Sprintf("call_%d", i), Server: "everything", Tool: "everything__echo",
					Arguments: json.RawMessage(`{"message":"hi"}`), Result: json.RawMessage(`{"content":[{"type":"text","text":"Echo: hi"}]}`),
					Status: history.CallDone, StartedAt: time.Now(), DurationMs: 3,
				}}
			}
		}
		if _, err := s.AppendMessage(ctx, m); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Println(c.ID)
}
