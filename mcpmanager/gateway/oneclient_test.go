package gateway

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// askUp is a gateway in front of the testserver in mode askserver (a real
// stdio server process, whose questions name no call) as server "up", its
// questions handed to the gateway as serve does.
func askUp(t *testing.T) *Gateway {
	t.Helper()
	reg := router.New(router.Options{})
	g := New(reg, Options{Version: "test"})
	up := client.NewClient(transport.NewStdio(proctest.Server(t, "askserver"), nil),
		client.WithSamplingHandler(gatewayAsHandler{g}), client.WithElicitationHandler(gatewayAsHandler{g}))
	if err := up.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { up.Close() })
	if _, err := up.Initialize(t.Context(), initAt(mcp.ProtocolVersion20251125)); err != nil {
		t.Fatal(err)
	}
	reg.Add(named{"up", up})
	g.Refresh(t.Context())
	return g
}

// stdioClient connects p to g over stdio pipes, as an app attached to
// the running Switchboard through the 'switchboard serve' it started
// (ServeApp: a session of its own beside the others'), as a client of
// revision version that takes forms and sampling.
func stdioClient(t *testing.T, g *Gateway, version string, p *party) *client.Client {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan struct{})
	go func() {
		defer close(served)
		_ = g.ServeApp(ctx, struct {
			io.Reader
			io.Writer
		}{inR, outW}, p.name)
		outW.Close()
	}()
	cl := client.NewClient(transport.NewIO(bufio.NewReader(outR), inW, nil), client.WithElicitationHandler(p), client.WithSamplingHandler(p))
	if err := cl.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cl.Close()
		inW.Close()
		cancel()
		<-served
	})
	initialize(t, cl, version, p)
	return cl
}

// ownClient connects p to 'serve --http' at url as an app of its own (a
// process with its own connections, as two apps are) of revision
// version.
func ownClient(t *testing.T, url, token, version string, p *party) *client.Client {
	t.Helper()
	own := &http.Client{Transport: &http.Transport{}}
	t.Cleanup(own.CloseIdleConnections)
	opts := []transport.StreamableHTTPCOption{transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + token}), transport.WithHTTPBasicClient(own)}
	if !mcp.IsModernProtocol(version) {
		opts = append(opts, transport.WithContinuousListening())
	}
	tr, err := transport.NewStreamableHTTP(url, opts...)
	if err != nil {
		t.Fatal(err)
	}
	cl := client.NewClient(tr, client.WithElicitationHandler(p), client.WithSamplingHandler(p))
	if err := cl.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cl.Close() })
	initialize(t, cl, version, p)
	return cl
}

// initialize starts cl's session at version, taking forms and sampling.
func initialize(t *testing.T, cl *client.Client, version string, p *party) {
	t.Helper()
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = version
	init.Params.ClientInfo = mcp.Implementation{Name: p.name, Version: "1"}
	init.Params.Capabilities.Elicitation = &mcp.ElicitationCapability{Form: &struct{}{}}
	init.Params.Capabilities.Sampling = &mcp.SamplingCapability{}
	if _, err := cl.Initialize(t.Context(), init); err != nil {
		t.Fatal(err)
	}
	if got := cl.ProtocolVersion(); got != version {
		t.Fatalf("%s speaks %q with the gateway, want %q", p.name, got, version)
	}
}

