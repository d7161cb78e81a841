package gui

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/zalando/go-keyring"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/app/cli"
	"github.com/switchboard-app/switchboard/app/datadir"
	"github.com/switchboard-app/switchboard/app/history"
	"github.com/switchboard-app/switchboard/app/host"
	"github.com/switchboard-app/switchboard/app/secrets"
	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/oauth"
	"github.com/switchboard-app/switchboard/mcpmanager/oauth/oauthtest"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

// TestParity drives one use case through both front doors — the window's
// bound methods and the CLI — on the same kind of data dir, and checks that
// both report the same, expected, result. (serve has no window: it
// compares the CLI's two transports.)
func TestParity(t *testing.T) {
	tests := []struct {
		name string
		run  func(t *testing.T)
	}{
		{"test connection offers the workspace as roots", parityTestConnection},
		{"login to an OAuth-protected server", parityLogin},
		{"a chat turn that calls a tool", parityChatTurn},
		{"serve over stdio and HTTP answers a URL elicitation", parityServe},
	}
	for _, tt := range tests {
		t.Run(tt.name, tt.run)
	}
}

// parityWindowOn opens the window's front door on dir, prepared beforehand, the
// way window(t) does.
func parityWindowOn(t *testing.T, dir datadir.Dir) *Window {
	t.Helper()
	a := New(context.Background(), dir)
	a.emit = func(ServerView) {}
	a.emitHook = func(string, any) {}
	_ = a.Ready()
	a.Startup(context.Background())
	t.Cleanup(func() { a.close(context.Background()) })
	return a
}

// parityDataDir is a fresh, ensured data dir.
func parityDataDir(t *testing.T) datadir.Dir {
	t.Helper()
	dir := datadir.Dir(t.TempDir())
	if err := dir.Ensure(); err != nil {
		t.Fatal(err)
	}
	return dir
}

// parityJSON is v as indented JSON, for comparing and showing.
func parityJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// 1. Test connection: both doors run host Servers.Test, which offers a
// server whose arguments name no folder the workspace as its roots.
func parityTestConnection(t *testing.T) {
	bin := proctest.Server(t, "rootsserver")
	a, dir := window(t)
	chosen := filepath.Join(t.TempDir(), "project")
	if _, err := a.WorkspacePage.SetWorkspaceRoot(chosen); err != nil {
		t.Fatal(err)
	}
	terminal(t, dir, "", "servers", "add", "roots", "--", bin)
	if err := a.h.Servers.Load(); err != nil { // the window reloads what the CLI saved
		t.Fatal(err)
	}

	w, err := a.ServersPage.TestServer("roots")
	if err != nil {
		t.Fatalf("window TestServer: %v", err)
	}
	var c host.TestReport
	out := terminal(t, dir, "", "servers", "test", "roots", "--json")
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatalf("servers test --json: %v\n%s", err, out)
	}
	untimed := func(r host.TestReport) host.TestReport {
		r.TotalMs = 0
		r.Steps = slices.Clone(r.Steps)
		for i := range r.Steps {
			r.Steps[i].Ms = 0
		}
		return r
	}
	wj, cj := parityJSON(t, untimed(w)), parityJSON(t, untimed(c))
	if wj != cj {
		t.Fatalf("the doors' test reports differ (timings left out; - window, + cli):\n%s", parityDiff(wj, cj))
	}
	// Both agree; now what they agree on must be right.
	var steps []string
	for _, s := range c.Steps {
		steps = append(steps, s.Name+"="+s.Error)
	}
	wantRoots := fmt.Sprintf("roots: [%q]", supervisor.FileURI(chosen))
	if !c.OK || c.Failed != "" || !slices.Equal(steps, []string{"start=", "initialize=", "tools/list="}) ||
		c.ServerName != "rootsserver" || c.Transport != "stdio" || !slices.Equal(c.Tools, []string{"roots"}) {
		t.Fatalf("test report: %s", cj)
	}
	if !slices.Contains(c.Stderr, wantRoots) {
		t.Fatalf("the server was not offered the chosen workspace: stderr %q, want the line %q", c.Stderr, wantRoots)
	}
}

