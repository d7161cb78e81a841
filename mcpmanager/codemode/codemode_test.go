package codemode_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/codemode"
)

func TestMain(m *testing.M) {
	codemode.MaybeChild() // the scripts' child processes are this test binary
	os.Exit(m.Run())
}

var fns = []codemode.Function{
	{Server: "memory", Tool: "add", Description: "Adds two numbers."},
	{Server: "my-server", Tool: "get.item", Description: "Gets an item by id."},
	{Server: "memory", Tool: "fail", Description: "Always fails."},
}

// calls answers the test functions: add sums a and b, get.item echoes its
// id, fail fails.
func calls(t *testing.T, seen *[]codemode.Call) codemode.CallFunc {
	return func(ctx context.Context, c codemode.Call) (any, error) {
		if seen != nil {
			*seen = append(*seen, c)
		}
		switch c.Server + "/" + c.Tool {
		case "memory/add":
			a, _ := c.Args["a"].(float64)
			b, _ := c.Args["b"].(float64)
			return map[string]any{"sum": a + b}, nil
		case "my-server/get.item":
			return map[string]any{"id": c.Args["id"], "name": "item " + fmt.Sprint(c.Args["id"])}, nil
		case "memory/fail":
			return nil, errors.New("the user denied this tool call")
		}
		t.Errorf("unexpected call %s/%s", c.Server, c.Tool)
		return nil, errors.New("no such tool")
	}
}

func run(t *testing.T, script string, lim codemode.Limits) (codemode.Result, error) {
	t.Helper()
	return codemode.Run(t.Context(), script, fns, lim, calls(t, nil), nil)
}

// healthy runs a normal script after a failing one: the app answers normally.
func healthy(t *testing.T) {
	t.Helper()
	res, err := run(t, `const r = await tools.memory.add({a: 2, b: 3}); return r.sum;`, codemode.Limits{})
	if err != nil || string(res.Value) != "5" {
		t.Fatalf("a script after the failure: %s, %v; want 5", res.Value, err)
	}
}

func TestScriptCallsToolsAndReturns(t *testing.T) {
	var seen []codemode.Call
	var printed []string
	script := `
const a = await tools.memory.add({a: 1, b: 2});
const item = await tools["my-server"]["get.item"]({id: 7});
console.log("sum is", a.sum, {x: 1});
let caught = "";
try { await tools.memory.fail({}); } catch (e) { caught = e.message; }
return {sum: a.sum, name: item.name, caught};
`
	res, err := codemode.Run(t.Context(), script, fns, codemode.Limits{}, calls(t, &seen), func(s string) { printed = append(printed, s) })
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Sum    float64
		Name   string
		Caught string
	}
	if err := json.Unmarshal(res.Value, &v); err != nil {
		t.Fatalf("value %s: %v", res.Value, err)
	}
	if v.Sum != 3 || v.Name != "item 7" || v.Caught != "the user denied this tool call" {
		t.Errorf("value = %+v", v)
	}
	if len(seen) != 3 || seen[1].Server != "my-server" || seen[1].Tool != "get.item" || seen[1].Args["id"] != float64(7) || seen[2].N != 3 {
		t.Errorf("calls = %+v", seen)
	}
	if want := []string{`sum is 3 {"x":1}`}; fmt.Sprint(res.Logs) != fmt.Sprint(want) || fmt.Sprint(printed) != fmt.Sprint(want) {
		t.Errorf("logs = %q, printed = %q, want %q", res.Logs, printed, want)
	}
	if res.Calls != 3 {
		t.Errorf("calls = %d", res.Calls)
	}
}

