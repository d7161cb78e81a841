package router

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
)

// PromptGetter is the part of a session that expands prompts (mcp-go's
// *client.Client has it); it must be safe for concurrent use.
type PromptGetter interface {
	GetPrompt(ctx context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error)
}

// ResourceReader is the part of a session that reads resources; it must be
// safe for concurrent use.
type ResourceReader interface {
	ReadResource(ctx context.Context, req mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error)
}

// GetPrompt expands one of server's prompts with args (prompts/get).
func (r *Router) GetPrompt(ctx context.Context, server, name string, args map[string]string) (*mcp.GetPromptResult, error) {
	_, cl, err := r.session(server)
	if err != nil {
		return nil, err
	}
	pg, ok := cl.(PromptGetter)
	if !ok {
		return nil, fmt.Errorf("%s: get prompt: %w", server, ErrUnsupported)
	}
	ctx, done := begin(ctx, r, server, false) // its server's questions are its caller's (parties.go)
	defer done()
	ctx, cancel := context.WithTimeout(ctx, ListTimeout)
	defer cancel()
	req := mcp.GetPromptRequest{}
	req.Params.Name, req.Params.Arguments = name, args
	res, err := pg.GetPrompt(ctx, req)
	if err != nil {
		return nil, redactErr(r.redact, fmt.Errorf("%s: prompt %s: %w", server, name, err))
	}
	return redactPrompt(r.redact, res), nil
}

// ReadResource reads one of server's resources (resources/read).
func (r *Router) ReadResource(ctx context.Context, server, uri string) (*mcp.ReadResourceResult, error) {
	_, cl, err := r.session(server)
	if err != nil {
		return nil, err
	}
	rr, ok := cl.(ResourceReader)
	if !ok {
		return nil, fmt.Errorf("%s: read resource: %w", server, ErrUnsupported)
	}
	ctx, done := begin(ctx, r, server, false) // its server's questions are its caller's (parties.go)
	defer done()
	ctx, cancel := context.WithTimeout(ctx, ListTimeout)
	defer cancel()
	req := mcp.ReadResourceRequest{}
	req.Params.URI = uri
	res, err := rr.ReadResource(ctx, req)
	if err != nil {
		return nil, redactErr(r.redact, fmt.Errorf("%s: read %s: %w", server, uri, err))
	}
	return redactRead(r.redact, res), nil
}
