package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/history"
	"github.com/switchboard-app/switchboard/mcpmanager/codemode"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// Tool modes: how a turn offers the servers' tools to the model.
const (
	// ToolsDirect offers each tool as it is (with tool search and
	// delegation as set).
	ToolsDirect = "direct"
	// ToolsCode offers code mode's three tools instead: the model lists
	// the functions, reads one's declaration and runs a script that calls
	// them (package codemode).
	ToolsCode = "code"
	// ToolsBoth offers the tools and code mode's three.
	ToolsBoth = "both"
)

// CodeModeWindow is the largest context window (tokens) for which a turn
// that names no tool mode uses code mode: a small model cannot hold many
// tool definitions and results, and a script returns only what it needs.
var CodeModeWindow = 32768

// The code mode tools' names.
const (
	ListFunctionsName    = codemode.ListFunctionsName
	DescribeFunctionName = codemode.DescribeFunctionName
	RunScriptName        = codemode.RunScriptName
)

// codeToolNames are code mode's tools by their synthetic kinds.
var codeToolNames = map[string]string{"cm-list": ListFunctionsName, "cm-describe": DescribeFunctionName, "cm-run": RunScriptName}

// ValidToolMode says what to do about a tool mode that is none of the
// three ("" is the default).
func ValidToolMode(mode string) error {
	switch mode {
	case "", ToolsDirect, ToolsCode, ToolsBoth:
		return nil
	}
	return fmt.Errorf("tool mode %q is not one of direct, code or both", mode)
}

// ToolMode is the turn's tool mode: its own, else ToolsDirect.
func (t Turn) ToolMode() string {
	if t.Tools != "" {
		return t.Tools
	}
	return ToolsDirect
}

// DefaultToolMode is the tool mode for a model with a context window of
// window tokens when nothing chose one: code mode up to CodeModeWindow,
// direct above it or when the window is not known.
func DefaultToolMode(window int) string {
	if window > 0 && window <= CodeModeWindow {
		return ToolsCode
	}
	return ToolsDirect
}

// codeTools answers code mode's three tools for a run.
type codeTools struct{ r *run }

// functions are the turn's active server tools as a script calls them, by
// server and tool. Synthetic tools (find_tools, skills, delegates) are
// not among them: r.all holds only the servers' model-visible tools.
func (c codeTools) functions() ([]codemode.Function, map[string]router.Tool) {
	r := c.r
	var fns []codemode.Function
	byFn := map[string]router.Tool{}
	for _, pt := range r.all {
		t, ok := r.tool(pt.Name)
		if !ok {
			continue
		}
		f := codemode.Function{Server: t.Server, Tool: t.Tool.Name, Description: t.Tool.Description, Input: pt.InputSchema}
		if out := codemode.OutputSchema(t.Tool); out != nil {
			f.Output = out
		}
		fns = append(fns, f)
		byFn[t.Server+"\x00"+t.Tool.Name] = t
	}
	return fns, byFn
}

// offer adds code mode's three tools to tools.
func (c codeTools) offer(tools []provider.Tool) []provider.Tool {
	r := c.r
	fns, _ := c.functions()
	for kind, name := range codeToolNames {
		r.synth[name] = synthetic{kind: kind}
		r.tools[name] = router.Tool{Name: name, Tool: mcp.Tool{Name: name}}
	}
	for _, d := range codemode.Tools(fns) {
		tools = append(tools, provider.Tool{Name: d.Name, Description: d.Description, InputSchema: d.InputSchema})
	}
	return tools
}

// answer answers one of code mode's three tools (kind: its synthetic kind).
func (c codeTools) answer(ctx context.Context, msg history.Message, kind, callID string, params map[string]any) (*mcp.CallToolResult, error) {
	fns, byFn := c.functions()
	res, script := codemode.Answer(fns, codeToolNames[kind], params)
	if res != nil {
		return res, nil
	}
	return c.runScript(ctx, msg, callID, script, fns, byFn)
}

// ScriptResult is run_script's structured result: what the script
// returned and printed, and each call it made (the UI nests them under the
// script's card; the model reads the text).
type ScriptResult struct {
	Value json.RawMessage `json:"value,omitempty"`
	Logs  []string        `json:"logs"`
	// Calls are kept as "steps", as a delegated call's are: a reopened
	// chat shows them nested under the script's card.
	Calls []Step `json:"steps"`
	// Error is the sentence a limit, a throw or a syntax error ended the script with.
	Error string `json:"error,omitempty"`
}

