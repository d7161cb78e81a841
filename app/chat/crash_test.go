package chat_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/app/history"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
)

// The chat crash test runs this test binary again as a child that chats;
// these variables tell it where.
const (
	chatCrashDB   = "CHAT_CRASH_CHILD_DB"
	chatCrashLLM  = "CHAT_CRASH_CHILD_LLM"
	chatCrashChat = "CHAT_CRASH_CHILD_CHAT"
	chatCrashDone = 3 // completed turns before the kill
)

// TestChatSurvivesKill9 SIGKILLs a process in the middle of a streaming
// turn and checks that every completed answer, and the user message of the
// turn in flight, are in the history afterwards, with the cut answer not
// marked complete.
func TestChatSurvivesKill9(t *testing.T) {
	if path := os.Getenv(chatCrashDB); path != "" {
		chatCrashChild(t, path, os.Getenv(chatCrashLLM), os.Getenv(chatCrashChat))
		return
	}
	llm := providertest.NewServer(t)
	for i := range chatCrashDone {
		llm.Enqueue(providertest.Reply{Text: fmt.Sprintf("answer number %d", i)})
	}
	// The turn in flight: its first words arrive at once, the rest never before the kill.
	llm.Enqueue(providertest.Reply{Text: "partial answer " + strings.Repeat("word ", 200), Delay: time.Minute})

	path := filepath.Join(t.TempDir(), "history.db")
	h, err := history.Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	c, err := h.CreateChat(t.Context(), history.Chat{Title: "crash"})
	if err != nil {
		t.Fatal(err)
	}
	h.Close()

	cmd, out := proctest.Rerun(t, chatCrashDB+"="+path, chatCrashLLM+"="+llm.URL(provider.KindOpenAI), chatCrashChat+"="+c.ID)
	var done []string
	killed := false
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		line := sc.Text()
		if id, ok := strings.CutPrefix(line, "done "); ok {
			done = append(done, id)
		}
		if strings.HasPrefix(line, "streaming ") && len(done) == chatCrashDone && !killed {
			// The words shown are written as they stream: kill once they are.
			partialStored(t, path, c.ID)
			if err := cmd.Process.Kill(); err != nil {
				t.Fatal(err)
			}
			killed = true
		}
	}
	_ = cmd.Wait()
	if !killed {
		t.Fatalf("child ended after %d turns without being killed", len(done))
	}

	h, err = history.Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	msgs, err := h.Messages(t.Context(), c.ID)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]history.Message{}
	for _, m := range msgs {
		byID[m.ID] = m
	}
	for i, id := range done {
		if m := byID[id]; m.Status != "complete" || m.Text != fmt.Sprintf("answer number %d", i) {
			t.Errorf("completed answer %s after the crash: %+v", id, m)
		}
	}
	// 3 turns × (user + assistant), then the user message of the cut turn and its unfinished answer.
	if len(msgs) != 2*chatCrashDone+2 || msgs[2*chatCrashDone].Text != "question 3" {
		t.Fatalf("%d messages after the crash: %+v", len(msgs), msgs)
	}
	if last := msgs[len(msgs)-1]; last.Role != "assistant" || last.Status == "complete" || !strings.HasPrefix(last.Text, "partial") {
		t.Fatalf("the answer cut by the kill is stored as %+v (want its first words, incomplete)", last)
	}
}

// partialStored waits until the child's answer in flight has text in the
// history (another process's writes: the history is read as the CLI reads
// the window's).
func partialStored(t *testing.T, path, chatID string) {
	t.Helper()
	h, err := history.Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	deadline := time.Now().Add(30 * time.Second)
	for {
		msgs, err := h.Messages(t.Context(), chatID)
		if err != nil {
			t.Fatal(err)
		}
		if last := msgs[len(msgs)-1]; last.Role == "assistant" && last.Text != "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the streamed words were not written within 30 s: %+v", msgs[len(msgs)-1])
		}
		time.Sleep(20 * time.Millisecond) // polling another process's writes
	}
}

// chatCrashChild chats until killed, printing "done ID" after each turn and
// "streaming" when the next answer starts arriving.
func chatCrashChild(t *testing.T, path, llmURL, chatID string) {
	ctx := context.Background()
	h, err := history.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := provider.New(provider.Config{Kind: provider.KindOpenAI, Name: "fake", BaseURL: llmURL, APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	eng := chat.New(chat.Options{History: h})
	for i := range chatCrashDone + 1 {
		streaming := false
		res, err := eng.Send(ctx, chat.Turn{ChatID: chatID, Provider: p, Model: "m", Text: fmt.Sprintf("question %d", i),
			OnEvent: func(ev chat.Event) {
				if ev.Type == chat.EventText && !streaming {
					streaming = true
					fmt.Println("streaming", i)
				}
			}})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Println("done", res.Message.ID)
	}
	t.Fatal("the last turn should never finish: the parent kills the child while it streams")
}