// TestOneClientsParallelCalls: one client's three calls of a stdio server
// (the testserver in mode askserver) run side by side, and each asks a
// question (a form or a sampling request, which names no call), or the
// oldest holds while the others ask. Every call running there is that
// client's, so each question is its: it is asked of it, once each, over
// stdio and HTTP, 2025 and 2026-07-28 alike; a 2026-07-28 client gets
// them as input_required results of its oldest call still running (of
// the hold call, when it holds). While another client's call runs there
// too, every question is refused, in words that say what to do, and
// neither client is asked. A 2026-07-28 client over HTTP has no session:
// its calls side by side come on a connection each and count as callers
// of their own (router.Tie), so theirs are refused too.
//
// Over HTTP a 2025 client's question goes out on the stream of the
// oldest call, and mcp-go's client sends its answer within that stream's
// life: the case holds that call until the others are done.
func TestOneClientsParallelCalls(t *testing.T) {
	for _, tc := range []struct {
		over, version string
		hold          bool // the oldest call holds instead of asking
		other         bool // another client's call runs on the server meanwhile
		refused       bool
	}{
		{over: "stdio", version: mcp.ProtocolVersion20260728},
		{over: "stdio", version: mcp.ProtocolVersion20260728, hold: true},
		{over: "stdio", version: mcp.ProtocolVersion20251125},
		{over: "http", version: mcp.ProtocolVersion20251125, hold: true},
		{over: "stdio", version: mcp.ProtocolVersion20260728, other: true, refused: true},
		{over: "http", version: mcp.ProtocolVersion20260728, refused: true},
	} {
		for _, kind := range []string{"form", "sampling"} {
			t.Run(fmt.Sprintf("%s %s %s, hold %v, other %v", tc.over, tc.version, kind, tc.hold, tc.other), func(t *testing.T) {
				g := askUp(t)
				a, b := newParty("A"), newParty("B")
				var url, token string
				if tc.over == "http" {
					url, token = serveHTTP(t, g)
				}
				connect := func(p *party) *client.Client {
					if tc.over == "stdio" {
						return stdioClient(t, g, tc.version, p)
					}
					return ownClient(t, url, token, tc.version, p)
				}
				ac := connect(a)
				dir := t.TempDir()
				open := func(gate string) {
					if err := os.WriteFile(filepath.Join(dir, gate), nil, 0o600); err != nil {
						t.Error(err)
					}
				}
				if tc.other {
					held := background(t, connect(b), "hold", map[string]any{"gate": filepath.Join(dir, "other")})
					awaitFile(t, filepath.Join(dir, "other.started"))
					defer func() {
						open("other")
						if got := within(t, held, "B's hold call"); got != "held" {
							t.Errorf("B's hold call = %q", got)
						}
					}()
				}
				whos := []string{"one", "two", "three"}
				results := map[string]<-chan string{}
				for i, who := range whos {
					tool := "ask"
					if i == 0 && tc.hold {
						tool = "hold"
					}
					results[who] = background(t, ac, tool, map[string]any{"who": who, "kind": kind, "gate": filepath.Join(dir, who)})
					awaitFile(t, filepath.Join(dir, who+".started"))
				}
				asked := whos
				if tc.hold {
					asked = whos[1:]
				}
				for _, who := range asked { // all three run: now each asks
					open(who)
				}
				for _, who := range asked {
					got := within(t, results[who], "the result of "+who)
					switch {
					case tc.refused && (!strings.HasPrefix(got, "refused: ") || !strings.Contains(got, "call the tool again") || !strings.Contains(got, "when nothing else is using up")):
						t.Errorf("call %s = %q, want its question refused saying what to do", who, got)
					case !tc.refused && !strings.HasPrefix(got, "answered: "):
						t.Errorf("call %s = %q, want its question answered", who, got)
					}
				}
				if tc.hold {
					open("one")
					if got := within(t, results["one"], "the hold call's result"); got != "held" {
						t.Errorf("the hold call = %q", got)
					}
				}
				var want []string
				for _, who := range asked {
					if !tc.refused {
						want = append(want, "PRIVATE for "+who)
					}
				}
				slices.Sort(want)
				if s := slices.Sorted(slices.Values(a.seen())); !slices.Equal(s, want) {
					t.Errorf("A was asked %q, want %q", s, want)
				}
				if s := b.seen(); len(s) != 0 {
					t.Errorf("B, whose call asked nothing, was asked %q", s)
				}
			})
		}
	}
}