// 2. Login: the window's LoginServer and 'servers login' log in to the
// same kind of OAuth-protected server and report the same state and tools.
func parityLogin(t *testing.T) {
	oauthtest.FollowRedirects(t)
	type result struct {
		State string `json:"state"`
		Tools int    `json:"tools"`
	}
	login := func(door string) (result, *oauthtest.Server, string) {
		srv := oauthtest.New(t)
		_ = keyring.Delete(secrets.Service, oauth.KeyFor("locked")) // each door logs in from nothing
		dir := parityDataDir(t)
		terminal(t, dir, "", "servers", "add", "locked", "--url", srv.URL)
		if door == "window" {
			a := parityWindowOn(t, dir)
			v, err := a.ServersPage.LoginServer("locked")
			if err != nil {
				t.Fatalf("window LoginServer: %v", err)
			}
			return result{v.State, v.ToolCount}, srv, keyringIn(t, dir, oauth.KeyFor("locked"))
		}
		out := terminal(t, dir, "", "servers", "login", "locked", "--json")
		var r result
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("servers login --json: %v\n%s", err, out)
		}
		return r, srv, keyringIn(t, dir, oauth.KeyFor("locked"))
	}
	w, wsrv, wkept := login("window")
	c, csrv, ckept := login("cli")
	if w != c {
		t.Fatalf("the doors disagree after login: window %+v, cli %+v", w, c)
	}
	if w != (result{string(supervisor.Ready), 1}) {
		t.Fatalf("after login both report %+v, want ready with 1 tool (whoami)", w)
	}
	for door, got := range map[string]struct {
		srv  *oauthtest.Server
		kept string
	}{"window": {wsrv, wkept}, "cli": {csrv, ckept}} {
		if got.srv.Logins() != 1 || got.srv.Token() == "" || !strings.Contains(got.kept, got.srv.Token()) {
			t.Errorf("%s: %d logins, keyring holds %q, want the one token %q", door, got.srv.Logins(), got.kept, got.srv.Token())
		}
	}
}

