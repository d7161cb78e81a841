package gateway

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// completer answers completion/complete for a published prompt
// (server__prompt) or resource template (switchboard://SERVER/…) by
// asking its server, under the server's own name for it: what a client
// offers while the user fills in a prompt's arguments. A server hidden
// from the client's app is refused as its prompts are; one that offers no
// completions suggests nothing.
type completer struct{ g *Gateway }

var (
	_ server.PromptCompletionProvider   = completer{}
	_ server.ResourceCompletionProvider = completer{}
)

// maxCompletions is the most values one answer holds (MCP's limit).
const maxCompletions = 100

func (c completer) CompletePromptArgument(ctx context.Context, name string, arg mcp.CompleteArgument, given mcp.CompleteContext) (*mcp.Completion, error) {
	srv, prompt, ok := c.g.prompts.route(name)
	if !ok {
		return nil, fmt.Errorf("gateway: no prompt %q is published", name)
	}
	if err := c.g.refuse(ctx, "prompt", name, srv); err != nil {
		return nil, err
	}
	return c.complete(ctx, srv, router.Completion{Prompt: prompt, Argument: arg.Name, Value: arg.Value, Given: given.Arguments})
}

func (c completer) CompleteResourceArgument(ctx context.Context, uri string, arg mcp.CompleteArgument, given mcp.CompleteContext) (*mcp.Completion, error) {
	srv, template, ok := splitURI(uri)
	if !ok {
		return nil, fmt.Errorf("gateway: %q is not a resource template Switchboard published (%s://SERVER/TEMPLATE)", uri, URIScheme)
	}
	if err := c.g.refuse(ctx, "resource", uri, srv); err != nil {
		return nil, err
	}
	return c.complete(ctx, srv, router.Completion{Template: template, Argument: arg.Name, Value: arg.Value, Given: given.Arguments})
}

func (c completer) complete(ctx context.Context, srv string, req router.Completion) (*mcp.Completion, error) {
	upCtx, done := c.g.upstream(ctx, srv)
	defer done()
	values, err := c.g.reg.Complete(upCtx, srv, req)
	if err != nil {
		return nil, err
	}
	out := &mcp.Completion{Values: values}
	if len(values) > maxCompletions {
		out.Values, out.HasMore = values[:maxCompletions], true
	}
	return out, nil
}
