package gui

import (
	"context"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/app/host"
)

// TestCloseWithAppsAttached: closing the window while an app's serve is
// attached keeps it open and asks (the event names the app); closing again
// while asked quits (a page that cannot ask never traps the user); Stay
// open withdraws the question; Quit anyway closes without asking; with no
// app attached the window closes at once.
func TestCloseWithAppsAttached(t *testing.T) {
	var mu sync.Mutex
	var asked []CloseView
	a, dir := window(t, func(name string, data any) {
		if name == EventCloseWithApps {
			mu.Lock()
			asked = append(asked, data.(CloseView))
			mu.Unlock()
		}
	})
	if a.holdClose() {
		t.Fatal("no app attached: the window should close at once")
	}

	// An app's serve attaches (as 'serve --client cursor' does).
	other := host.Open(host.Options{Dir: dir})
	t.Cleanup(func() { _ = other.Close(context.Background()) })
	inR, inW := io.Pipe()
	attached := make(chan struct{})
	go func() {
		_, _ = other.Shared.Attach(t.Context(), host.AttachRequest{In: inR, Out: io.Discard, Client: "cursor", OnAttached: func(int) { close(attached) }})
	}()
	t.Cleanup(func() { _ = inW.Close() })
	<-attached
	deadline := time.Now().Add(10 * time.Second)
	for len(a.h.Shared.Attached()) == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond) // the listener registers the session after the handshake
	}

	if !a.holdClose() {
		t.Fatal("an app is attached: closing should keep the window and ask")
	}
	mu.Lock()
	if len(asked) != 1 || len(asked[0].Apps) != 1 || asked[0].Apps[0].Name != "cursor" || asked[0].Apps[0].Title != "Cursor" {
		t.Errorf("asked %+v, want one question naming cursor (titled Cursor)", asked)
	}
	mu.Unlock()
	if a.holdClose() {
		t.Error("closing again while asked should quit")
	}
	_ = a.StayOpen()
	if !a.holdClose() {
		t.Error("after Stay open, closing should ask again")
	}
	a.closing.quit.Store(true) // QuitAnyway without a Wails runtime to quit
	if a.holdClose() {
		t.Error("after Quit anyway, closing should not ask")
	}
}
