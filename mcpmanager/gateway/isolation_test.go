package gateway

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/mcpmanager/router"
	"github.com/switchboard-app/switchboard/mcpmanager/wire"
)

// party is a client's user and model: it answers forms with its own PIN
// and sampling requests with its own model, and records what it was asked.
type party struct {
	name string
	// hold, when set, keeps every question unanswered until it closes;
	// asked gets each question as it arrives.
	hold  chan struct{}
	asked chan string

	mu  sync.Mutex
	saw []string
}

func newParty(name string) *party { return &party{name: name, asked: make(chan string, 64)} }

func (p *party) note(q string) {
	p.mu.Lock()
	p.saw = append(p.saw, q)
	p.mu.Unlock()
	p.asked <- q
	if p.hold != nil {
		<-p.hold
	}
}

func (p *party) seen() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.saw...)
}

func (p *party) Elicit(_ context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	p.note(req.Params.Message)
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept,
		Content: map[string]any{"pin": p.name + "-1234"}}}, nil
}

func (p *party) CreateMessage(_ context.Context, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	prompt := textOf(req.Messages[0].Content)
	p.note(prompt)
	return &mcp.CreateMessageResult{Model: p.name + "-model", StopReason: "endTurn",
		SamplingMessage: mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: mcp.NewTextContent(p.name + "'s model read: " + prompt)}}, nil
}

// textOf is the text of a message's content, decoded (mcp.TextContent) or
// as it came in a relayed input request (a map).
func textOf(content any) string {
	switch c := content.(type) {
	case mcp.TextContent:
		return c.Text
	case map[string]any:
		text, _ := c["text"].(string)
		return text
	}
	return fmt.Sprint(content)
}

// gates are named channels the upstream's hold tool waits on.
type gates struct {
	mu sync.Mutex
	m  map[string]chan struct{}
}

func (g *gates) get(name string) chan struct{} {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.m == nil {
		g.m = map[string]chan struct{}{}
	}
	if g.m[name] == nil {
		g.m[name] = make(chan struct{})
	}
	return g.m[name]
}

// questioner is an upstream whose tools ask: "pin" a form, "prompt" a
// sampling request with a secret prompt, "flood" n forms at once (each
// refusal also goes to refused); "hold" runs until its gate opens (started
// gets its gate's name once it runs).
func questioner(started, refused chan string, gs *gates) *server.MCPServer {
	s := server.NewMCPServer("up", "1", server.WithToolCapabilities(true))
	s.EnableSampling()
	form := func(ctx context.Context) (string, error) {
		req := mcp.ElicitationRequest{}
		req.Params.Message = "enter your PIN"
		req.Params.RequestedSchema = map[string]any{"type": "object", "properties": map[string]any{"pin": map[string]any{"type": "string"}}}
		res, err := s.RequestElicitation(ctx, req)
		if err != nil {
			return "", err
		}
		pin, _ := res.Content.(map[string]any)["pin"].(string)
		return pin, nil
	}
	s.AddTool(mcp.NewTool("pin"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		pin, err := form(ctx)
		if err != nil {
			return mcp.NewToolResultError("elicitation: " + err.Error()), nil
		}
		return mcp.NewToolResultText("pin: " + pin), nil
	})
	s.AddTool(mcp.NewTool("prompt"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		req := mcp.CreateMessageRequest{}
		req.Messages = []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent("the secret prompt")}}
		req.MaxTokens = 10
		res, err := s.RequestSampling(ctx, req)
		if err != nil {
			return mcp.NewToolResultError("sampling: " + err.Error()), nil
		}
		return mcp.NewToolResultText(textOf(res.Content)), nil
	})
	s.AddTool(mcp.NewTool("flood", mcp.WithNumber("n")), func(ctx context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		n := r.GetInt("n", 1)
		errs := make(chan error, n)
		for range n {
			go func() {
				_, err := form(ctx)
				if err != nil {
					refused <- err.Error()
				}
				errs <- err
			}()
		}
		answered := 0
		for range n {
			if <-errs == nil {
				answered++
			}
		}
		return mcp.NewToolResultText(fmt.Sprintf("%d answered", answered)), nil
	})
	s.AddTool(mcp.NewTool("hold", mcp.WithString("gate")), func(ctx context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		gate := r.GetString("gate", "")
		started <- gate
		select {
		case <-gs.get(gate):
		case <-ctx.Done():
		}
		return mcp.NewToolResultText("held"), nil
	})
	return s
}

