package gateway

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/codemode"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

func TestMain(m *testing.M) {
	codemode.MaybeChild() // scripts run in this test binary, re-executed
	proctest.Main(m, nil) // removes the test servers it built
}

// npmSource is the pinned memory server from npm, over stdio.
type npmSource struct{ cl *client.Client }

func (s npmSource) Name() string                   { return "memory" }
func (s npmSource) Client() (router.Client, error) { return s.cl, nil }
func (s npmSource) CallTimeout() time.Duration     { return 0 }

func memoryServer(t *testing.T) npmSource {
	t.Helper()
	cl, err := client.NewStdioMCPClient(proctest.NPM(t, "mcp-server-memory"), []string{"MEMORY_FILE_PATH=" + filepath.Join(t.TempDir(), "memory.jsonl")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cl.Close() })
	if _, err := cl.Initialize(t.Context(), initAt(mcp.LATEST_PROTOCOL_VERSION)); err != nil {
		t.Fatal(err)
	}
	return npmSource{cl}
}

// answerer answers the gateway's elicitations with action (after wait),
// and counts them.
type answerer struct {
	action mcp.ElicitationResponseAction
	asked  chan string
	wait   time.Duration
}

func (a answerer) Elicit(_ context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	a.asked <- req.Params.Message
	time.Sleep(a.wait)
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: a.action}}, nil
}

// codeSession serves a gateway in code mode (code) over the memory server
// to a client on stdio, which answers elicitations when ans is set.
func codeSession(t *testing.T, code string, decide DecideFunc, lim codemode.Limits, ans *answerer) *client.Client {
	t.Helper()
	reg := router.New(router.Options{})
	reg.Add(memoryServer(t))
	g := New(reg, Options{Code: code, Decide: decide, CodeLimits: lim})
	g.Refresh(t.Context())
	return serveTo(t, g, ans)
}

// serveTo serves g to a client on stdio, which answers elicitations when
// ans is set.
func serveTo(t *testing.T, g *Gateway, ans *answerer) *client.Client {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() {
		served <- g.ServeStdio(ctx, inR, outW)
		outW.Close()
	}()
	var opts []client.ClientOption
	if ans != nil {
		opts = append(opts, client.WithElicitationHandler(*ans))
	}
	c := client.NewClient(transport.NewIO(bufio.NewReader(outR), inW, nil), opts...)
	if err := c.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	init := initAt("2025-06-18")
	if ans != nil {
		init.Params.Capabilities.Elicitation = &mcp.ElicitationCapability{}
	}
	if _, err := c.Initialize(t.Context(), init); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c.Close()
		inW.Close()
		cancel()
		<-served
	})
	return c
}