// TestStatelessClientsCallsInARow: a 2026-07-28 client over 'serve
// --http' keeps no session, yet its calls one after the other on its
// connection are one caller's: a stdio server's question during its
// second call is asked of it, though its first call there ended moments
// ago. The calls of another app (a connection of its own) are another
// caller's: a question right after that app's call ended is refused
// (router.TieGrace), and neither app is asked.
func TestStatelessClientsCallsInARow(t *testing.T) {
	for _, kind := range []string{"form", "sampling"} {
		for _, tc := range []struct {
			first string // whose call ends right before A's question: "A" or "B"
			want  string
		}{
			{"A", "answered: "},
			{"B", "refused: "},
		} {
			t.Run(kind+" after "+tc.first+"'s call", func(t *testing.T) {
				if router.TieGrace < 5*time.Second {
					t.Fatalf("router.TieGrace is %s", router.TieGrace)
				}
				g := askUp(t)
				url, token := serveHTTP(t, g)
				a, b := newParty("A"), newParty("B")
				clients := map[string]*client.Client{
					"A": ownClient(t, url, token, mcp.ProtocolVersion20260728, a),
					"B": ownClient(t, url, token, mcp.ProtocolVersion20260728, b),
				}
				gate := filepath.Join(t.TempDir(), "open")
				if err := os.WriteFile(gate, nil, 0o600); err != nil {
					t.Fatal(err)
				}
				if got := callText(t, clients[tc.first], "hold", map[string]any{"gate": gate}); got != "held" {
					t.Fatalf("%s's first call = %q", tc.first, got)
				}
				got := callText(t, clients["A"], "ask", map[string]any{"who": "alice", "kind": kind})
				if !strings.HasPrefix(got, tc.want) {
					t.Errorf("A's question came back %q, want %q…", got, tc.want)
				}
				if tc.first == "B" && !strings.Contains(got, "call the tool again in") {
					t.Errorf("refused with %q, want it to say when to call again", got)
				}
				if s := a.seen(); tc.first == "A" && len(s) != 1 || tc.first == "B" && len(s) != 0 {
					t.Errorf("A was asked %q", s)
				}
				if s := b.seen(); len(s) != 0 {
					t.Errorf("B was asked %q", s)
				}
			})
		}
	}
}

// TestQuestionMovesToTheClientsNextCall: a question tied to a 2026-07-28
// client with two calls running on the server waits to be put on the
// oldest call's relay; when that call's result goes out first (its relay
// takes no more questions), the question is put on the client's next
// call instead and answered there. When every call's relay is done, it
// is refused at once, not kept.
func TestQuestionMovesToTheClientsNextCall(t *testing.T) {
	g := New(router.New(router.Options{}), Options{Version: "test"})
	app := &stdioSession{id: "app"} // the client, as one attached app's session
	caps := mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapability{Form: &struct{}{}}}
	var calls []*relay
	for range 2 {
		r := &relay{caps: caps, party: app, asks: make(chan question), over: make(chan struct{}), waiting: map[string]question{}}
		_, done := g.upstream(context.WithValue(t.Context(), relayKey{}, r), "up")
		t.Cleanup(done)
		calls = append(calls, r)
	}
	req := mcp.ElicitationRequest{}
	req.Params.Message = "which call?"
	type answer struct {
		res *mcp.ElicitationResult
		err error
	}
	got := make(chan answer, 1)
	go func() {
		res, err := g.Elicit(t.Context(), "up", req)
		got <- answer{res, err}
	}()
	mcptest.Within(t, 20*time.Second, "the question waiting for the oldest call", func() error {
		g.origins.mu.Lock()
		defer g.origins.mu.Unlock()
		if g.origins.bySession[app] != 1 {
			return fmt.Errorf("%d questions of the client wait", g.origins.bySession[app])
		}
		return nil
	})
	calls[0].end() // its result went out before the question was put
	q := within(t, calls[1].asks, "the question on the next call")
	q.answer <- mcp.InputResponse{Elicitation: &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept}}}
	if a := within(t, got, "the answer"); a.err != nil || a.res.Action != mcp.ElicitationResponseActionAccept {
		t.Errorf("Elicit = %+v, %v; want the answer given on the next call", a.res, a.err)
	}

	calls[1].end()
	if _, err := g.Elicit(t.Context(), "up", req); err == nil || !strings.Contains(err.Error(), "ended before it could be put to it") {
		t.Errorf("with every call's relay done, Elicit = %v; want it refused", err)
	}
}