// questionerGateway is a gateway in front of questioner, reached over
// transport ("in-process", whose requests carry the call's context, or
// "stdio": serve's own transport to a server process, whose requests carry
// none), its questions handed to the gateway as serve does.
func questionerGateway(t *testing.T, over string) (g *Gateway, started, refused chan string, gs *gates) {
	t.Helper()
	started, refused, gs = make(chan string, 16), make(chan string, 64), &gates{}
	reg := router.New(router.Options{})
	g = New(reg, Options{Version: "test"})
	up := questioner(started, refused, gs)
	asks := []client.ClientOption{client.WithSamplingHandler(gatewayAsHandler{g}), client.WithElicitationHandler(gatewayAsHandler{g})}
	var cl *client.Client
	switch over {
	case "in-process":
		var err error
		if cl, err = client.NewInProcessClientWithOptions(up, asks...); err != nil {
			t.Fatal(err)
		}
	case "stdio":
		upInR, upInW := io.Pipe()
		upOutR, upOutW := io.Pipe()
		ctx, cancel := context.WithCancel(context.Background())
		upDone := make(chan struct{})
		go func() {
			defer close(upDone)
			_ = server.NewStdioServer(up).Listen(ctx, upInR, upOutW)
			upOutW.Close()
		}()
		t.Cleanup(func() {
			cancel()
			upInW.Close()
			upOutR.Close()
			<-upDone
		})
		cl = client.NewClient(wire.New(upOutR, upInW), asks...)
	}
	if err := cl.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cl.Close() })
	if _, err := cl.Initialize(t.Context(), initAt(mcp.ProtocolVersion20251125)); err != nil {
		t.Fatal(err)
	}
	reg.Add(named{"up", cl})
	g.Refresh(t.Context())
	return g, started, refused, gs
}

// serveHTTP serves g over Streamable HTTP on 127.0.0.1, as 'serve --http'
// does (its requests name their connection: ConnContext); the server
// stops with the test.
func serveHTTP(t *testing.T, g *Gateway) (url, token string) {
	t.Helper()
	token = NewToken()
	srv := httptest.NewUnstartedServer(g.HTTPHandler(token))
	srv.Config.ConnContext = ConnContext
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp", token
}

// httpClient connects p over HTTP as a client of revision version
// (mcp.ProtocolVersion20260728 or an earlier one) that takes forms and
// sampling.
func httpClient(t *testing.T, url, token, version string, p *party) *client.Client {
	t.Helper()
	opts := []transport.StreamableHTTPCOption{transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + token})}
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
	return cl
}

// callText calls tool with args and returns its result's text.
func callText(t *testing.T, cl *client.Client, tool string, args map[string]any) string {
	t.Helper()
	text, err := callUp(t.Context(), cl, tool, args)
	if err != nil {
		t.Fatal(err)
	}
	return text
}

// callUp is callText for another goroutine than the test's: a call that
// fails returns its error.
func callUp(ctx context.Context, cl *client.Client, tool string, args map[string]any) (string, error) {
	req := mcp.CallToolRequest{}
	req.Params.Name = "up__" + tool
	req.Params.Arguments = args
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	res, err := cl.CallTool(ctx, req)
	if err != nil {
		return "", fmt.Errorf("%s: %w", tool, err)
	}
	if len(res.Content) == 0 {
		return "", fmt.Errorf("%s: no content in %+v", tool, res)
	}
	return res.Content[0].(mcp.TextContent).Text, nil
}

