package host

import (
	"context"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/app/history"
)

// TestFollowChatsTellsWhatAnotherProcessWrote: the window's host and a
// second host on the same data dir, as 'switchboard chat' opens one, each
// with its own history store on the one history.db and a real engine. What
// the window writes (chats, turns, renames) is never told; what the CLI
// writes is, after its commit, a running turn's first message included.
func TestFollowChatsTellsWhatAnotherProcessWrote(t *testing.T) {
	old := history.IndexDelay
	history.IndexDelay = time.Hour // no search-index pass between two checks
	t.Cleanup(func() { history.IndexDelay = old })
	ctx := t.Context()
	win := open(t)
	cli := Open(Options{Dir: win.dir})
	t.Cleanup(func() { cli.Close(context.Background()) })
	llm := providertest.NewServer(t)
	llm.Enqueue(providertest.Reply{When: "please", Text: "An answer."})
	s := chat.Settings{Providers: []chat.ProviderSettings{{Name: "fake", Kind: provider.KindOpenAI, BaseURL: llm.URL(provider.KindOpenAI), DefaultModel: "m"}}}
	for _, h := range []*Host{win, cli} {
		h.Chats.Wire(ApproveAll{}, &ChatRequests{}, nil)
	}
	f := startFollowing(t, win.Chats)

	var chatID, other string
	turn := func(h *Host, text string, onEvent func(chat.Event)) error {
		m, name, err := h.Chats.Model(s, "", "")
		if err != nil {
			return err
		}
		tr := h.Chats.Turn(ctx, s, TurnRequest{ChatID: chatID, Provider: name, Model: m, Text: text})
		tr.OnEvent = onEvent
		_, err = h.Chats.Send(ctx, tr)
		return err
	}
	create := func(h *Host, id *string) func() error {
		return func() error {
			c, err := h.Chats.Create(ctx, s, NewChat{Text: "hello"})
			*id = c.ID
			return err
		}
	}
	steps := []struct {
		name  string
		write func() error
		told  bool
	}{
		{"the window makes a chat", create(win, &chatID), false},
		{"the window runs a turn", func() error { return turn(win, "first, please", nil) }, false},
		{"the window renames the chat", func() error { return win.Chats.Rename(ctx, chatID, "mine") }, false},
		{"the CLI runs a turn in it", func() error { return turn(cli, "from the terminal, please", nil) }, true},
		{"the window runs another", func() error { return turn(win, "third, please", nil) }, false},
		{"the CLI renames it", func() error { return cli.Chats.Rename(ctx, chatID, "theirs") }, true},
		{"the CLI makes a chat", create(cli, &other), true},
		{"the CLI deletes it", func() error { return cli.Chats.Delete(ctx, other) }, true},
		{"the window makes and deletes one", func() error {
			if err := create(win, &other)(); err != nil {
				return err
			}
			return win.Chats.Delete(ctx, other)
		}, false},
	}
	for _, st := range steps {
		if n := f.check(t); n != 0 {
			t.Fatalf("before %q: told %d times with nothing written", st.name, n)
		}
		if err := st.write(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if n, want := f.check(t), map[bool]int{true: 1, false: 0}[st.told]; n != want {
			t.Errorf("%s: told %d times, want %d", st.name, n, want)
		}
	}

	// A turn still running in the CLI: told once its question is stored,
	// and again when its answer is.
	stored, release := make(chan struct{}), make(chan struct{})
	ended := make(chan error, 1)
	go func() {
		ended <- turn(cli, "a long one, please", func(ev chat.Event) {
			if ev.Type == chat.EventMessage && ev.Role == "user" {
				close(stored)
				<-release // the turn waits here, its question committed
			}
		})
	}()
	<-stored
	if n := f.check(t); n != 1 {
		t.Errorf("the CLI's running turn stored its question: told %d times, want 1", n)
	}
	close(release)
	if err := <-ended; err != nil {
		t.Fatal(err)
	}
	if n := f.check(t); n != 1 {
		t.Errorf("the CLI's turn ended: told %d times, want 1", n)
	}
}

// following is followChats run on ticks the test sends.
type following struct {
	ticks   chan time.Time
	changed chan struct{}
}

func startFollowing(t *testing.T, c *Chats) *following {
	t.Helper()
	f := &following{ticks: make(chan time.Time), changed: make(chan struct{}, 64)}
	ctx, cancel := context.WithCancel(t.Context())
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		followChats(ctx, c, f.ticks, func() { f.changed <- struct{}{} })
	}()
	t.Cleanup(func() { cancel(); <-stopped })
	return f
}

// check has the follower check and says how often it told of a change
// since the last check. The loop takes the second tick only once the
// first tick's check, its call of changed included, is over.
func (f *following) check(t *testing.T) int {
	t.Helper()
	for range 2 {
		select {
		case f.ticks <- time.Time{}:
		case <-t.Context().Done():
			t.Fatal("the follower stopped taking ticks")
		}
	}
	n := 0
	for {
		select {
		case <-f.changed:
			n++
		default:
			return n
		}
	}
}