func runScript(t *testing.T, c *client.Client, script string) (string, bool) {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = codemode.RunScriptName, map[string]any{"script": script}
	res, err := c.CallTool(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, p := range res.Content {
		if tc, ok := p.(mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError
}

func listedNames(t *testing.T, c *client.Client) []string {
	t.Helper()
	list, err := c.ListTools(t.Context(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range list.Tools {
		names = append(names, tl.Name)
	}
	slices.Sort(names)
	return names
}

// decideLikeChat is a decision as the chat's settings would make it: the
// read-only tools run, a policy denies add_observations (the tool: hidden
// from the functions) and a rule delete_entities (its calls), the rest
// ask.
func decideLikeChat(t router.Tool, args json.RawMessage) (Decision, string) {
	switch {
	case t.Tool.Name == "add_observations":
		return Deny, "the settings do not allow it"
	case args == nil:
		return Allow, ""
	case t.Tool.Name == "delete_entities":
		return Deny, "a deny rule refuses it"
	case t.Tool.Annotations.ReadOnlyHint != nil && *t.Tool.Annotations.ReadOnlyHint:
		return Allow, ""
	}
	return Ask, ""
}

const twoPeople = `
await tools.memory.create_entities({entities: [
  {name: "Ada", entityType: "person", observations: ["x"]},
  {name: "Alan", entityType: "person", observations: ["y"]},
]});
`

// TestServeCodeMode: a real MCP client session sees only code mode's three
// tools (CodeOnly) or them besides the tools (CodeBoth); its script's calls
// reach the real memory server; a call that would ask becomes one
// elicitation to the client (accepted: it runs; declined: an exception in
// the script); a denied call is an exception; a limit ends the script with
// its sentence and the next script answers.
func TestServeCodeMode(t *testing.T) {
	t.Run("code only: three tools, an ask answered yes", func(t *testing.T) {
		ans := &answerer{action: mcp.ElicitationResponseActionAccept, asked: make(chan string, 10)}
		c := codeSession(t, CodeOnly, decideLikeChat, codemode.Limits{}, ans)
		if got := listedNames(t, c); !slices.Equal(got, []string{"describe_function", "list_functions", "run_script"}) {
			t.Fatalf("tools/list = %v, want code mode's three only", got)
		}
		text, isErr := runScript(t, c, twoPeople+`
const r = await tools.memory.read_graph({});
const g = r.text !== undefined ? JSON.parse(r.text) : r;
console.log("people:", g.entities.length);
let refused = "";
try { await tools.memory.delete_entities({entityNames: ["Ada"]}); } catch (e) { refused = String(e.message || e); }
return {names: g.entities.map(e => e.name).sort(), refused};`)
		if isErr || !strings.Contains(text, "Printed:\npeople: 2") || !strings.Contains(text, `"names":["Ada","Alan"]`) {
			t.Fatalf("run_script = %v %s", isErr, text)
		}
		if !strings.Contains(text, "memory__delete_entities was refused: a deny rule refuses it") {
			t.Errorf("the denied call did not throw its reason into the script: %s", text)
		}
		if len(ans.asked) != 1 {
			t.Fatalf("the client was asked %d times, want once (create_entities; read_graph is read-only)", len(ans.asked))
		}
		if q := <-ans.asked; !strings.Contains(q, "memory__create_entities") || !strings.Contains(q, "Ada") {
			t.Errorf("the question does not name the call: %s", q)
		}
		// A direct call of a server tool is not offered in code-only mode.
		req := mcp.CallToolRequest{}
		req.Params.Name = "memory__read_graph"
		if res, err := c.CallTool(t.Context(), req); err == nil && !res.IsError {
			t.Errorf("memory__read_graph was callable directly in code-only mode")
		}
		// list_functions and describe_function describe the memory server.
		lreq := mcp.CallToolRequest{}
		lreq.Params.Name = codemode.ListFunctionsName
		res, err := c.CallTool(t.Context(), lreq)
		if err != nil || !strings.Contains(res.Content[0].(mcp.TextContent).Text, "tools.memory.create_entities") {
			t.Errorf("list_functions = %v %v", res, err)
		}
		// A tool the settings deny is no function, as in a chat.
		if listed := res.Content[0].(mcp.TextContent).Text; strings.Contains(listed, "add_observations") {
			t.Errorf("list_functions lists the denied add_observations:\n%s", listed)
		}
		if text, _ := runScript(t, c, `try { await tools.memory.add_observations({observations: []}); return "ran"; } catch (e) { return e.message; }`); !strings.Contains(text, "tools.memory.add_observations is not a function this script can call") {
			t.Errorf("calling the denied add_observations: %s", text)
		}
	})
	t.Run("the question shows the whole arguments, written out", func(t *testing.T) {
		// A name padded out of sight with a tail after it, a bidi isolate
		// and a zero-width space: the client is asked with all of it
		// visible.
		ans := &answerer{action: mcp.ElicitationResponseActionDecline, asked: make(chan string, 10)}
		c := codeSession(t, CodeOnly, decideLikeChat, codemode.Limits{}, ans)
		runScript(t, c, `try { await tools.memory.create_entities({entities: [{name: "harmless" + " ".repeat(600) + "; touch PWNED_SERVE \u2067x\u2069 ec\u200bho", entityType: "t", observations: []}]}); } catch (e) {} return 1;`)
		q := <-ans.asked
		for _, want := range []string{`harmless[600 spaces]; touch PWNED_SERVE \u2067x\u2069 ec\u200Bho`, "memory__create_entities", "Allow it?"} {
			if !strings.Contains(q, want) {
				t.Errorf("the question lacks %q:\n%s", want, q)
			}
		}
		if strings.ContainsAny(q, "\u2067\u2069\u200b") {
			t.Errorf("the question holds raw invisible characters: %q", q)
		}
	})
	t.Run("an answer slower than the wall time", func(t *testing.T) {
		// The limit leaves the child's start room (a second under -race on
		// a busy machine); the answer takes longer than all of it.
		ans := &answerer{action: mcp.ElicitationResponseActionAccept, asked: make(chan string, 10), wait: 3500 * time.Millisecond}
		c := codeSession(t, CodeOnly, decideLikeChat, codemode.Limits{WallSeconds: 3}, ans)
		if text, isErr := runScript(t, c, twoPeople+`return "ran";`); isErr || text != `"ran"` {
			t.Errorf("run_script = %v %s, want the script to run on after the answer", isErr, text)
		}
	})
	t.Run("a cut answer keeps whole characters", func(t *testing.T) {
		old := MaxScriptText
		MaxScriptText = 10
		t.Cleanup(func() { MaxScriptText = old })
		c := codeSession(t, CodeOnly, nil, codemode.Limits{}, nil)
		if text, _ := runScript(t, c, `return "éééééééé";`); !utf8.ValidString(text) || !strings.HasPrefix(text, `"éééé`+"\n[cut: ") {
			t.Errorf("run_script = %q, want 4 whole characters and the note", text)
		}
	})
	t.Run("an ask answered no, and a client that cannot be asked", func(t *testing.T) {
		for _, ans := range []*answerer{{action: mcp.ElicitationResponseActionDecline, asked: make(chan string, 10)}, nil} {
			c := codeSession(t, CodeOnly, decideLikeChat, codemode.Limits{}, ans)
			text, _ := runScript(t, c, `try {`+twoPeople+` return "ran"; } catch (e) { return "caught: " + e.message; }`)
			want := "was not allowed: the user answered decline"
			if ans == nil {
				want = "needs approval and this client cannot be asked"
			}
			if !strings.Contains(text, "caught: ") || !strings.Contains(text, want) {
				t.Errorf("run_script = %s, want the refusal %q caught", text, want)
			}
			check, _ := runScript(t, c, `const r = await tools.memory.read_graph({}); return (r.text !== undefined ? JSON.parse(r.text) : r).entities.length;`)
			if strings.TrimSpace(check) != "0" {
				t.Errorf("the refused call ran: the graph has %s entities", check)
			}
		}
	})
	t.Run("both: the tools and the three; a limit, then a script that answers", func(t *testing.T) {
		c := codeSession(t, CodeBoth, nil, codemode.Limits{CPUSeconds: 1}, nil)
		names := listedNames(t, c)
		if !slices.Contains(names, "memory__read_graph") || !slices.Contains(names, "run_script") {
			t.Fatalf("tools/list = %v, want the tools and code mode's", names)
		}
		text, isErr := runScript(t, c, `while (true) {}`)
		if !isErr || !strings.Contains(text, "CPU time limit of 1 s") {
			t.Errorf("endless loop: %v %s", isErr, text)
		}
		if text, isErr := runScript(t, c, twoPeople+`return "ok";`); isErr || text != `"ok"` {
			t.Errorf("after the limit: %v %s", isErr, text)
		}
	})
}

// TestSetCode: a running gateway's code mode changes with SetCode: the
// next Refresh publishes it (a session is sent tools/list_changed and
// lists code mode's tools), the same mode again changes nothing, and the
// next call of a script is decided by the new Decide.
func TestSetCode(t *testing.T) {
	reg := router.New(router.Options{})
	reg.Add(memoryServer(t))
	g := New(reg, Options{})
	g.Refresh(t.Context())
	c := serveTo(t, g, nil)
	changed := make(chan struct{}, 4)
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == string(mcp.MethodNotificationToolsListChanged) {
			changed <- struct{}{}
		}
	})
	if names := listedNames(t, c); !slices.Contains(names, "memory__read_graph") || slices.Contains(names, codemode.RunScriptName) {
		t.Fatalf("before SetCode: %v", names)
	}
	if !g.SetCode(CodeMode{Mode: CodeOnly}) {
		t.Fatal("SetCode(CodeOnly) on a gateway without code mode reported no change")
	}
	g.Refresh(t.Context())
	select {
	case <-changed:
	case <-t.Context().Done():
		t.Fatal("no tools/list_changed after SetCode and Refresh")
	}
	want := []string{codemode.DescribeFunctionName, codemode.ListFunctionsName, codemode.RunScriptName}
	if names := listedNames(t, c); !slices.Equal(names, want) {
		t.Fatalf("after SetCode(CodeOnly): %v, want %v", names, want)
	}
	if text, isErr := runScript(t, c, `return (await tools.memory.read_graph({})).entities.length`); isErr {
		t.Fatalf("a script with no Decide: %s", text)
	}
	deny := func(t router.Tool, args json.RawMessage) (Decision, string) {
		if args == nil {
			return Allow, "" // the tool is one; its calls are refused
		}
		return Deny, "the test says no"
	}
	if g.SetCode(CodeMode{Mode: CodeOnly, Decide: deny}) {
		t.Error("SetCode with the same mode reported a change")
	}
	if text, _ := runScript(t, c, `try { await tools.memory.read_graph({}); return "ran" } catch (e) { return "refused: " + e.message }`); !strings.Contains(text, "the test says no") {
		t.Errorf("after SetCode with a Decide that denies: %q, want the refusal", text)
	}
}

// TestApprovalQuestion: the elicitation a script's call asks shows the
// arguments written out (plain.Show) — a padded tail in sight, invisible
// and reordering characters as their codes — and when they are too long
// to show whole, their head and tail with a plain note that the approval
// covers the part not shown.
func TestApprovalQuestion(t *testing.T) {
	long := `{"text":"` + strings.Repeat("a", 3000) + `; touch PWNED"}`
	cases := []struct {
		name, args string
		want       []string
		not        []string
	}{
		{"short", `{"command":"ls"}`, []string{"A script wants to run workspace__execute_shell with {\"command\":\"ls\"}\nAllow it?"}, []string{"not shown"}},
		{"a padded command", `{"command":"echo harmless` + strings.Repeat(" ", 600) + `; touch PWNED_SERVE"}`,
			[]string{`{"command":"echo harmless[600 spaces]; touch PWNED_SERVE"}`}, []string{"not shown", "  "}},
		{"bidi and zero-width", "{\"command\":\"ls \u2067;touch PWNED_T3\u2069 # list files ec\u200bho \u202e \x1b[2J\r\"}",
			[]string{`ls \u2067;touch PWNED_T3\u2069 # list files ec\u200Bho \u202E \u001B[2J\r`}, []string{"\u2067", "\u200b", "\u202e", "\x1b", "\r"}},
		{"too long to show whole", long,
			[]string{`{"text":"aaa`, `aaa; touch PWNED"}`, "[… 1,024 characters not shown …]", "1,024 characters in the middle (of 3.0 KB in all) are not shown here; allowing it allows them too. Allow it?"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q := approvalQuestion("workspace__execute_shell", json.RawMessage(c.args))
			for _, w := range c.want {
				if !strings.Contains(q, w) {
					t.Errorf("the question lacks %q:\n%s", w, q)
				}
			}
			for _, n := range c.not {
				if strings.Contains(q, n) {
					t.Errorf("the question holds %q:\n%q", n, q)
				}
			}
		})
	}
}