// background runs callUp on its own goroutine; the channel gets its text,
// or its error's.
func background(t *testing.T, cl *client.Client, tool string, args map[string]any) <-chan string {
	out := make(chan string, 1)
	go func() {
		text, err := callUp(t.Context(), cl, tool, args)
		if err != nil {
			text = err.Error()
		}
		out <- text
	}()
	return out
}

// within receives from ch, failing the test when nothing comes in 20 s.
func within[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(20 * time.Second):
		t.Fatalf("no %s within 20 s", what)
		panic("unreachable")
	}
}

// TestQuestionsReachOnlyTheirCaller: over 'serve --http', a server's form
// or sampling request during client B's call reaches B and no other
// client: not a 2026-07-28 client A whose own call runs on the same
// server, nor a 2025 client C connected after B (with or without a call
// running). A server on a transport that carries the call's context
// (in-process) asks B even while the other call runs; a stdio server's
// request, which names no call, reaches B when B's call is the only one
// running there and nobody otherwise. (Each case's clients are new: the
// grace after another's call ended is TestLateQuestionsReachNobody's.)
func TestQuestionsReachOnlyTheirCaller(t *testing.T) {
	noGrace(t)
	kinds := []struct {
		tool, question, answer string
	}{
		{"pin", "enter your PIN", "pin: %s-1234"},
		{"prompt", "the secret prompt", "%s's model read: the secret prompt"},
	}
	for _, over := range []string{"in-process", "stdio"} {
		t.Run(over, func(t *testing.T) {
			g, started, _, gs := questionerGateway(t, over)
			url, token := serveHTTP(t, g)
			for _, asker := range []string{mcp.ProtocolVersion20251125, mcp.ProtocolVersion20260728} {
				for _, other := range []string{"", mcp.ProtocolVersion20251125, mcp.ProtocolVersion20260728} {
					for _, k := range kinds {
						name := fmt.Sprintf("%s asks %s, other %s", asker, k.tool, other)
						if other == "" {
							name = fmt.Sprintf("%s asks %s, other idle", asker, k.tool)
						}
						t.Run(name, func(t *testing.T) {
							b := newParty("B")
							bc := httpClient(t, url, token, asker, b)
							a := newParty("A")
							ac := httpClient(t, url, token, cmpOr(other, mcp.ProtocolVersion20251125), a) // connected last
							if other != "" {
								gate := t.Name()
								held := background(t, ac, "hold", map[string]any{"gate": gate})
								if got := within(t, started, "hold call"); got != gate {
									t.Fatalf("hold started for %q", got)
								}
								defer func() {
									close(gs.get(gate))
									if got := within(t, held, "end of the hold call"); got != "held" {
										t.Errorf("A's call = %q", got)
									}
								}()
							}
							got := callText(t, bc, k.tool, nil)
							tied := other == "" || over == "in-process"
							if tied {
								if want := fmt.Sprintf(k.answer, "B"); got != want {
									t.Errorf("B's call = %q, want %q", got, want)
								}
								if s := b.seen(); len(s) != 1 || s[0] != k.question {
									t.Errorf("B was asked %q, want %q once", s, k.question)
								}
							} else {
								if !strings.Contains(got, "while calls from more than one app or chat were running on it") {
									t.Errorf("B's call = %q, want the question refused as not tied to one call", got)
								}
								if s := b.seen(); len(s) != 0 {
									t.Errorf("B was asked %q", s)
								}
							}
							if s := a.seen(); len(s) != 0 {
								t.Errorf("A, whose call did not ask, was asked %q", s)
							}
						})
					}
				}
			}
		})
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// TestQuestionsAreCapped: questions waiting for a client's answer are
// bounded per session and per server; one past either is refused at once
// with ErrTooManyQuestions, the others still reach their client.
func TestQuestionsAreCapped(t *testing.T) {
	oldServer, oldSession := MaxQuestionsPerServer, MaxQuestionsPerSession
	MaxQuestionsPerServer, MaxQuestionsPerSession = 3, 2
	t.Cleanup(func() { MaxQuestionsPerServer, MaxQuestionsPerSession = oldServer, oldSession })
	g, _, refused, _ := questionerGateway(t, "in-process")
	url, token := serveHTTP(t, g)

	t.Run("per session", func(t *testing.T) {
		b := newParty("B")
		b.hold = make(chan struct{})
		bc := httpClient(t, url, token, mcp.ProtocolVersion20251125, b)
		res := background(t, bc, "flood", map[string]any{"n": 5})
		for range 2 {
			within(t, b.asked, "question to B")
		}
		for range 3 {
			if why := within(t, refused, "refusal"); !strings.Contains(why, "at most 2 per session") {
				t.Errorf("refused with %q", why)
			}
		}
		close(b.hold)
		if got := within(t, res, "flood result"); got != "2 answered" {
			t.Errorf("flood = %q", got)
		}
	})

	t.Run("per server", func(t *testing.T) {
		hold := make(chan struct{})
		var res []<-chan string
		var ps []*party
		for _, name := range []string{"B", "C"} {
			p := newParty(name)
			p.hold = hold
			c := httpClient(t, url, token, mcp.ProtocolVersion20251125, p)
			res, ps = append(res, background(t, c, "flood", map[string]any{"n": 2})), append(ps, p)
		}
		// Four questions, at most three waiting: exactly one refused.
		asked := 0
		for asked < 3 {
			select {
			case <-ps[0].asked:
				asked++
			case <-ps[1].asked:
				asked++
			case <-time.After(20 * time.Second):
				t.Fatalf("%d questions asked within 20 s, want 3", asked)
			}
		}
		if why := within(t, refused, "refusal"); !strings.Contains(why, "at most 3 per server") {
			t.Errorf("refused with %q", why)
		}
		close(hold)
		total := 0
		for _, r := range res {
			var n int
			if _, err := fmt.Sscanf(within(t, r, "flood result"), "%d answered", &n); err != nil {
				t.Fatal(err)
			}
			total += n
		}
		if total != 3 {
			t.Errorf("%d answered, want 3", total)
		}
	})
}

// TestUntiedQuestionsReachNobody: a question asked outside any client's
// call is ErrNoClient (serve declines it); one asked on a stdio-like
// transport while calls of two clients run is ErrNotTied. While two calls
// of one client run (side by side, as Claude Code makes them) it is that
// client's, whichever call asked.
func TestUntiedQuestionsReachNobody(t *testing.T) {
	g, started, _, gs := questionerGateway(t, "stdio")
	if _, err := g.Elicit(t.Context(), "up", mcp.ElicitationRequest{}); !errors.Is(err, ErrNoClient) {
		t.Errorf("a question outside any call: %v, want ErrNoClient", err)
	}
	url, token := serveHTTP(t, g)
	a, b := newParty("A"), newParty("B")
	ac := httpClient(t, url, token, mcp.ProtocolVersion20251125, a)
	bc := httpClient(t, url, token, mcp.ProtocolVersion20251125, b)
	hold := func(cl *client.Client, gate string) <-chan string {
		d := background(t, cl, "hold", map[string]any{"gate": gate})
		within(t, started, "hold call")
		return d
	}
	done := []<-chan string{hold(ac, "one"), hold(ac, "two")}
	sampling := mcp.CreateMessageRequest{}
	sampling.Messages = []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent("which call?")}}
	if res, err := g.CreateMessage(t.Context(), "up", sampling); err != nil || res.Model != "A-model" {
		t.Errorf("a question during two calls of one client: %+v, %v; want it asked of that client", res, err)
	}
	done = append(done, hold(bc, "three"))
	if _, err := g.CreateMessage(t.Context(), "up", sampling); !errors.Is(err, ErrNotTied) {
		t.Errorf("a question during calls of two clients: %v, want ErrNotTied", err)
	}
	for _, gate := range []string{"one", "two", "three"} {
		close(gs.get(gate))
	}
	for _, d := range done {
		within(t, d, "hold result")
	}
	if s := b.seen(); len(s) != 0 {
		t.Errorf("B, whose calls did not ask, was asked %q", s)
	}
}
