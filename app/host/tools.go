package host

import (
	"context"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/builtin/workspace"
	"github.com/switchboard-app/switchboard/mcpmanager/gateway"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
	"github.com/switchboard-app/switchboard/mcpmanager/toolcheck"
)

// Tools is what the running servers offer: tools, prompts, resources,
// completions and calls, through the router.
type Tools struct{ h *Host }

// List is every tool of every ready server as the model sees it
// (server__tool), and the servers whose tools could not be listed.
func (t *Tools) List(ctx context.Context) ([]Tool, []ServerError) {
	return t.h.router().Tools(ctx)
}

// Of is one server's own tools, under their own names.
func (t *Tools) Of(ctx context.Context, server string) ([]mcp.Tool, error) {
	return t.h.router().ServerTools(ctx, server)
}

// Lookup resolves an exposed name (server__tool) to its server and tool.
func (t *Tools) Lookup(ctx context.Context, name string) (Tool, error) {
	return t.h.router().Lookup(ctx, name)
}

// Servers names the servers whose tools, prompts and resources are listed.
func (t *Tools) Servers() []string { return t.h.router().Servers() }

// Call runs the tool the user named as the model sees it (server__tool):
// the name is resolved once to its (server, tool) pair, and that pair is
// called.
func (t *Tools) Call(ctx context.Context, name string, args map[string]any) (*mcp.CallToolResult, error) {
	return t.CallWith(ctx, name, args, nil)
}

// RetryMeta is the _meta key (true) of an elicitation that stands for a
// tool call failing with -32042 (URL elicitation required): the call is
// retried once the server says the elicitation completed or the user says
// they are done, so a door lets the user say so.
const RetryMeta = router.RetryMeta

// TaskUpdate is the state of a call running as an MCP task: its id, its
// status (working, input_required, completed, failed, cancelled) and the
// server's status message.
type TaskUpdate struct {
	ID, Status, Message string
}

// CallWith is Call for a caller that follows the call: onTask, when not
// nil, hears the status of a tool that runs as an MCP task, at its start
// and each change ('switchboard tools call' prints it). It must not block.
func (t *Tools) CallWith(ctx context.Context, name string, args map[string]any, onTask func(TaskUpdate)) (*mcp.CallToolResult, error) {
	tool, err := t.Lookup(ctx, name)
	if err != nil {
		return nil, err
	}
	var opts router.CallOptions
	if onTask != nil {
		opts.OnTask = func(u router.TaskUpdate) { onTask(TaskUpdate{ID: u.ID, Status: u.Status, Message: u.Message}) }
	}
	// Its server's questions are asked outside any chat (sampling.go).
	return t.h.router().Call(asCaller(ctx, ""), tool.Server, tool.Tool.Name, args, opts)
}

// Prompts are one server's prompts.
func (t *Tools) Prompts(ctx context.Context, server string) ([]mcp.Prompt, error) {
	return t.h.router().ServerPrompts(ctx, server)
}

// Prompt gets one prompt filled with args.
func (t *Tools) Prompt(ctx context.Context, server, name string, args map[string]string) (*mcp.GetPromptResult, error) {
	return t.h.router().GetPrompt(ctx, server, name, args)
}

// Resources are one server's resources.
func (t *Tools) Resources(ctx context.Context, server string) ([]mcp.Resource, error) {
	return t.h.router().ServerResources(ctx, server)
}

// ResourceTemplates are one server's resource templates.
func (t *Tools) ResourceTemplates(ctx context.Context, server string) ([]mcp.ResourceTemplate, error) {
	return t.h.router().ServerResourceTemplates(ctx, server)
}

// Read reads one resource of server.
func (t *Tools) Read(ctx context.Context, server, uri string) (*mcp.ReadResourceResult, error) {
	return t.h.router().ReadResource(ctx, server, uri)
}

// Completion is an argument to complete (completion/complete): of a
// prompt (Prompt set) or a resource template (Template set), with what
// is written so far and the arguments already filled in.
type Completion struct {
	Prompt, Template, Argument, Value string
	Given                             map[string]string
}

// Complete asks server to complete a prompt's or a resource template's
// argument; a server without completions suggests none.
func (t *Tools) Complete(ctx context.Context, server string, c Completion) ([]string, error) {
	return t.h.router().Complete(ctx, server, router.Completion(c))
}

// CancelTask cancels a tool call running as an MCP task.
func (t *Tools) CancelTask(ctx context.Context, server, taskID string) error {
	return t.h.router().CancelTask(ctx, server, taskID)
}

// Subscribe hears of every change to the servers' lists (tools, prompts,
// resources) until stop is called.
func (t *Tools) Subscribe() (changes <-chan struct{}, stop func()) { return t.h.router().Subscribe() }

// Metrics are each server's call counts and latency.
func (t *Tools) Metrics() map[string]router.Metrics { return t.h.router().Metrics() }

// Warnings are the hidden instructions found in a tool's definition
// (description, schema): what the Tools and Safety pages flag.
func (t *Tools) Warnings(tool mcp.Tool) []WarningView { return WarningsView(toolcheck.Check(tool)) }

// DefaultPolicy is what a chat does with a tool no setting names: the
// workspace's own risk rule for its tools (file writes in a workspace
// Switchboard made run without asking), MCP annotations for the rest.
func (t *Tools) DefaultPolicy(tool Tool) ToolPolicy {
	h := t.h
	if tool.Server == workspace.Builtin.Name {
		if w, err := h.Workspace.open(); err == nil && !w.Risky(tool.Tool.Name) {
			return chat.PolicyAllow
		}
		return chat.PolicyAsk
	}
	return chat.DefaultPolicy(tool)
}

// gateway is every running server's tools, prompts and resources as one
// MCP server ('switchboard serve'): the one place outside the host that
// holds the router.
func (t *Tools) gateway(opts gateway.Options) *gateway.Gateway {
	opts.Settled = t.h.mgr.WaitSettled
	// A server still starting whose tools are known from its last run does
	// not hold up a client's first tools/list: it gets them (router.Recaller).
	opts.ToolsListed = t.h.mgr.WaitListed
	opts.Skills = t.h.mgr.Skills()
	return gateway.New(t.h.router(), opts)
}

// Owners names the servers of list whose tools an exposed name
// (server__tool) could be: a server's name, sanitized, is its tools'
// prefix. It is empty for a cut or unusual name. A pure function: the CLI
// picks the servers to start with it before any Host runs them.
func Owners(name string, list []Server) []string {
	var out []string
	for _, s := range list {
		if strings.HasPrefix(name, router.Prefix(s.Name)) {
			out = append(out, s.Name)
		}
	}
	return out
}