// 3. A chat turn: the same settings (a system prompt, a tool denied), a
// configured server, the same scripted model calling two tools (a
// built-in's and the server's, which says the roots it was offered); both
// doors must send the model the same requests (system prompt, tools
// offered, the tools' results) and end with the same answer.
func parityChatTurn(t *testing.T) {
	bin := proctest.Server(t, "rootsserver")
	llm := providertest.NewServer(t)
	dir := parityDataDir(t)
	const system = "You are the parity test's assistant. Answer in one sentence."
	const denied = "workspace__execute_shell"
	s := chat.Settings{System: system, Policies: chat.Policies{denied: chat.PolicyDeny}}
	if err := s.Put(chat.ProviderSettings{Name: "Fake", Kind: provider.KindOpenAI, BaseURL: llm.URL(provider.KindOpenAI), DefaultModel: "m1"}); err != nil {
		t.Fatal(err)
	}
	raw, err := s.Into(nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := config.Edit(t.Context(), dir.Config(), func(c *config.Config) error { c.Settings = raw; return nil }); err != nil {
		t.Fatal(err)
	}
	terminal(t, dir, "", "servers", "add", "roots", "--", bin)
	if err := os.WriteFile(filepath.Join(dir.Workspace(), "note.md"), []byte("The parity note says hello."), 0o600); err != nil {
		t.Fatal(err)
	}
	const prompt = "What does note.md say?"
	script := func() {
		llm.Enqueue(
			providertest.Reply{ToolCalls: []providertest.ToolCall{
				{ID: "call_1", Name: "workspace__read_file", Arguments: `{"path":"note.md"}`},
				{ID: "call_2", Name: "roots__roots", Arguments: `{}`},
			}},
			providertest.Reply{Text: "It says hello."},
		)
	}
	type chatTurn struct {
		Text   string
		Status string
		Calls  []string // name args status
	}

	// The window: a new chat with the default provider, one message, once
	// the configured server is ready (as the CLI waits for it).
	a := parityWindowOn(t, dir)
	mcptest.Until(t, "the roots server in the window", func() bool { return state(a, "roots") == string(supervisor.Ready) })
	script()
	cv, err := a.ChatPage.NewChat("", "")
	if err != nil {
		t.Fatal(err)
	}
	if err := a.ChatPage.SendMessage(cv.ID, prompt); err != nil {
		t.Fatal(err)
	}
	var msgs []host.MessageView
	mcptest.Until(t, "the window's turn to end", func() bool {
		msgs, _ = a.ChatPage.ChatMessages(cv.ID)
		return len(msgs) > 0 && msgs[len(msgs)-1].Role == "assistant" && msgs[len(msgs)-1].Status != "streaming" &&
			msgs[len(msgs)-1].Text != "" && !a.h.Chats.Running(cv.ID)
	})
	var w chatTurn
	for _, m := range msgs[1:] {
		for _, tc := range m.ToolCalls {
			w.Calls = append(w.Calls, tc.Name+" "+parityCompact(t, tc.Args)+" "+tc.Status)
		}
	}
	w.Text, w.Status = msgs[len(msgs)-1].Text, msgs[len(msgs)-1].Status
	windowBodies := llm.Requests()

	// The CLI: the same data dir (the window still open), the same prompt.
	script()
	out := terminal(t, dir, "", "chat", "--json", prompt)
	var cres struct {
		ChatID    string             `json:"chatId"`
		Text      string             `json:"text"`
		Status    string             `json:"status"`
		ToolCalls []history.ToolCall `json:"toolCalls"`
	}
	if err := json.Unmarshal([]byte(out), &cres); err != nil {
		t.Fatalf("chat --json: %v\n%s", err, out)
	}
	c := chatTurn{Text: cres.Text, Status: cres.Status}
	// --json lists the tool calls of the whole turn, as the window's chat
	// shows them (they were in the turn's first answer, not its last).
	for _, tc := range cres.ToolCalls {
		c.Calls = append(c.Calls, tc.Tool+" "+parityCompact(t, string(tc.Arguments))+" "+tc.Status)
	}
	cliBodies := llm.Requests()[len(windowBodies):]

	if parityJSON(t, w) != parityJSON(t, c) {
		t.Fatalf("the doors' turns differ:\nwindow: %s\ncli:    %s", parityJSON(t, w), parityJSON(t, c))
	}
	want := chatTurn{Text: "It says hello.", Status: "complete", Calls: []string{`workspace__read_file {"path":"note.md"} done`, `roots__roots {} done`}}
	if parityJSON(t, w) != parityJSON(t, want) {
		t.Fatalf("both doors' turn: %s\nwant %s", parityJSON(t, w), parityJSON(t, want))
	}

	// What the model was sent: the same, request by request.
	if len(windowBodies) != 2 || len(cliBodies) != 2 {
		t.Fatalf("the model got %d requests from the window and %d from the CLI, want 2 each", len(windowBodies), len(cliBodies))
	}
	for i := range windowBodies {
		wb, cb := parityRequest(t, windowBodies[i]), parityRequest(t, cliBodies[i])
		if wb != cb {
			t.Errorf("request %d to the model differs (- window, + cli):\n%s", i+1, parityDiff(wb, cb))
		}
	}
	// And it is what the settings say: their system prompt, the workspace
	// tools offered, the tool's result sent back.
	var second struct {
		Messages []struct {
			Role    string `json:"role"`
			Content any    `json:"content"`
		} `json:"messages"`
		Tools []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(cliBodies[1], &second); err != nil {
		t.Fatal(err)
	}
	var tools []string
	for _, tl := range second.Tools {
		tools = append(tools, tl.Function.Name)
	}
	var results []string
	for _, m := range second.Messages {
		if m.Role == "tool" {
			results = append(results, fmt.Sprint(m.Content))
		}
	}
	wantResults := []string{"The parity note says hello.", fmt.Sprintf("[%q]", supervisor.FileURI(dir.Workspace()))}
	if len(second.Messages) == 0 || second.Messages[0].Role != "system" || fmt.Sprint(second.Messages[0].Content) != system ||
		!slices.Contains(tools, "workspace__read_file") || !slices.Contains(tools, "roots__roots") || slices.Contains(tools, denied) ||
		!slices.Equal(results, wantResults) {
		first := any(nil)
		if len(second.Messages) > 0 {
			first = second.Messages[0]
		}
		t.Fatalf("the model's second request: first message %+v, tools %v, tool results %q;\nwant the system prompt %q, roots__roots and workspace__read_file offered, %s not, tool results %q",
			first, tools, results, system, denied, wantResults)
	}
}

// parityDiff shows where two multi-line texts differ: the lines from the
// first difference to the last, with three lines of context ("-" a's,
// "+" b's).
func parityDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	first := 0
	for first < len(al) && first < len(bl) && al[first] == bl[first] {
		first++
	}
	ae, be := len(al), len(bl)
	for ae > first && be > first && al[ae-1] == bl[be-1] {
		ae--
		be--
	}
	var out strings.Builder
	for i := max(0, first-3); i < first; i++ {
		out.WriteString("  " + al[i] + "\n")
	}
	for _, l := range al[first:ae] {
		out.WriteString("- " + l + "\n")
	}
	for _, l := range bl[first:be] {
		out.WriteString("+ " + l + "\n")
	}
	for i := ae; i < min(len(al), ae+3); i++ {
		out.WriteString("  " + al[i] + "\n")
	}
	return out.String()
}

func parityCompact(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		t.Fatalf("not JSON: %q: %v", s, err)
	}
	return b.String()
}

