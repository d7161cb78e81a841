package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
)

// An interrupted command ends with exit 1 and no "context canceled" line;
// a command that fails on its own while running still says why.
func TestInterruptedSaysNothingMore(t *testing.T) {
	cancelled, cancel := context.WithCancel(t.Context())
	cancel()
	for _, c := range []struct {
		name  string
		ctx   context.Context
		err   error
		quiet bool
	}{
		{"interrupted", cancelled, fmt.Errorf("chat: %w", context.Canceled), true},
		{"a failure after the interrupt", cancelled, errors.New("the keyring is locked"), false},
		{"canceled without an interrupt (a server's own cancel)", t.Context(), context.Canceled, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := interrupted(c.ctx, c.err); got != c.quiet {
				t.Fatalf("interrupted = %v, want %v", got, c.quiet)
			}
		})
	}
}

// Ctrl-C while the model answers: the chat says it stopped and is saved,
// and Run adds no "switchboard: context canceled" of its own.
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
	if strings.Contains(errb.String(), "context canceled") {
		t.Fatalf("stderr after Ctrl-C:\n%s", errb.String())
	}
}
