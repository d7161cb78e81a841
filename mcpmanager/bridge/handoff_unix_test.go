//go:build unix

package bridge

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// pipes is an app's two pipes to the 'serve' it started: the app writes
// to appIn and reads appOut; serve holds stdin and stdout.
type pipes struct {
	appIn, stdout *os.File // written
	stdin, appOut *os.File // read
}

func newPipes(t *testing.T) *pipes {
	t.Helper()
	var p pipes
	var err error
	if p.stdin, p.appIn, err = os.Pipe(); err != nil {
		t.Fatal(err)
	}
	if p.appOut, p.stdout, err = os.Pipe(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, f := range []*os.File{p.appIn, p.stdout, p.stdin, p.appOut} {
			f.Close()
		}
	})
	return &p
}

// handedOver attaches a serve that hands over p's stdio and returns the
// listener's end and a channel with HandOff's result.
func handedOver(t *testing.T, ctx context.Context, p *pipes) (*Conn, <-chan handOffResult) {
	t.Helper()
	a := testAddress(t)
	l := listenT(t, a)
	acc := make(chan *Conn, 1)
	go func() {
		c, err := l.Accept(func(err error) { t.Errorf("refused: %v", err) })
		if err == nil {
			acc <- c
		}
	}()
	in, out, ok := Stdio(p.stdin, p.stdout)
	if !ok {
		t.Fatal("Stdio refused two pipes")
	}
	c, peer, err := Dial(ctx, a, Hello{Client: "t", Handoff: true})
	if err != nil {
		t.Fatal(err)
	}
	if !peer.Handoff {
		t.Fatal("the listener did not offer to take the app's stdio")
	}
	done := make(chan handOffResult, 1)
	go func() {
		lost, err := HandOff(ctx, c, in, out)
		done <- handOffResult{lost, err}
	}()
	var s *Conn
	select {
	case s = <-acc:
	case <-time.After(10 * time.Second):
		t.Fatal("no connection accepted")
	}
	t.Cleanup(func() { s.Close() })
	if !s.HandedOver() {
		t.Fatal("the accepted connection did not get the app's stdio")
	}
	return s, done
}

type handOffResult struct {
	lost *Lost
	err  error
}

func waitHandOff(t *testing.T, done <-chan handOffResult) handOffResult {
	t.Helper()
	select {
	case r := <-done:
		return r
	case <-time.After(10 * time.Second):
		t.Fatal("HandOff did not return")
		return handOffResult{}
	}
}

// TestHandOffServesTheAppsOwnStdio: the running Switchboard reads the
// app's messages from the app's own pipe and answers on its other pipe
// (a 200 KB message intact), with close-on-exec descriptors, so no server
// it starts keeps them; when the app closes stdin and every answer is
// written, HandOff returns with nothing lost, and the app's stdout ends
// once serve's own copy is closed too.
func TestHandOffServesTheAppsOwnStdio(t *testing.T) {
	p := newPipes(t)
	s, done := handedOver(t, t.Context(), p)
	for _, f := range []*os.File{s.in, s.out} {
		raw, _ := f.SyscallConn()
		_ = raw.Control(func(fd uintptr) {
			flags, err := fcntl(fd, syscall.F_GETFD)
			if err != nil || flags&syscall.FD_CLOEXEC == 0 {
				t.Errorf("%s: flags %#x (%v); want close-on-exec", f.Name(), flags, err)
			}
		})
	}
	served := make(chan error, 1)
	go func() {
		served <- s.Serve(t.Context(), func(_ context.Context, rw io.ReadWriter) error {
			br := bufio.NewReader(rw)
			for i := 1; ; i++ {
				line, err := br.ReadString('\n')
				if err != nil {
					return nil
				}
				fmt.Fprintf(rw, `{"jsonrpc":"2.0","id":%d,"result":{"bytes":%d}}`+"\n", i, len(line))
			}
		})
	}()
	big := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"arguments":{"x":"` + strings.Repeat("y", 200<<10) + `"}}}` + "\n"
	go func() {
		_, _ = io.WriteString(p.appIn, initLine+initdLine+big)
		p.appIn.Close()
	}()
	br := bufio.NewReader(p.appOut)
	for i, line := range []string{initLine, initdLine, big} {
		got, err := br.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"bytes":%d}}`+"\n", i+1, len(line)); got != want {
			t.Fatalf("answer %d = %q, want %q", i+1, got, want)
		}
	}
	if r := waitHandOff(t, done); r.lost != nil || r.err != nil {
		t.Fatalf("HandOff = %v, %v after the app's stream ended; want nil, nil", r.lost, r.err)
	}
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	p.stdout.Close() // serve exits
	end := make(chan error, 1)
	go func() {
		rest, err := io.ReadAll(br)
		if err == nil && len(rest) > 0 {
			err = fmt.Errorf("more output: %q", rest)
		}
		end <- err
	}()
	select {
	case err := <-end:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the app's stdout did not end: the running Switchboard still holds it")
	}
}