// runScript runs one script; each call it makes goes through call, as the
// model's own calls do (withheld tools, argument checks, rules, policies,
// approvals), nested under the script's card.
func (c codeTools) runScript(ctx context.Context, msg history.Message, callID, script string, fns []codemode.Function, byFn map[string]router.Tool) (*mcp.CallToolResult, error) {
	r := c.r
	sub := &subAgent{parent: callID, tools: map[string]router.Tool{}, steps: []Step{}, script: script}
	for _, t := range byFn {
		sub.tools[t.Name] = t
	}
	// A withheld tool is a function too, whose every call call refuses
	// with the reason, as it refuses the model's direct call.
	withheld := map[string]string{}
	all := slices.Clone(fns)
	for name := range r.withheld {
		if server, tool, ok := strings.Cut(name, router.Separator); ok {
			withheld[server+"\x00"+tool] = name
			all = append(all, codemode.Function{Server: server, Tool: tool})
		}
	}
	call := func(ctx context.Context, c codemode.Call) (any, error) {
		t, ok := byFn[c.Server+"\x00"+c.Tool]
		if name, held := withheld[c.Server+"\x00"+c.Tool]; !ok && held {
			t = router.Tool{Name: name, Server: c.Server, Tool: mcp.Tool{Name: c.Tool}}
		} else if !ok {
			return nil, fmt.Errorf("there is no function tools[%q][%q]; call list_functions to see them", c.Server, c.Tool)
		}
		args, err := codemode.ArgsJSON(c.Args)
		if err != nil {
			return nil, err
		}
		pc := provider.ToolCall{ID: fmt.Sprintf("%s/%d", callID, c.N), Name: t.Name, Arguments: args}
		hc := r.call(ctx, context.WithoutCancel(ctx), msg, c.N-1, pc, sub)
		var res mcp.CallToolResult
		if err := json.Unmarshal(hc.Result, &res); err != nil {
			return nil, fmt.Errorf("the result of %s could not be read: %w", t.Name, err)
		}
		res.IsError = res.IsError || hc.IsError // a refused call is an error whatever its result says
		return codemode.Value(&res, codemode.OutputSchema(t.Tool) != nil)
	}
	res, err := codemode.Run(ctx, script, all, r.t.CodeLimits, call, nil)
	out := ScriptResult{Value: res.Value, Logs: res.Logs, Calls: sub.steps}
	if out.Logs == nil {
		out.Logs = []string{}
	}
	var le *codemode.LimitError
	var se *codemode.ScriptError
	switch {
	case err == nil:
	case ctx.Err() != nil:
		return sub.scriptSoFar(out), ctx.Err() // the calls that ran are kept, and told
	case errors.As(err, &le), errors.As(err, &se):
		out.Error = err.Error()
	default:
		return sub.scriptSoFar(out), err
	}
	// The images it passed on go as parts of their own, as a direct
	// call's do (codemode.Content).
	content := codemode.Content(codemode.Result{Value: out.Value, Logs: out.Logs}, out.Error)
	return &mcp.CallToolResult{Content: content, StructuredContent: out, IsError: out.Error != ""}, nil
}

// endedWith is s ended early with text (partial).
func (s ScriptResult) endedWith(text string) any {
	s.Error = text
	return s
}

// scriptSoFar is what a script stopped from outside (Stop, a failure of
// its runner) did until then: its calls, which may have changed something.
func (s *subAgent) scriptSoFar(out ScriptResult) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{mcp.NewTextContent(s.callsSoFar("the script"))}, StructuredContent: out}
}

// stopText is what a call whose context ended says: userText for the
// user's Stop, or the script's limit that cut it off (codemode cancels a
// script's calls with its wall-time limit as the context's cause).
func stopText(ctx context.Context, userText string) string {
	var le *codemode.LimitError
	if errors.As(context.Cause(ctx), &le) {
		return le.Error() + " The call was cancelled with it."
	}
	return userText
}

// askUser asks a about req; for a script's call, the time the user takes
// to answer does not count against the script's wall time.
func askUser(ctx context.Context, a Approver, req ApprovalRequest) (Decision, error) {
	defer codemode.PauseWall(ctx)()
	return a.Approve(ctx, req)
}
