package chat_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

func codeMode(tu *chat.Turn) { tu.Tools = chat.ToolsCode }

// script is a run_script call of src.
func script(id, src string) providertest.ToolCall {
	b, _ := json.Marshal(map[string]string{"script": src})
	return call(id, chat.RunScriptName, string(b))
}

// codeOffered is the tool names of a model request.
func codeOffered(t *testing.T, body []byte) []string {
	t.Helper()
	var req struct {
		Tools []struct {
			Function struct{ Name string } `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range req.Tools {
		names = append(names, tl.Function.Name)
	}
	slices.Sort(names)
	return names
}

func TestCodeModeRunsAScriptWhoseCallsAreDecidedAsDirectOnes(t *testing.T) {
	f := newFixture(t, provider.KindOpenAI, nil)
	src := `const a = await tools.files.echo({text: "one"});
const w = await tools.files.write({path: "a.txt"});
console.log("echoed", a.text);
let failed = "";
try { await tools.files.fail({}); } catch (e) { failed = e.message; }
return {echo: a.text, wrote: w.text, failed};`
	f.llm.Enqueue(
		providertest.Reply{ToolCalls: []providertest.ToolCall{call("l1", chat.ListFunctionsName, `{}`), call("d1", chat.DescribeFunctionName, `{"functions":["tools.files.echo"]}`)}},
		providertest.Reply{ToolCalls: []providertest.ToolCall{script("s1", src)}},
		providertest.Reply{Text: "Done."},
	)
	res, err := f.send(t.Context(), "echo and write", codeMode)
	if err != nil {
		t.Fatal(err)
	}
	reqs := f.llm.Requests()
	if got := codeOffered(t, reqs[0]); !slices.Equal(got, []string{chat.DescribeFunctionName, chat.ListFunctionsName, chat.RunScriptName}) {
		t.Fatalf("code mode offered %v", got)
	}
	second := string(reqs[1])
	for _, want := range []string{"tools.files.echo — echo text", "tools.files.write — write a file", `async function tools.files.echo(args: {\n  text?: string;\n}): Promise<{ text: string;`} {
		if !strings.Contains(second, strings.ReplaceAll(strings.ReplaceAll(want, "\n", `\n`), `"`, `\"`)) {
			t.Errorf("the list and declaration lack %q:\n%s", want, second)
		}
	}
	// The model reads only what the script printed and returned.
	third := string(reqs[2])
	if !strings.Contains(third, `Printed:\necho: one`) && !strings.Contains(third, `Printed:\nechoed echo: one`) {
		t.Errorf("the third request lacks the printed line: %s", third)
	}
	if !strings.Contains(third, `\"failed\":\"disk on fire\"`) || !strings.Contains(third, `\"wrote\":\"wrote a.txt\"`) {
		t.Errorf("the third request lacks the returned value: %s", third)
	}
	// "ask" (write is destructive) was asked once, naming the script and the call.
	asked := f.appr.asked()
	if len(asked) != 1 || asked[0].Tool != "files__write" || asked[0].Parent != "s1" || asked[0].Script != src || string(asked[0].Arguments) != `{"path":"a.txt"}` {
		t.Fatalf("approvals %+v", asked)
	}
	// Each inner call is a tool card nested under the script's.
	nested := map[string]string{}
	for _, ev := range f.events(chat.EventToolCall) {
		if ev.Call.Parent == "s1" && ev.Call.Status != chat.CallPending && ev.Call.Status != chat.CallRunning {
			nested[ev.Call.Name] = ev.Call.Status
		}
	}
	if want := map[string]string{"files__echo": chat.CallDone, "files__write": chat.CallDone, "files__fail": chat.CallError}; !mapsEqual(nested, want) {
		t.Errorf("nested cards %v, want %v", nested, want)
	}
	// The stored call keeps the script's calls under it (the CLI's --json).
	last := res.ToolCalls[len(res.ToolCalls)-1]
	var out chat.ScriptResult
	var cr mcp.CallToolResult
	if err := json.Unmarshal(last.Result, &cr); err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(cr.StructuredContent)
	if err := json.Unmarshal(raw, &out); err != nil || len(out.Calls) != 3 || out.Calls[1].Tool != "files__write" || len(out.Logs) != 1 {
		t.Errorf("script result %s: %v", raw, err)
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// withhold is a Gate that withholds one tool.
type withhold string

func (w withhold) Screen(_ string, tools []mcp.Tool) []error {
	out := make([]error, len(tools))
	for i, t := range tools {
		if t.Name == string(w) {
			out[i] = errors.New("its definition changed since you trusted it")
		}
	}
	return out
}

// TestAScriptCannotGetPastADecision: a deny rule, an "ask" answered no, a
// withheld tool and a denied tool each throw inside the script, which
// catches them; the tool never runs.
func TestAScriptCannotGetPastADecision(t *testing.T) {
	cases := []struct {
		name string
		set  func(*fixture, *chat.Turn)
		want string
	}{
		{"deny rule", func(_ *fixture, tu *chat.Turn) {
			tu.Rules = chat.Rules{{ID: "r1", Tool: "files__write", Effect: chat.PolicyDeny, Match: []chat.Match{{Path: "path", Glob: "*.txt"}}}}
		}, "The user's approval rule denies this call"},
		{"ask answered no", func(f *fixture, _ *chat.Turn) { f.appr.answer = chat.Deny }, "The user denied this tool call."},
		{"tool policy deny", func(_ *fixture, tu *chat.Turn) { tu.Policies = chat.Policies{"files__write": chat.PolicyDeny} }, ""},
		{"withheld tool", nil, "This tool is withheld and cannot be called: "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, provider.KindOpenAI, nil)
			if c.name == "withheld tool" {
				f.eng.SetTools(gatedServer(t))
			}
			f.llm.Enqueue(
				providertest.Reply{ToolCalls: []providertest.ToolCall{script("s1", `try { await tools.files.write({path: "a.txt"}); return "ran"; } catch (e) { return "refused: " + e.message; }`)}},
				providertest.Reply{Text: "ok"},
			)
			res, err := f.send(t.Context(), "write", func(tu *chat.Turn) {
				codeMode(tu)
				if c.set != nil {
					c.set(f, tu)
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			got := string(res.ToolCalls[0].Result)
			if strings.Contains(got, "ran") || !strings.Contains(got, "refused: ") || !strings.Contains(got, c.want) {
				t.Errorf("script result %s, want refused: %s", got, c.want)
			}
			for _, ev := range f.events(chat.EventToolCall) {
				if ev.Call.Parent == "s1" && ev.Call.Status == chat.CallRunning {
					t.Errorf("the refused call ran: %+v", ev.Call)
				}
			}
		})
	}
}

// gatedServer is a files server behind a gate that withholds write.
func gatedServer(t *testing.T) *router.Router {
	s := server.NewMCPServer("files", "1.0.0")
	s.AddTool(mcp.NewTool("write", mcp.WithString("path")), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		t.Error("the withheld tool ran")
		return mcp.NewToolResultText("wrote"), nil
	})
	s.AddTool(mcp.NewTool("echo", mcp.WithReadOnlyHintAnnotation(true)), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("echo"), nil
	})
	gated := router.New(router.Options{Gate: withhold("write")})
	addInProcess(t, gated, "files", s)
	return gated
}

func TestCodeModeIsTheDefaultForSmallContextWindows(t *testing.T) {
	for _, c := range []struct {
		window int
		mode   string
	}{{0, chat.ToolsDirect}, {8192, chat.ToolsCode}, {chat.CodeModeWindow, chat.ToolsCode}, {200_000, chat.ToolsDirect}} {
		if got := chat.DefaultToolMode(c.window); got != c.mode {
			t.Errorf("window %d: %s, want %s", c.window, got, c.mode)
		}
	}
}

func TestBothModesOfferTheToolsAndCodeMode(t *testing.T) {
	f := newFixture(t, provider.KindOpenAI, nil)
	f.llm.Enqueue(providertest.Reply{Text: "hi"})
	if _, err := f.send(t.Context(), "hi", func(tu *chat.Turn) { tu.Tools = chat.ToolsBoth }); err != nil {
		t.Fatal(err)
	}
	got := codeOffered(t, f.llm.Requests()[0])
	if !slices.Contains(got, chat.RunScriptName) || !slices.Contains(got, "files__echo") {
		t.Errorf("both offered %v", got)
	}
}

func TestALimitEndsTheScriptAndTheChatGoesOn(t *testing.T) {
	f := newFixture(t, provider.KindOpenAI, nil)
	f.llm.Enqueue(
		providertest.Reply{ToolCalls: []providertest.ToolCall{script("s1", `while (true) {}`)}},
		providertest.Reply{ToolCalls: []providertest.ToolCall{script("s2", `return (await tools.files.echo({text: "after"})).text;`)}},
		providertest.Reply{Text: "ok"},
	)
	res, err := f.send(t.Context(), "loop", func(tu *chat.Turn) { codeMode(tu); tu.CodeLimits.CPUSeconds = 1 })
	if err != nil {
		t.Fatal(err)
	}
	if got := string(res.ToolCalls[0].Result); !strings.Contains(got, "The script was stopped: it computed for longer than its CPU time limit of 1 s (setting settings.chat.codeMode.cpuSeconds).") || !res.ToolCalls[0].IsError {
		t.Errorf("the loop's result %s", got)
	}
	if got := string(res.ToolCalls[1].Result); !strings.Contains(got, `echo: after`) {
		t.Errorf("the next script's result %s", got)
	}
}

func TestALargeScriptValueIsKeptWithItsHead(t *testing.T) {
	f := newFixture(t, provider.KindOpenAI, nil)
	store := &memResults{}
	f.eng = chat.New(chat.Options{Tools: testServer(t, nil), History: f.hist, Approver: f.appr, Results: store})
	f.llm.Enqueue(
		providertest.Reply{ToolCalls: []providertest.ToolCall{script("s1", `const out = []; for (let i = 0; i < 5000; i++) out.push("row " + i); return out.join("\n");`)}},
		providertest.Reply{Text: "ok"},
	)
	res, err := f.send(t.Context(), "big", func(tu *chat.Turn) { codeMode(tu); tu.ResultBudget = 2000 })
	if err != nil {
		t.Fatal(err)
	}
	body := string(f.llm.Requests()[1])
	if !strings.Contains(body, "row 1") || strings.Contains(body, "row 4999") || !strings.Contains(body, "capped") {
		t.Errorf("the model got %d bytes without a capped head", len(body))
	}
	if text := store.kept[f.chat.ID][f.chat.ID+":"+res.ToolCalls[0].ID]; !strings.Contains(text, "row 4999") {
		t.Errorf("the script's value was not kept whole: %d bytes", len(text))
	}
}

// slowApprover answers yes after wait, as a user slower than a script's
// wall time would.
type slowApprover struct{ wait time.Duration }

func (a slowApprover) Approve(ctx context.Context, _ chat.ApprovalRequest) (chat.Decision, error) {
	select {
	case <-time.After(a.wait):
		return chat.ApproveOnce, nil
	case <-ctx.Done():
		return chat.Deny, ctx.Err()
	}
}

// TestAScriptsWallTime: a call the script's wall-time limit cuts off says
// so (not that the user stopped the chat), and the time the user takes to
// answer an approval does not count against it.
func TestAScriptsWallTime(t *testing.T) {
	// The limit counts the child's start too, which took more than a
	// second under -race on a loaded machine (a 1 s limit ended a script
	// before its call): 3 s leave it room; the user's answer takes longer
	// than all of it.
	cases := []struct {
		name, src string
		wall      int
		approver  chat.Approver
		check     func(t *testing.T, f *fixture, res chat.Result)
	}{
		{"a call the limit cuts off", `await tools.files.slow({});`, 3, &approver{}, func(t *testing.T, f *fixture, res chat.Result) {
			want := "The script was stopped: it ran longer than its wall time limit of 3 s (setting settings.chat.codeMode.wallSeconds). The call was cancelled with it."
			var got []string
			for _, ev := range f.events(chat.EventToolCall) {
				if ev.Call.Parent == "s1" && ev.Call.Status == chat.CallCancelled {
					got = append(got, ev.Call.Error)
				}
			}
			if len(got) != 1 || got[0] != want {
				t.Errorf("the cut call says %q, want %q", got, want)
			}
		}},
		{"an answer slower than the limit", `return (await tools.files.write({path: "a.txt"})).text;`, 3, slowApprover{3500 * time.Millisecond}, func(t *testing.T, f *fixture, res chat.Result) {
			if v := scriptValue(t, res.ToolCalls[0]); v != "wrote a.txt" {
				t.Errorf("the script returned %v, want the write's answer", v)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, provider.KindOpenAI, nil)
			f.eng = chat.New(chat.Options{Tools: testServer(t, nil), History: f.hist, Approver: c.approver})
			f.llm.Enqueue(providertest.Reply{ToolCalls: []providertest.ToolCall{script("s1", c.src)}}, providertest.Reply{Text: "ok"})
			res, err := f.send(t.Context(), "go", func(tu *chat.Turn) { codeMode(tu); tu.CodeLimits.WallSeconds = c.wall })
			if err != nil {
				t.Fatal(err)
			}
			c.check(t, f, res)
		})
	}
}

// TestAFailedCallSaysWhy: the view of a call whose result is an error
// carries its text (the CLI prints it after "error:"); a failed script's,
// the sentence it ended with.
func TestAFailedCallSaysWhy(t *testing.T) {
	cases := []struct {
		name string
		call providertest.ToolCall
		mode func(*chat.Turn)
		tool string
		want string
	}{
		{"a tool error", call("c1", "files__fail", `{}`), func(*chat.Turn) {}, "files__fail", "disk on fire"},
		{"a script that throws", script("s1", `throw new Error("boom");`), codeMode, chat.RunScriptName, "The script failed at line 1: uncaught Error: boom"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, provider.KindOpenAI, nil)
			f.llm.Enqueue(providertest.Reply{ToolCalls: []providertest.ToolCall{c.call}}, providertest.Reply{Text: "ok"})
			if _, err := f.send(t.Context(), "go", c.mode); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, ev := range f.events(chat.EventToolCall) {
				if ev.Call.Name == c.tool && ev.Call.Status == chat.CallError {
					got = append(got, ev.Call.Error)
				}
			}
			if len(got) != 1 || got[0] != c.want {
				t.Errorf("the failed call's error = %q, want %q", got, c.want)
			}
		})
	}
}

