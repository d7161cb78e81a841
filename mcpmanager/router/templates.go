package router

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
)

// ResourceTemplateLister is the part of a session that lists resource
// templates (mcp-go's *client.Client has it); it must be safe for
// concurrent use.
type ResourceTemplateLister interface {
	ListResourceTemplates(ctx context.Context, req mcp.ListResourceTemplatesRequest) (*mcp.ListResourceTemplatesResult, error)
}

// ServerResourceTemplates lists one server's resource templates
// (resources/templates/list, every page); a server without the resources
// capability, or a session that cannot list them, has none. Unlike tools,
// prompts and resources they are not cached: only the gateway asks, when
// the router signals a change.
func (r *Router) ServerResourceTemplates(ctx context.Context, server string) ([]mcp.ResourceTemplate, error) {
	_, cl, err := r.session(server)
	if err != nil {
		return nil, err
	}
	tl, ok := cl.(ResourceTemplateLister)
	if !ok {
		return nil, nil
	}
	ctx, cancel := context.WithTimeout(ctx, ListTimeout)
	defer cancel()
	res, err := tl.ListResourceTemplates(ctx, mcp.ListResourceTemplatesRequest{})
	if isMethodNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, redactErr(r.redact, fmt.Errorf("%s: list resource templates: %w", server, err))
	}
	return redactList(r.redact, res.ResourceTemplates), nil
}