func TestScriptHasNoTimersFilesOrNetwork(t *testing.T) {
	res, err := run(t, `return [typeof setTimeout, typeof require, typeof fetch, typeof process, typeof XMLHttpRequest, typeof setInterval];`, codemode.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(res.Value); got != `["undefined","undefined","undefined","undefined","undefined","undefined"]` {
		t.Errorf("globals = %s", got)
	}
}

// limitCase is a script that must end with one sentence.
type limitCase struct {
	name   string
	script string
	lim    codemode.Limits
	call   codemode.CallFunc
	want   string // the sentence
}

func TestEachLimitEndsTheScriptWithItsSentence(t *testing.T) {
	var n, sent int
	cases := []limitCase{
		{name: "endless loop", script: `while (true) {}`, lim: codemode.Limits{CPUSeconds: 1},
			want: "The script was stopped: it computed for longer than its CPU time limit of 1 s (setting settings.chat.codeMode.cpuSeconds)."},
		{name: "memory bomb", script: `const a = []; for (let i = 0; ; i++) a.push("x".repeat(1 << 20) + i);`, lim: codemode.Limits{MemoryMB: 128, CPUSeconds: 60},
			want: "The script was stopped: it used more memory than its memory limit of 128 MB (setting settings.chat.codeMode.memoryMB)."},
		{name: "10,000 tool calls", script: `for (let i = 0; i < 10000; i++) await tools.memory.add({a: i, b: 1}); return "all done";`,
			call: func(context.Context, codemode.Call) (any, error) { n++; return map[string]any{"sum": n}, nil },
			want: "The script was stopped: it made more tool calls than its tool calls limit of 1000 calls (setting settings.chat.codeMode.maxCalls)."},
		{name: "50 MB return value", script: `return "x".repeat(50 << 20);`, lim: codemode.Limits{MemoryMB: 512, CPUSeconds: 60}, // building 50 MB under -race on a busy machine can take 10 s of CPU: the output limit is the one under test
			want: "The script was stopped: it returned and printed more than its output size limit of 8192 KB (setting settings.chat.codeMode.maxOutputKB)."},
		{name: "printing too much", script: `for (;;) console.log("y".repeat(1 << 16));`,
			want: "The script was stopped: it returned and printed more than its output size limit of 8192 KB (setting settings.chat.codeMode.maxOutputKB)."},
		{name: "wall time", script: `await tools.memory.add({a: 1, b: 1});`, lim: codemode.Limits{WallSeconds: 1},
			call: func(ctx context.Context, _ codemode.Call) (any, error) { <-ctx.Done(); return nil, ctx.Err() },
			want: "The script was stopped: it ran longer than its wall time limit of 1 s (setting settings.chat.codeMode.wallSeconds)."},
		{name: "arguments past their limit", script: `const s = "x".repeat(300 << 10); for (let i = 0; i < 20; i++) await tools.memory.add({s, a: i, b: 1}); return "all sent";`,
			lim:  codemode.Limits{MaxArgsKB: 1024},
			call: func(context.Context, codemode.Call) (any, error) { sent++; return map[string]any{"sum": sent}, nil },
			want: "The script was stopped: it sent its tool calls more arguments than its argument size limit of 1024 KB (setting settings.chat.codeMode.maxArgsKB)."},
		{name: "one argument past the limit", script: `await tools.memory.add({s: "<".repeat(2 << 20)}); return "sent";`, lim: codemode.Limits{MaxArgsKB: 1024},
			want: "The script was stopped: it sent its tool calls more arguments than its argument size limit of 1024 KB (setting settings.chat.codeMode.maxArgsKB)."},
		{name: "a getter that loops as the value is written", script: `return {get x() { while (true) {} }};`, lim: codemode.Limits{CPUSeconds: 1, WallSeconds: 15},
			want: "The script was stopped: it computed for longer than its CPU time limit of 1 s (setting settings.chat.codeMode.cpuSeconds)."},
		{name: "a thrown value whose getter loops", script: `throw {get x() { while (true) {} }};`, lim: codemode.Limits{CPUSeconds: 1, WallSeconds: 15},
			want: "The script was stopped: it computed for longer than its CPU time limit of 1 s (setting settings.chat.codeMode.cpuSeconds)."},
		// goja checks its interrupt between instructions, not inside one
		// built-in call (stringifying 100,000 levels takes it many seconds).
		{name: "one built-in operation past the budget", script: `let a = []; for (let i = 0; i < 100000; i++) a = [a]; JSON.stringify(a);`,
			lim:  codemode.Limits{CPUSeconds: 1, WallSeconds: 15},
			want: "The script was stopped: it computed for longer than its CPU time limit of 1 s (setting settings.chat.codeMode.cpuSeconds)."},
		{name: "a thrown value that cannot be written", script: `throw {toString() { throw 1; }, toJSON() { throw 2; }};`,
			want: "The script failed: uncaught (a value that cannot be written as text)"},
		{name: "thrown error", script: "const x = 1;\nthrow new TypeError(\"bad input \" + x);",
			want: "The script failed at line 2: uncaught TypeError: bad input 1"},
		{name: "uncaught tool error", script: "await tools.memory.fail({});",
			want: "The script failed at line 1: uncaught Error: the user denied this tool call"},
		{name: "syntax error", script: "const a = 1;\nreturn a +* 2;",
			want: "The script failed at line 2: syntax error: "},
		{name: "a promise nothing settles", script: "await new Promise(() => {});",
			want: "The script failed: the script is waiting for a promise that nothing will settle"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			call := c.call
			if call == nil {
				call = calls(t, nil)
			}
			_, err := codemode.Run(t.Context(), c.script, fns, c.lim, call, nil)
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Fatalf("error = %v\nwant   %s", err, c.want)
			}
			var le *codemode.LimitError
			var se *codemode.ScriptError
			if !errors.As(err, &le) && !errors.As(err, &se) {
				t.Errorf("error %T is neither a LimitError nor a ScriptError", err)
			}
			healthy(t)
		})
	}
	if n != 1000 {
		t.Errorf("the 10,000-call script got %d calls answered, want 1000 (the limit)", n)
	}
	if sent != 3 {
		t.Errorf("the script sending 300 KB a call got %d calls answered, want 3 (1024 KB in all)", sent)
	}
}