// parityRequest is a request body as indented JSON (keys sorted). The
// tool call ids are the script's, and nothing else in a request is made up
// per chat, so the doors' bodies compare as they are.
func parityRequest(t *testing.T, body json.RawMessage) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("request body: %v\n%s", err, body)
	}
	return parityJSON(t, v)
}

// 4. serve: one URL-elicitation server behind 'switchboard serve', called
// through an MCP client over stdio and over Streamable HTTP; the client
// answers the URL elicitations (it opens the link, as a browser would).
func parityServe(t *testing.T) {
	bin := proctest.Server(t, "urlserver")
	type outcome struct {
		Seen    []string // the elicitations the client was shown
		Results []string // each tool's result
	}
	serveDir := func() datadir.Dir {
		dir := parityDataDir(t)
		terminal(t, dir, "", "servers", "add", "links", "--", bin)
		return dir
	}
	drive := func(transportName string, cl *client.Client, u *parityLinkUser) outcome {
		t.Helper()
		parityWaitTool(t, cl, "links__needs_link")
		var o outcome
		for _, tool := range []string{"links__needs_link", "links__open_link"} {
			req := mcp.CallToolRequest{}
			req.Params.Name = tool
			req.Params.Arguments = map[string]any{}
			ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
			res, err := cl.CallTool(ctx, req)
			cancel()
			if err != nil {
				t.Fatalf("%s: call %s: %v", transportName, tool, err)
			}
			// The server's port differs from one serve to the other.
			o.Results = append(o.Results, parityPort.ReplaceAllString(parityJSON(t, res), "127.0.0.1:PORT"))
		}
		o.Seen = u.shown()
		return o
	}

	// stdio: cli.Run with pipes.
	su := &parityLinkUser{}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int, 1)
	stdioDir := serveDir()
	go func() {
		done <- cli.Run(t.Context(), []string{"--data-dir", stdioDir.String(), "serve"}, cli.Env{Stdin: inR, Stdout: outW, Stderr: io.Discard})
		outW.Close()
	}()
	scl := client.NewClient(transport.NewIO(bufio.NewReader(outR), inW, nil), client.WithElicitationHandler(su))
	var stdioOnce sync.Once
	stopStdio := func() {
		stdioOnce.Do(func() {
			scl.Close()
			inW.Close()
			select {
			case code := <-done:
				if code != 0 {
					t.Errorf("serve (stdio) exit %d", code)
				}
			case <-time.After(20 * time.Second):
				t.Error("serve (stdio) did not stop at the end of its input")
			}
		})
	}
	t.Cleanup(stopStdio) // also when the test fails half-way
	parityInitialize(t, "stdio", scl)
	stdio := drive("stdio", scl, su)
	stopStdio()

	// HTTP: serve --http 127.0.0.1:0 with the token from the environment.
	endpoint, stopServe := startServeHTTP(t, serveDir(), "parity-token-0123456789")
	var hcl *client.Client
	var httpOnce sync.Once
	stopHTTP := func() {
		httpOnce.Do(func() {
			if hcl != nil {
				hcl.Close()
			}
			stopServe()
		})
	}
	t.Cleanup(stopHTTP)
	hu := &parityLinkUser{}
	tr, err := transport.NewStreamableHTTP(endpoint, transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer parity-token-0123456789"}), transport.WithContinuousListening())
	if err != nil {
		t.Fatal(err)
	}
	hcl = client.NewClient(tr, client.WithElicitationHandler(hu))
	parityInitialize(t, "http", hcl)
	overHTTP := drive("http", hcl, hu)
	stopHTTP()

	sj, hj := parityJSON(t, stdio), parityJSON(t, overHTTP)
	if sj != hj {
		t.Fatalf("serve's transports differ (- stdio, + http):\n%s", parityDiff(sj, hj))
	}
	want := outcome{
		Seen: []string{
			"url err-1 /connect?id=err-1 retries=true Authorize Example to read your files.",
			"url req-1 /connect?id=req-1 retries=false Connect your Example account to continue.",
		},
		Results: []string{parityToolText(t, "linked: visited=true"), parityToolText(t, "action=accept")},
	}
	if wj := parityJSON(t, want); sj != wj {
		t.Fatalf("both transports: %s\nwant %s", sj, wj)
	}
}

