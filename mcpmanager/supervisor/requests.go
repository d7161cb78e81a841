package supervisor

import (
	"context"
	"encoding/json"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/apps"
	"github.com/switchboard-app/switchboard/mcpmanager/wire"
)

// RequestHandler answers the requests a server sends to the client
// (sampling, elicitation). Methods are called concurrently, from any
// goroutine, and must honour ctx.
type RequestHandler interface {
	CreateMessage(ctx context.Context, server string, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error)
	Elicit(ctx context.Context, server string, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error)
}

// requestOptions offers sampling and elicitation to the server only when
// there is a handler: the capabilities are advertised by their presence.
//
// The same handlers answer a 2026-07-28 server's input_required results
// (multi round-trip requests): mcp-go fulfils each input request with them
// and retries the request, at most MaxInputRounds times.
func (s *Server) requestOptions() []client.ClientOption {
	opts := []client.ClientOption{
		client.WithClientCapabilities(s.capabilities()),
		client.WithDiscoverTimeout(DiscoverTimeout),
		client.WithMaxInputRoundTrips(MaxInputRounds),
	}
	h := s.opts.Requests
	if h == nil {
		// Still declared: capabilities beyond requests (the UI extension).
		return opts
	}
	return append(opts,
		client.WithSamplingHandler(sampler{h, s.spec.Name}),
		client.WithElicitationHandler(elicitor{h, s.spec.Name}),
	)
}

// MaxInputRounds bounds the rounds of one multi round-trip request: a server
// that keeps asking for input past it fails the request with mcp-go's
// ErrMaxInputRoundTripsExceeded ("exceeded maximum retries") instead of
// asking forever.
var MaxInputRounds = 8

// capabilities is what the client declares at initialize beyond what mcp-go
// infers from its handlers (which is only bare sampling and elicitation).
// One function for every capability, so each feature adds its field here
// and none overwrites another's.
func (s *Server) capabilities() mcp.ClientCapabilities {
	var c mcp.ClientCapabilities
	if s.opts.Requests != nil {
		// Sampling requests may carry tools and toolChoice (2025-11-25):
		// the chat runs that tool-use exchange with its model.
		c.Sampling = &mcp.SamplingCapability{Tools: &struct{}{}}
		// Forms, and URLs the user opens in the browser (URL mode: the
		// request, or a tool call failing with -32042).
		c.Elicitation = &mcp.ElicitationCapability{Form: &struct{}{}, URL: &struct{}{}}
	}
	// Tasks (2025-11-25): the client follows task-augmented tools/call
	// (router.TaskPolicy); it takes no task-augmented requests itself,
	// so the object lists none.
	c.Tasks = &mcp.TasksCapability{}
	// MCP Apps: tools may name a ui:// resource the window renders. Tasks
	// (2026-07-28): the transport follows a call the server turns into a
	// task (tasks.go). Skills: the host loads a server's skills on demand
	// (mcpmanager/skills).
	c.Extensions = map[string]any{apps.Extension: apps.Capability(), wire.TasksExtension: map[string]any{}, wire.SkillsExtension: map[string]any{}}
	return c
}

type sampler struct {
	h      RequestHandler
	server string
}

func (s sampler) CreateMessage(ctx context.Context, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	return s.h.CreateMessage(ctx, s.server, req)
}

type elicitor struct {
	h      RequestHandler
	server string
}

// Elicit fills in the schema's defaults for fields an accepted form left
// out (SEP-1034), so every handler gets that right.
func (e elicitor) Elicit(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	res, err := e.h.Elicit(ctx, e.server, req)
	if err != nil || res == nil {
		return res, err
	}
	if res.Action == mcp.ElicitationResponseActionAccept && (req.Params.Mode == "" || req.Params.Mode == mcp.ElicitationModeForm) {
		res.Content = ApplyDefaults(req.Params.RequestedSchema, res.Content)
	}
	return res, nil
}

// ApplyDefaults returns content (a JSON object) with the "default" of every
// top-level property of schema that content lacks. Content that is not an
// object comes back unchanged.
func ApplyDefaults(schema, content any) any {
	var s struct {
		Properties map[string]struct {
			Default json.RawMessage `json:"default"`
		} `json:"properties"`
	}
	if b, err := json.Marshal(schema); err != nil || json.Unmarshal(b, &s) != nil {
		return content
	}
	out := map[string]any{}
	if content != nil {
		b, err := json.Marshal(content)
		if err != nil || json.Unmarshal(b, &out) != nil || out == nil {
			return content
		}
	}
	for name, p := range s.Properties {
		if _, ok := out[name]; ok || len(p.Default) == 0 {
			continue
		}
		var v any
		if json.Unmarshal(p.Default, &v) == nil {
			out[name] = v
		}
	}
	return out
}
