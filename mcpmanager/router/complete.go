package router

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
)

// Completer is the part of a session that suggests argument values
// (completion/complete); mcp-go's *client.Client has it.
type Completer interface {
	Complete(ctx context.Context, req mcp.CompleteRequest) (*mcp.CompleteResult, error)
	GetServerCapabilities() mcp.ServerCapabilities
}

// Completion is what may be typed for the argument being written: a
// prompt's (Prompt set) or a resource template's (Template set).
type Completion struct {
	Prompt   string // the prompt's name, or
	Template string // the resource template's URI template
	Argument string // the argument (template variable) being written
	Value    string // what is written so far
	// Given are the arguments already filled in, which may narrow the
	// suggestions (completion context).
	Given map[string]string
}

// Complete asks server for values of c's argument (completion/complete).
// A server that does not offer completions suggests nothing, without error.
// The values are masked (Options.Redact) as a call's result is: they are
// shown in the window and relayed to clients of serve.
func (r *Router) Complete(ctx context.Context, server string, c Completion) ([]string, error) {
	_, cl, err := r.session(server)
	if err != nil {
		return nil, err
	}
	cp, ok := cl.(Completer)
	if !ok || cp.GetServerCapabilities().Completions == nil {
		return []string{}, nil
	}
	ctx, done := begin(ctx, r, server, false) // its server's questions are its caller's (parties.go)
	defer done()
	ctx, cancel := context.WithTimeout(ctx, ListTimeout)
	defer cancel()
	req := mcp.CompleteRequest{}
	if c.Template != "" {
		req.Params.Ref = mcp.ResourceReference{Type: "ref/resource", URI: c.Template}
	} else {
		req.Params.Ref = mcp.PromptReference{Type: "ref/prompt", Name: c.Prompt}
	}
	req.Params.Argument = mcp.CompleteArgument{Name: c.Argument, Value: c.Value}
	req.Params.Context = mcp.CompleteContext{Arguments: c.Given}
	res, err := cp.Complete(ctx, req)
	if err != nil {
		return nil, redactErr(r.redact, fmt.Errorf("%s: complete %s: %w", server, c.Argument, err))
	}
	return redactValues(resultRedactor(r, server), res.Completion.Values), nil
}

// redactValues is the suggested values masked, like a call's result (a
// built-in's are the user's own: rd nil), in a new slice; never nil.
func redactValues(rd Redactor, values []string) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = redactText(rd, v)
	}
	return out
}