var parityPort = regexp.MustCompile(`127\.0\.0\.1:\d+`)

// parityToolText is the JSON of a successful CallToolResult with one text.
func parityToolText(t *testing.T, text string) string {
	t.Helper()
	return parityJSON(t, mcp.NewToolResultText(text))
}

// startServeHTTP runs 'switchboard serve --http 127.0.0.1:0' on dir with
// token as its bearer token, and returns its endpoint and a stop that
// checks it exits cleanly.
func startServeHTTP(t *testing.T, dir datadir.Dir, token string) (endpoint string, stop func()) {
	t.Helper()
	t.Setenv("SWITCHBOARD_SERVE_TOKEN", token)
	ctx, cancel := context.WithCancel(t.Context())
	var errb parityBuffer
	done := make(chan int, 1)
	go func() {
		done <- cli.Run(ctx, []string{"--data-dir", dir.String(), "serve", "--http", "127.0.0.1:0"}, cli.Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &errb})
	}()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			select {
			case code := <-done:
				if code != 0 {
					t.Errorf("serve --http exit %d: %s", code, errb.String())
				}
			case <-time.After(20 * time.Second):
				t.Error("serve --http did not stop")
			}
		})
	}
	t.Cleanup(stop)
	addrRe := regexp.MustCompile(`Streamable HTTP at (http://127\.0\.0\.1:\d+/mcp)\n`)
	var url string
	mcptest.UntilNil(t, "serve --http to start", func() error {
		m := addrRe.FindStringSubmatch(errb.String())
		if m == nil {
			return fmt.Errorf("its stderr: %s", errb.String())
		}
		url = m[1]
		return nil
	})
	return url, stop
}

func parityInitialize(t *testing.T, name string, cl *client.Client) {
	t.Helper()
	if err := cl.Start(t.Context()); err != nil {
		t.Fatalf("%s: start: %v", name, err)
	}
	init := mcp.InitializeRequest{}
	// Both transports as a 2025-11-25 client, which takes the server's
	// requests on its session; a 2026-07-28 client gets them as
	// input_required results (TestServeRelaysInputRequired).
	init.Params.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
	init.Params.Capabilities.Elicitation = &mcp.ElicitationCapability{Form: &struct{}{}, URL: &struct{}{}}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	if _, err := cl.Initialize(ctx, init); err != nil {
		t.Fatalf("%s: initialize: %v", name, err)
	}
}

// parityWaitTool lists the tools until name is there (servers start after serve
// answers initialize).
func parityWaitTool(t *testing.T, cl *client.Client, name string) {
	t.Helper()
	mcptest.UntilNil(t, "tool "+name, func() error {
		ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
		defer cancel()
		res, err := cl.ListTools(ctx, mcp.ListToolsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(res.Tools, func(tl mcp.Tool) bool { return tl.Name == name }) {
			return fmt.Errorf("tools %+v", res.Tools)
		}
		return nil
	})
}

// parityLinkUser is the person at the MCP client: shown a URL elicitation, they
// open the link (a GET, as the browser would) and say they are done.
type parityLinkUser struct {
	mu   sync.Mutex
	seen []string
}

func (u *parityLinkUser) Elicit(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	p := req.Params
	retries := p.Meta != nil && p.Meta.AdditionalFields[router.RetryMeta] == true
	path := p.URL
	if parsed, err := url.Parse(p.URL); err == nil {
		path = parsed.RequestURI() // the server's port differs from run to run
	}
	u.mu.Lock()
	u.seen = append(u.seen, fmt.Sprintf("%s %s %s retries=%v %s", p.Mode, p.ElicitationID, path, retries, p.Message))
	u.mu.Unlock()
	if p.Mode == mcp.ElicitationModeURL {
		hreq, err := http.NewRequestWithContext(ctx, http.MethodGet, p.URL, nil)
		if err != nil {
			return nil, err
		}
		res, err := http.DefaultClient.Do(hreq)
		if err != nil {
			return nil, err
		}
		res.Body.Close()
	}
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept}}, nil
}

func (u *parityLinkUser) shown() []string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return slices.Clone(u.seen)
}

// parityBuffer is a bytes.Buffer safe to read while cli.Run writes to it.
type parityBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *parityBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *parityBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }
