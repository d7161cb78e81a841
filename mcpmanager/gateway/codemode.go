package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/mcpmanager/apps"
	"github.com/switchboard-app/switchboard/mcpmanager/codemode"
	"github.com/switchboard-app/switchboard/mcpmanager/plain"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// Code modes: what 'serve' offers its clients (Options.Code).
const (
	// CodeOff offers every tool as it is (the default).
	CodeOff = ""
	// CodeOnly offers code mode's three tools instead of the tools: the
	// client's model lists the functions, reads their declarations and
	// runs a script that calls them (package codemode).
	CodeOnly = "code"
	// CodeBoth offers the tools and code mode's three.
	CodeBoth = "both"
)

// Decision is what Options.Decide says of one call a script makes.
type Decision int

// Decisions.
const (
	Allow Decision = iota // run it
	Ask                   // ask the client (an elicitation); refused when it cannot be asked
	Deny                  // refuse it
)

// CodeMode is the gateway's code mode: what it offers (Mode: CodeOff,
// CodeOnly, CodeBoth), the bounds of each script (Limits; zero:
// codemode's defaults) and who decides each call a script makes (Decide;
// nil: every call runs, as a direct call does).
type CodeMode struct {
	Mode   string
	Limits codemode.Limits
	Decide DecideFunc
}

// SetCode changes the code mode (Options.Code, CodeLimits and Decide) of
// a running gateway and reports whether what it offers changed (Mode):
// then the next Refresh publishes again, and every session is sent
// tools/list_changed and sees code mode's tools (or the tools) at its
// next list. A script already running keeps the limits it started with;
// its next call is decided by the new Decide. Safe for concurrent use.
func (g *Gateway) SetCode(c CodeMode) (changed bool) {
	return g.code.Swap(&c).Mode != c.Mode
}

// DecideFunc decides a script's call of t with args; reason is the
// sentence a refusal carries. With nil args it says whether t may be
// called at all: Deny then hides t from the functions scripts see (as a
// chat hides a tool its settings deny).
type DecideFunc func(t router.Tool, args json.RawMessage) (d Decision, reason string)

// MaxScriptText is the most of a script's answer (printed lines and the
// returned value) a client gets; the rest is cut with a note saying so.
var MaxScriptText = 256 << 10

// scripts is the gateway's code mode: its three tools and the scripts
// they run (Options.Code, CodeLimits, Decide). A value type over the
// gateway, which keeps the settings and the functions.
type scripts struct{ g *Gateway }

// tools are the code mode tools to publish over fns (the published
// tools as scripts call them).
func (c scripts) tools(fns []codemode.Function) []server.ServerTool {
	var st []server.ServerTool
	for _, d := range codemode.Tools(fns) {
		st = append(st, server.ServerTool{
			Tool:    mcp.NewToolWithRawSchema(d.Name, d.Description, d.InputSchema),
			Handler: c.handler(d.Name),
		})
	}
	return st
}

// codeFunctions are tools as a script calls them, keyed server NUL tool.
func codeFunctions(tools []router.Tool) ([]codemode.Function, map[string]router.Tool) {
	var fns []codemode.Function
	byFn := map[string]router.Tool{}
	for _, t := range tools {
		if !apps.ModelVisible(t.Tool) {
			continue // an app-only tool is the app's, not a script's
		}
		f := codemode.Function{Server: t.Server, Tool: t.Tool.Name, Description: t.Tool.Description}
		f.Input, _ = json.Marshal(t.Tool.InputSchema)
		if len(t.Tool.RawInputSchema) > 0 {
			f.Input = t.Tool.RawInputSchema
		}
		f.Output = codemode.OutputSchema(t.Tool)
		fns = append(fns, f)
		byFn[t.Server+"\x00"+t.Tool.Name] = t
	}
	return fns, byFn
}

// functions are the functions scripts call and their tools, as of the
// last Refresh (which made them once; shared, never changed), less those
// Decide denies outright (asked now: a setting's change holds at once).
func (c scripts) functions() ([]codemode.Function, map[string]router.Tool) {
	c.g.mu.Lock()
	fns, byFn := c.g.fns, c.g.byFn
	c.g.mu.Unlock()
	decide := c.g.code.Load().Decide
	if decide == nil {
		return fns, byFn
	}
	var kept []codemode.Function
	keptBy := make(map[string]router.Tool, len(byFn))
	for _, f := range fns {
		t := byFn[f.Server+"\x00"+f.Tool]
		if d, _ := decide(t, nil); d == Deny {
			continue
		}
		kept = append(kept, f)
		keptBy[f.Server+"\x00"+f.Tool] = t
	}
	return kept, keptBy
}

// handler answers one of code mode's three tools.
func (c scripts) handler(name string) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		fns, byFn := c.functions()
		res, script := codemode.Answer(fns, name, req.GetArguments())
		if res != nil {
			return res, nil
		}
		return c.run(ctx, script, fns, byFn), nil
	}
}

// run runs a client's script: each call it makes is decided
// (Options.Decide; "ask" goes to the client as an elicitation when it
// takes them, and is refused otherwise), then routed as a direct call is.
func (c scripts) run(ctx context.Context, script string, fns []codemode.Function, byFn map[string]router.Tool) *mcp.CallToolResult {
	g, decide := c.g, c.decide // the calls below name their own c
	session := server.ClientSessionFromContext(ctx)
	call := func(cctx context.Context, c codemode.Call) (any, error) {
		t, ok := byFn[c.Server+"\x00"+c.Tool]
		if !ok {
			return nil, fmt.Errorf("there is no function tools[%q][%q]; call list_functions to see them", c.Server, c.Tool)
		}
		args, err := codemode.ArgsJSON(c.Args)
		if err != nil {
			return nil, err
		}
		if err := decide(cctx, session, t, args); err != nil {
			return nil, err
		}
		upCtx, done := g.upstream(cctx, t.Server)
		defer done()
		raw, err := g.reg.CallRaw(upCtx, t.Server, t.Tool.Name, args, router.CallOptions{})
		if g.onCall != nil {
			g.onCall(Call{App: AppOf(ctx), Server: t.Server, Tool: t.Tool.Name, Failed: err != nil})
		}
		if err != nil {
			return nil, err
		}
		res, err := mcp.ParseCallToolResult(&raw)
		if err != nil {
			return nil, fmt.Errorf("the result of %s could not be read: %w", t.Name, err)
		}
		return codemode.Value(res, codemode.OutputSchema(t.Tool) != nil)
	}
	res, err := codemode.Run(ctx, script, fns, g.code.Load().Limits, call, nil)
	var le *codemode.LimitError
	var se *codemode.ScriptError
	failure := ""
	switch {
	case err == nil:
	case errors.As(err, &le), errors.As(err, &se):
		failure = err.Error()
	default:
		return mcp.NewToolResultError(fmt.Sprintf("The script could not run: %v", err))
	}
	text := codemode.Text(res, failure)
	if len(text) > MaxScriptText {
		cut := MaxScriptText
		for cut > 0 && !utf8.RuneStart(text[cut]) { // not inside a character
			cut--
		}
		text = fmt.Sprintf("%s\n[cut: the script's answer is %d bytes; only the first %d are shown. Return less, or only what you need.]", text[:cut], len(text), cut)
	}
	out := mcp.NewToolResultText(text)
	out.Content = append(out.Content, codemode.Media(res)...) // as a direct call's: Text leaves their base64 out
	out.IsError = failure != ""
	return out
}

// MaxShownArgs bounds the arguments shown in the question a script's call
// asks the client (plain.Show: longer ones show their head and tail, and
// the question says how much is not shown).
var MaxShownArgs = 2000

// approvalQuestion is the elicitation a script's call of tool with args asks: the
// arguments as plain.Show writes them out (every invisible or reordering
// character as its code, long blank runs counted), so what the person
// reads is what runs, its tail included. Arguments too long to show whole
// are not refused — a large file to write is ordinary — but the question
// says plainly that the approval covers the part not shown.
func approvalQuestion(tool string, args json.RawMessage) string {
	shown := plain.Show(string(args), MaxShownArgs)
	if note := shown.Note(); note != "" {
		return fmt.Sprintf("A script wants to run %s with %s\n%s Allow it?", tool, shown.Text, note)
	}
	return fmt.Sprintf("A script wants to run %s with %s\nAllow it?", tool, shown.Text)
}

// decide applies Options.Decide to one call of a script: nil runs it.
func (c scripts) decide(ctx context.Context, session server.ClientSession, t router.Tool, args json.RawMessage) error {
	decide := c.g.code.Load().Decide
	if decide == nil {
		return nil
	}
	d, reason := decide(t, args)
	switch d {
	case Allow:
		return nil
	case Deny:
		return fmt.Errorf("%s was refused: %s", t.Name, reason)
	}
	caps, ok := takesRequests(session)
	es, can := session.(server.SessionWithElicitation)
	if !ok || !can || !takesElicitation(caps, false) {
		return fmt.Errorf("%s needs approval and this client cannot be asked (it takes no elicitations): the call was refused; allow the tool in Switchboard (settings.chat.policies) to let scripts call it", t.Name)
	}
	resume := codemode.PauseWall(ctx) // the user's time to answer is not the script's
	res, err := es.RequestElicitation(ctx, mcp.ElicitationRequest{Params: mcp.ElicitationParams{
		Message:         approvalQuestion(t.Name, args),
		RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{}},
	}})
	resume()
	if err != nil {
		return fmt.Errorf("%s needs approval and asking the client failed (%v): the call was refused", t.Name, err)
	}
	if res.Action != mcp.ElicitationResponseActionAccept {
		return fmt.Errorf("%s was not allowed: the user answered %s", t.Name, res.Action)
	}
	return nil
}
