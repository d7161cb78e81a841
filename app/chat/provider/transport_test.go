package provider_test

import (
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
)

// The app opens its provider again for every turn: the turns share one
// pool of connections, so the earlier turns leave none open behind them
// (each was kept idle for 90 s with two goroutines and its buffers: a day
// of use in the window counted 500 such goroutines), and a turn can reuse
// the last one's connection instead of dialling again.
func TestProvidersOpenedPerTurnLeaveNoConnectionsBehind(t *testing.T) {
	forEachKind(t, func(t *testing.T, kind provider.Kind) {
		fake, err := providertest.New("")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { fake.Close() })
		var mu sync.Mutex
		conns := map[net.Conn]http.ConnState{}
		open := func() int {
			mu.Lock()
			defer mu.Unlock()
			n := 0
			for _, st := range conns {
				if st != http.StateClosed && st != http.StateHijacked {
					n++
				}
			}
			return n
		}
		ts := httptest.NewUnstartedServer(fake)
		ts.Config.ConnState = func(c net.Conn, st http.ConnState) {
			mu.Lock()
			conns[c] = st
			mu.Unlock()
		}
		ts.Start()
		t.Cleanup(ts.Close)
		base := ts.URL
		if kind == provider.KindOpenAI {
			base += "/v1"
		}
		const turns = 3
		for turn := range turns {
			p, err := provider.New(provider.Config{Kind: kind, Name: "fake", BaseURL: base, APIKey: testKey})
			if err != nil {
				t.Fatal(err)
			}
			fake.Enqueue(providertest.Reply{Text: "hello"})
			resp, err := p.Stream(t.Context(), userTurn("hi"), func(provider.Event) {})
			if err != nil || resp.Text != "hello" {
				t.Fatalf("turn %d: %q, %v", turn, resp.Text, err)
			}
		}
		// A connection the client closed reaches the server a moment later.
		for deadline := time.Now().Add(5 * time.Second); open() > 1 && time.Now().Before(deadline); {
			time.Sleep(10 * time.Millisecond)
		}
		mu.Lock()
		dialled := len(conns)
		mu.Unlock()
		if n := open(); n > 1 {
			t.Errorf("%d turns, each with the provider opened anew, dialled %d connections and left %d open; want 1 open", turns, dialled, n)
		}
		if kind != provider.KindOpenAI && dialled != 1 {
			// (OpenAI's SDK closes the stream at [DONE], before the
			// body's end has arrived now and then: that connection closes.)
			t.Errorf("%d turns dialled %d connections; want 1, reused", turns, dialled)
		}
	})
}