// A script stopped by the user keeps the calls it made so far, as a
// delegation does: the stored result lists them, and the one that ran is
// marked done (it may have changed something).
func TestAStoppedScriptKeepsItsCalls(t *testing.T) {
	started := make(chan struct{}, 1)
	f := newFixture(t, provider.KindOpenAI, started)
	f.llm.Enqueue(providertest.Reply{ToolCalls: []providertest.ToolCall{script("s1", `await tools.files.echo({text: "SIDE"}); await tools.files.slow({});`)}})
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	go func() { <-started; cancel() }()
	_, _ = f.send(ctx, "go", codeMode)

	msgs, err := f.hist.Messages(t.Context(), f.chat.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range msgs {
		for _, c := range m.ToolCalls {
			if c.Tool != chat.RunScriptName {
				continue
			}
			var r struct {
				Content []struct {
					Text string `json:"text"`
				} `json:"content"`
				StructuredContent chat.ScriptResult `json:"structuredContent"`
			}
			if err := json.Unmarshal(c.Result, &r); err != nil {
				t.Fatal(err)
			}
			if c.Status != chat.CallCancelled || len(r.Content) != 1 {
				t.Fatalf("run_script stored %s: %s", c.Status, c.Result)
			}
			for _, want := range []string{"The user stopped the chat", "the script made 2 tool calls", `files__echo {"text":"SIDE"}: done`, "files__slow {}: cancelled"} {
				if !strings.Contains(r.Content[0].Text, want) {
					t.Errorf("result text lacks %q:\n%s", want, r.Content[0].Text)
				}
			}
			if s := r.StructuredContent; len(s.Calls) != 2 || s.Calls[0].Status != chat.CallDone || s.Error == "" {
				t.Errorf("stored script result %+v", s)
			}
			return
		}
	}
	t.Fatal("no run_script call stored")
}

// A script's call with arguments that do not match the tool's schema is
// refused in the words the script used (tools.files.echo), not the chat's
// name for the tool (files__echo), which the script never wrote.
func TestAScriptsBadArgumentsNameTheCallAsWritten(t *testing.T) {
	f := newFixture(t, provider.KindOpenAI, nil)
	f.llm.Enqueue(providertest.Reply{ToolCalls: []providertest.ToolCall{script("s1", `return await tools.files.echo({text: 5});`)}}, providertest.Reply{Text: "ok"})
	if _, err := f.send(t.Context(), "go", codeMode); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, ev := range f.events(chat.EventToolCall) {
		if ev.Call.Name == "files__echo" && ev.Call.Status == chat.CallError {
			got = append(got, ev.Call.Error)
		}
	}
	if len(got) != 1 || !strings.Contains(got[0], `The argument "text" of tools.files.echo does not match`) {
		t.Fatalf("the script's refused call said %q", got)
	}
}
