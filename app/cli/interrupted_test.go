package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
)

// Ctrl-C while the model answers: the chat is saved, and switchboard chat
// says it was stopped, not the provider's "stream: context canceled".
func TestChatInterruptedEndsQuietly(t *testing.T) {
	llm := providertest.NewServer(t)
	llm.Enqueue(providertest.Reply{Text: strings.Repeat("slow words ", 400), ChunkSize: 10, Delay: 50 * time.Millisecond})
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	go func() { // the user presses Ctrl-C once the model is answering
		for ctx.Err() == nil && len(llm.Requests()) == 0 {
			time.Sleep(10 * time.Millisecond) // polling the fake's log, not a sync by time
		}
		cancel()
	}()
	var out, errb bytes.Buffer
	code := Run(ctx, []string{"--data-dir", t.TempDir(), "chat", "--provider", "openai", "--base-url", llm.URL(provider.KindOpenAI), "--model", "m1", "hello"},
		Env{Stdout: &out, Stderr: &errb, Stdin: strings.NewReader("")})
	if code != ExitRuntime {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, ExitRuntime, errb.String())
	}
	if strings.Contains(errb.String(), "context canceled") || !strings.Contains(errb.String(), "switchboard: "+stoppedText+"\n") {
		t.Fatalf("stderr after Ctrl-C:\n%s", errb.String())
	}
}