// TestWallTimeStopsWhileAPersonAnswers: the time a call waits for a
// person (PauseWall) does not count against the wall time; the rest does,
// and a call the limit cuts off has the limit as its context's cause.
func TestWallTimeStopsWhileAPersonAnswers(t *testing.T) {
	// The limit leaves the child's start room (a second under -race on a
	// busy machine); the answer takes longer than all of it.
	cases := []struct {
		name  string
		wall  int
		pause bool
		want  string // the error, "" for none
	}{
		{"an answer slower than the limit", 3, true, ""},
		{"a call slower than the limit", 1, false, "The script was stopped: it ran longer than its wall time limit of 1 s (setting settings.chat.codeMode.wallSeconds)."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var cause error
			call := func(ctx context.Context, _ codemode.Call) (any, error) {
				if c.pause {
					resume := codemode.PauseWall(ctx)
					time.Sleep(time.Duration(c.wall)*time.Second + 500*time.Millisecond)
					resume()
					return map[string]any{"sum": 1}, nil
				}
				<-ctx.Done()
				cause = context.Cause(ctx)
				return nil, cause
			}
			res, err := codemode.Run(t.Context(), `await tools.memory.add({}); return "answered";`, fns, codemode.Limits{WallSeconds: c.wall}, call, nil)
			if c.want == "" {
				if err != nil || string(res.Value) != `"answered"` {
					t.Fatalf("%s, %v; want \"answered\"", res.Value, err)
				}
				return
			}
			if err == nil || err.Error() != c.want {
				t.Fatalf("error = %v\nwant   %s", err, c.want)
			}
			if cause == nil || cause.Error() != c.want {
				t.Errorf("the call's context's cause = %v, want the limit's sentence", cause)
			}
		})
	}
}

// TestToolsAreFunctionsAndNothingElse: the tools object holds the
// functions by their names whatever they are (__proto__), is no promise,
// shows no Go in a function's text, and a function it lacks says why; the
// engine's GoError is no global.
func TestToolsAreFunctionsAndNothingElse(t *testing.T) {
	odd := []codemode.Function{{Server: "__proto__", Tool: "echo"}, {Server: "odd", Tool: "__proto__"}, {Server: "odd", Tool: "echo"}, {Server: "odd", Tool: "then"}}
	echo := func(_ context.Context, c codemode.Call) (any, error) {
		return map[string]any{"at": c.Server + "/" + c.Tool}, nil
	}
	cases := []struct{ script, want string }{
		{`return typeof GoError;`, `"undefined"`},
		{`return String(tools.odd.echo);`, `"function echo() { [native code] }"`},
		{`return typeof (await tools.odd);`, `"object"`},
		{`return [(await tools.__proto__.echo({})).at, (await tools.odd.__proto__({})).at, Object.getPrototypeOf(tools) === Object.prototype];`, `["__proto__/echo","odd/__proto__",true]`},
		{`try { await tools.odd.nope({}); } catch (e) { return e.message; }`, `"tools.odd.nope is not a function this script can call: its server has no tool of that name, or the settings deny it; list_functions lists the functions"`},
	}
	for _, c := range cases {
		res, err := codemode.Run(t.Context(), c.script, odd, codemode.Limits{}, echo, nil)
		if err != nil || string(res.Value) != c.want {
			t.Errorf("%s\n= %s, %v\nwant %s", c.script, res.Value, err, c.want)
		}
	}
}

func TestStoppingEndsTheScript(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	started := make(chan struct{})
	go func() { <-started; cancel() }()
	_, err := codemode.Run(ctx, `await tools.memory.add({}); while (true) {}`, fns, codemode.Limits{CPUSeconds: 600}, func(context.Context, codemode.Call) (any, error) {
		close(started)
		return map[string]any{}, nil
	}, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error = %v, want context.Canceled", err)
	}
	healthy(t)
}

func TestEndlessRecursionEndsTheScript(t *testing.T) {
	_, err := run(t, "function f(n) {\n  return f(n + 1) + 1;\n}\nf(0);", codemode.Limits{})
	if want := "The script failed at line 2: functions called each other more than 4000 deep (endless recursion?)"; err == nil || err.Error() != want {
		t.Fatalf("error = %v\nwant   %s", err, want)
	}
	healthy(t)
}
