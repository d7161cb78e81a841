package gui

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/app/host"
)

// TestChoiceReachesAttachedApp: choosing an attached app's servers, in the
// window or with 'switchboard clients servers' (config.json changed by
// another process), sends that app notifications/tools/list_changed at
// once. (That no other app's session is sent it is
// gateway.TestChoiceChangedTellsOnlyThatApp.)
func TestChoiceReachesAttachedApp(t *testing.T) {
	a, dir := window(t)
	terminal(t, dir, "", "servers", "add", "mail", "--", "/nonexistent/mail")
	other := host.Open(host.Options{Dir: dir})
	t.Cleanup(func() { _ = other.Close(context.Background()) })

	// attach runs one app's serve against the window, through its
	// handshake, and returns the lines the app reads.
	attach := func(app string) <-chan string {
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		t.Cleanup(func() { _ = inW.Close(); _ = outR.Close() })
		go func() {
			_, _ = other.Shared.Attach(t.Context(), host.AttachRequest{In: inR, Out: outW, Client: app})
			_ = outW.Close()
		}()
		lines := make(chan string, 64)
		go func() {
			sc := bufio.NewScanner(outR)
			sc.Buffer(nil, 1<<20)
			for sc.Scan() {
				lines <- sc.Text()
			}
			close(lines)
		}()
		_, _ = io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"`+app+`","version":"1"}}}`+"\n")
		waitLine(t, lines, `"id":1`)
		_, _ = io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
		return lines
	}
	cursor, zed := attach("cursor"), attach("zed")

	if err := a.ClientsPage.SetClientServers("cursor", []string{"mail"}); err != nil {
		t.Fatal(err)
	}
	waitLine(t, cursor, "notifications/tools/list_changed")

	terminal(t, dir, "", "clients", "servers", "zed", "mail")
	waitLine(t, zed, "notifications/tools/list_changed")
}

// waitLine waits for a line containing want.
func waitLine(t *testing.T, lines <-chan string, want string) {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("the stream ended before %s", want)
			}
			if strings.Contains(l, want) {
				return
			}
		case <-deadline:
			t.Fatalf("no %s within 20 s", want)
		}
	}
}