// TestHandOffLost: when the running Switchboard goes away mid-session,
// HandOff hands back the handshake it was sent to replay and the app's
// stdin from the next whole line: the line it had read the start of is
// not served half.
func TestHandOffLost(t *testing.T) {
	p := newPipes(t)
	s, done := handedOver(t, t.Context(), p)
	head := `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"arguments":{"x":"` + strings.Repeat("y", 100<<10)
	go func() {
		_, _ = io.WriteString(p.appIn, initLine+initdLine+`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`+"\n"+head)
	}()
	_ = s.Serve(t.Context(), func(_ context.Context, rw io.ReadWriter) error {
		br := bufio.NewReader(rw)
		for range 3 {
			if _, err := br.ReadString('\n'); err != nil {
				t.Fatal(err)
			}
		}
		// The first 64 KiB of the long line are read; then it is gone.
		if _, err := io.ReadFull(br, make([]byte, 64<<10)); err != nil {
			t.Fatal(err)
		}
		return nil
	})
	r := waitHandOff(t, done)
	if r.err != nil || r.lost == nil {
		t.Fatalf("HandOff = %v, %v; want a *Lost", r.lost, r.err)
	}
	checkLost(t, r.lost, p.appIn)
}

// TestHandOffEndsWithContext: serve's ctx ending ends HandOff at once, and
// the running Switchboard's session with it.
func TestHandOffEndsWithContext(t *testing.T) {
	p := newPipes(t)
	ctx, cancel := context.WithCancel(t.Context())
	s, done := handedOver(t, ctx, p)
	served := make(chan struct{})
	go func() {
		_ = s.Serve(t.Context(), func(ctx context.Context, _ io.ReadWriter) error {
			<-ctx.Done()
			return nil
		})
		close(served)
	}()
	cancel()
	if r := waitHandOff(t, done); r.err == nil {
		t.Errorf("HandOff = %v, nil after ctx ended; want ctx's error", r.lost)
	}
	select {
	case <-served:
	case <-time.After(10 * time.Second):
		t.Fatal("the running Switchboard's session did not end when serve went away")
	}
}

// TestStdio: only pipes and sockets are handed over.
func TestStdio(t *testing.T) {
	p := newPipes(t)
	file, err := os.CreateTemp(t.TempDir(), "in")
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	for _, c := range []struct {
		name string
		in   io.Reader
		out  io.Writer
		want bool
	}{
		{"pipes", p.stdin, p.stdout, true},
		{"a regular file", file, p.stdout, false},
		{"not files", &bytes.Buffer{}, p.stdout, false},
		{"stdout not a file", p.stdin, io.Discard, false},
	} {
		if _, _, ok := Stdio(c.in, c.out); ok != c.want {
			t.Errorf("%s: Stdio ok = %v, want %v", c.name, ok, c.want)
		}
	}
}

func fcntl(fd uintptr, cmd int) (int, error) {
	r, _, e := syscall.Syscall(syscall.SYS_FCNTL, fd, uintptr(cmd), 0)
	if e != 0 {
		return 0, e
	}
	return int(r), nil
}

// TestHandOffKnowsWhetherTheAppWasAnswered: the running Switchboard tells
// 'serve' once its answer to the app's initialize is written, so a Lost
// after it drops the replayed initialize's answer and one before it (gone
// between reading the initialize and answering it) passes it on.
func TestHandOffKnowsWhetherTheAppWasAnswered(t *testing.T) {
	for _, answer := range []bool{false, true} {
		t.Run(fmt.Sprint("answered=", answer), func(t *testing.T) {
			p := newPipes(t)
			s, done := handedOver(t, t.Context(), p)
			go func() { _, _ = io.WriteString(p.appIn, initLine) }()
			_ = s.Serve(t.Context(), func(_ context.Context, rw io.ReadWriter) error {
				if _, err := bufio.NewReader(rw).ReadString('\n'); err != nil {
					t.Fatal(err)
				}
				if answer {
					_, _ = io.WriteString(rw, `{"jsonrpc":"2.0","method":"notifications/message","params":{}}`+"\n")
					_, _ = io.WriteString(rw, `{"jsonrpc":"2.0","id":"init-1","result":{}}`+"\n")
				}
				return nil // gone
			})
			r := waitHandOff(t, done)
			if r.err != nil || r.lost == nil {
				t.Fatalf("HandOff = %v, %v; want a *Lost", r.lost, r.err)
			}
			if r.lost.Answered != answer || string(r.lost.InitID) != `"init-1"` {
				t.Errorf("Answered %v, id %s; want %v, \"init-1\"", r.lost.Answered, r.lost.InitID, answer)
			}
			checkOut(t, r.lost, answer)
		})
	}
}
