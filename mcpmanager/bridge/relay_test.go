package bridge

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"slices"
	"strings"
	"testing"
	"time"
)

// attached returns a serve's connection and the listener's end of it.
func attached(t *testing.T) (client, server *Conn) {
	t.Helper()
	a := testAddress(t)
	l := listenT(t, a)
	acc := make(chan *Conn, 1)
	go func() {
		c, err := l.Accept(nil)
		if err == nil {
			acc <- c
		}
	}()
	c, _, err := Dial(t.Context(), a, Hello{Client: "t"})
	if err != nil {
		t.Fatal(err)
	}
	s := <-acc
	t.Cleanup(func() { c.Close(); s.Close() })
	return &Conn{Conn: c}, s
}

const (
	initLine  = `{"jsonrpc":"2.0","id":"init-1","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"app","version":"1"}}}` + "\n"
	initdLine = `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"
)

// TestRelayCopiesAndEnds: bytes go both ways as they are, and when the
// app closes stdin, Switchboard sees the end of the stream, closes its
// side, and Relay returns with nothing lost.
func TestRelayCopiesAndEnds(t *testing.T) {
	c, s := attached(t)
	inR, inW := io.Pipe()
	var out bytes.Buffer
	done := make(chan error, 1)
	go func() {
		lost, err := Relay(t.Context(), c.Conn, inR, &out)
		if lost != nil {
			t.Errorf("Relay lost the connection: %v", lost.Err)
		}
		done <- err
	}()
	big := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"arguments":{"x":"` + strings.Repeat("y", 200<<10) + `"}}}` + "\n"
	go func() {
		_, _ = io.WriteString(inW, initLine+initdLine+big)
		inW.Close()
	}()
	got, err := io.ReadAll(s) // until the serve closed its side
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != initLine+initdLine+big {
		t.Fatalf("Switchboard got %d bytes, want the %d the app sent, unchanged", len(got), len(initLine+initdLine+big))
	}
	if _, err := io.WriteString(s, `{"jsonrpc":"2.0","id":2,"result":{}}`+"\n"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if out.String() != `{"jsonrpc":"2.0","id":2,"result":{}}`+"\n" {
		t.Errorf("the app got %q", out.String())
	}
}

// TestRelayLost: when Switchboard goes away mid-session, Relay hands back
// the app's handshake to replay, the initialize id whose second answer to
// drop, and the rest of stdin from the next whole line: a line the lost
// connection got part of is not passed on half.
func TestRelayLost(t *testing.T) {
	c, s := attached(t)
	inR, inW := io.Pipe()
	done := startRelay(t, c.Conn, inR, io.Discard)
	if _, err := io.WriteString(inW, initLine+initdLine+`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`+"\n"); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(s)
	for range 3 {
		if _, err := br.ReadString('\n'); err != nil {
			t.Fatal(err)
		}
	}
	// The first 64 KiB of a long line reach Switchboard, which dies.
	head := `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"arguments":{"x":"` + strings.Repeat("y", 100<<10)
	go func() { _, _ = io.WriteString(inW, head) }()
	if _, err := io.ReadFull(br, make([]byte, 64<<10)); err != nil {
		t.Fatal(err)
	}
	s.Close()
	checkLost(t, waitLost(t, done), inW)
}

type relayResult struct {
	lost *Lost
	err  error
}

// startRelay runs Relay on c with the app's stdin and stdout.
func startRelay(t *testing.T, c net.Conn, stdin io.Reader, stdout io.Writer) <-chan relayResult {
	t.Helper()
	done := make(chan relayResult, 1)
	go func() {
		lost, err := Relay(t.Context(), c, stdin, stdout)
		done <- relayResult{lost, err}
	}()
	return done
}

// waitLost waits for Relay to hand back a *Lost.
func waitLost(t *testing.T, done <-chan relayResult) *Lost {
	t.Helper()
	var r relayResult
	select {
	case r = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Relay did not return after Switchboard went away")
	}
	if r.err != nil || r.lost == nil {
		t.Fatalf("Relay = %v, %v; want a *Lost", r.lost, r.err)
	}
	return r.lost
}

// checkLost checks what a Lost hands back after the app sent its
// handshake and a line whose start the running Switchboard read before it
// went away, and then sends the rest of that line and a ping on appIn:
// the handshake to replay, and the ping alone from Rest.
func checkLost(t *testing.T, lost *Lost, appIn io.WriteCloser) {
	t.Helper()
	if string(lost.Replay) != initLine+initdLine || string(lost.InitID) != `"init-1"` {
		t.Errorf("replay %q id %s; want the app's initialize and initialized, id \"init-1\"", lost.Replay, lost.InitID)
	}
	if lost.Answered {
		t.Error("Answered, though the running Switchboard answered nothing")
	}
	go func() {
		_, _ = io.WriteString(appIn, `"}}}`+"\n"+`{"jsonrpc":"2.0","id":5,"method":"ping"}`+"\n")
		appIn.Close()
	}()
	rest, err := io.ReadAll(lost.Rest)
	if err != nil {
		t.Fatal(err)
	}
	if string(rest) != `{"jsonrpc":"2.0","id":5,"method":"ping"}`+"\n" {
		t.Errorf("rest = %q, want the next whole line only", rest)
	}
}

// TestRelayEndsWithContext: ctx ending ends the relay at once.
func TestRelayEndsWithContext(t *testing.T) {
	c, _ := attached(t)
	ctx, cancel := context.WithCancel(t.Context())
	inR, _ := io.Pipe()
	done := make(chan error, 1)
	go func() {
		_, err := Relay(ctx, c.Conn, inR, io.Discard)
		done <- err
	}()
	cancel()
	select {
	case err := <-done:
		if err == nil {
			t.Error("Relay returned nil after ctx ended, want ctx's error")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Relay did not return when ctx ended")
	}
}

// TestDropAnswer: the replayed initialize's answer is dropped once; every
// other message, and a later answer under the same id, passes.
func TestDropAnswer(t *testing.T) {
	var out bytes.Buffer
	w := DropAnswer(&out, []byte(`"init-1"`))
	for _, line := range []string{
		`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}` + "\n",
		`{"jsonrpc":"2.0","id":"init-1","result":{"protocolVersion":"2025-06-18"}}` + "\n",
		`{"jsonrpc":"2.0","id":7,"result":{}}` + "\n",
		`{"jsonrpc":"2.0","id":"init-1","result":{}}` + "\n",
	} {
		if _, err := w.Write([]byte(line)); err != nil {
			t.Fatal(err)
		}
	}
	want := `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}` + "\n" + `{"jsonrpc":"2.0","id":7,"result":{}}` + "\n" + `{"jsonrpc":"2.0","id":"init-1","result":{}}` + "\n"
	if out.String() != want {
		t.Errorf("passed %q\nwant %q", out.String(), want)
	}
}

// TestRelayKnowsWhetherTheAppWasAnswered: a Lost says whether the app had
// the running Switchboard's answer to its initialize, so that when it went
// away between reading the initialize and answering it, the replayed
// initialize's answer reaches the app (Out passes it) instead of being
// dropped as a second one.
func TestRelayKnowsWhetherTheAppWasAnswered(t *testing.T) {
	for _, c := range []struct {
		name, wrote string
		answered    bool
	}{
		{"gone before answering", "", false},
		{"answered", `{"jsonrpc":"2.0","id":"init-1","result":{"protocolVersion":"2025-06-18"}}` + "\n", true},
		{"answered with an error, after a notification", `{"jsonrpc":"2.0","method":"notifications/message","params":{}}` + "\n" + `{"jsonrpc":"2.0","id":"init-1","error":{"code":-32603,"message":"x"}}` + "\n", true},
		{"another id answered", `{"jsonrpc":"2.0","id":"init-2","result":{}}` + "\n", false},
		{"half an answer", `{"jsonrpc":"2.0","id":"init-1","result":{`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			cl, s := attached(t)
			inR, inW := io.Pipe()
			var out bytes.Buffer
			done := startRelay(t, cl.Conn, inR, &out)
			go func() { _, _ = io.WriteString(inW, initLine) }()
			if _, err := bufio.NewReader(s).ReadString('\n'); err != nil {
				t.Fatal(err)
			}
			if _, err := io.WriteString(s, c.wrote); err != nil {
				t.Fatal(err)
			}
			s.Close()
			lost := waitLost(t, done)
			if out.String() != c.wrote {
				t.Errorf("the app got %q, want %q", out.String(), c.wrote)
			}
			if lost.Answered != c.answered {
				t.Errorf("Answered = %v, want %v", lost.Answered, c.answered)
			}
			checkOut(t, lost, c.answered)
			inW.Close()
		})
	}
}

// checkOut checks the app's stdout after a Lost gets the replayed
// initialize's answer only when the app had no answer before.
func checkOut(t *testing.T, lost *Lost, answered bool) {
	t.Helper()
	var out bytes.Buffer
	w := lost.Out(&out)
	answer := `{"jsonrpc":"2.0","id":"init-1","result":{"protocolVersion":"2025-06-18"}}` + "\n"
	if _, err := io.WriteString(w, answer); err != nil {
		t.Fatal(err)
	}
	if got, want := out.String() == answer, !answered; got != want {
		t.Errorf("after a Lost with Answered %v the replayed initialize's answer passed: %v, want %v", answered, got, want)
	}
}

// TestLineWatch: lines split anywhere across reads are seen whole, and a
// line over maxKept is skipped, not seen in pieces.
func TestLineWatch(t *testing.T) {
	long := `{"x":"` + strings.Repeat("y", maxKept) + `"}` + "\n"
	text := `{"a":1}` + "\n" + long + `{"b":2}` + "\n" + `{"c":3}`
	for _, size := range []int{1, 3, 7, 4096, len(text)} {
		var w lineWatch
		var seen []string
		for p := []byte(text); len(p) > 0; {
			n := min(size, len(p))
			w.feed(p[:n], func(line []byte) { seen = append(seen, string(line)) })
			p = p[n:]
		}
		if want := []string{`{"a":1}` + "\n", `{"b":2}` + "\n"}; !slices.Equal(seen, want) {
			t.Errorf("pieces of %d: saw %.80q, want %q", size, seen, want)
		}
	}
}
