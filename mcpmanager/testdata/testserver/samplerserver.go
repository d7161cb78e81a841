package main

import (
	"context"
	"fmt"
	"os"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// serveSampler serves mode samplerserver: a test MCP server (stdio, mcp-go) that asks the
// client's model again and again: its tool sample_loop {times} sends
// sampling/createMessage that many times, one after the other, during the
// call, and returns how many were answered and the first refusal. Tests of
// the sampling cap (app/cli) count what reaches the fake model.
func serveSampler() {
	// Legacy server-initiated requests: the loop asks mid-call, as servers
	// written before multi round-trip requests (SEP-2322) do.
	s := server.NewMCPServer("samplerserver", "1.0.0", server.WithToolCapabilities(false), server.WithLegacyServerInitiatedRequests())
	s.EnableSampling()
	s.AddTool(mcp.NewTool("sample_loop",
		mcp.WithDescription("Asks the client's model a question the given number of times."),
		mcp.WithReadOnlyHintAnnotation(true),
		mcp.WithNumber("times", mcp.Required())),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			times := req.GetInt("times", 1)
			answered, refused, first := 0, 0, ""
			for i := range times {
				var sr mcp.CreateMessageRequest
				sr.Messages = []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent(fmt.Sprintf("question %d", i+1))}}
				sr.MaxTokens = 1_000_000
				if _, err := s.RequestSampling(ctx, sr); err != nil {
					refused++
					if first == "" {
						first = err.Error()
					}
					continue
				}
				answered++
			}
			return mcp.NewToolResultText(fmt.Sprintf("answered %d, refused %d; first refusal: %s", answered, refused, first)), nil
		})
	if err := server.ServeStdio(s); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
