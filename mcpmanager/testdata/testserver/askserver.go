package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// serveAskServer serves mode askserver: a stdio server (mcp-go, protocol
// 2025-11-25) whose questions name no call on the wire, as every stdio
// server's, for the tests of whose call a question belongs to (the
// router's tie, the gateway, the chat). Files are its gates, so a test
// orders what happens without sleeping:
//
//	ask {who, kind, gate}  asks during its call: kind "sampling" a
//	                       completion of "PRIVATE for WHO", "form" a form
//	                       with that message; returns "answered: …" or
//	                       "refused: …". With gate, it writes GATE.started
//	                       and asks once the file GATE exists
//	later {who, kind, after}  returns "started" at once, then, once the
//	                       file AFTER exists, asks as ask does and writes
//	                       the outcome to AFTER.out (a job runner asking
//	                       after its call returned)
//	hold {gate}            writes GATE.started and returns "held" once the
//	                       file GATE exists (or the call is cancelled)
func serveAskServer() {
	s := server.NewMCPServer("askserver", "1.0.0", server.WithToolCapabilities(false), server.WithLegacyServerInitiatedRequests())
	s.EnableSampling()
	s.AddTool(mcp.NewTool("ask", mcp.WithString("who"), mcp.WithString("kind"), mcp.WithString("gate")),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if gate := req.GetString("gate", ""); gate != "" {
				writeWhole(gate+".started", "started")
				if err := awaitFile(ctx, gate); err != nil {
					return mcp.NewToolResultError(err.Error()), nil
				}
			}
			return mcp.NewToolResultText(askOnce(ctx, s, req.GetString("who", ""), req.GetString("kind", "sampling"))), nil
		})
	s.AddTool(mcp.NewTool("later", mcp.WithString("who"), mcp.WithString("kind"), mcp.WithString("after", mcp.Required())),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			who, kind, after := req.GetString("who", ""), req.GetString("kind", "sampling"), req.GetString("after", "")
			go func() {
				ctx := context.WithoutCancel(ctx) // the session stays; the call has returned
				if awaitFile(ctx, after) != nil {
					return
				}
				writeWhole(after+".out", askOnce(ctx, s, who, kind))
			}()
			return mcp.NewToolResultText("started"), nil
		})
	s.AddTool(mcp.NewTool("hold", mcp.WithString("gate", mcp.Required())),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			gate := req.GetString("gate", "")
			writeWhole(gate+".started", "started")
			if err := awaitFile(ctx, gate); err != nil {
				return mcp.NewToolResultError(err.Error()), nil
			}
			return mcp.NewToolResultText("held"), nil
		})
	if err := server.ServeStdio(s); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// askOnce asks the client what kind says, about who, and says how it went.
func askOnce(ctx context.Context, s *server.MCPServer, who, kind string) string {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	question := "PRIVATE for " + who
	if kind == "form" {
		req := mcp.ElicitationRequest{}
		req.Params.Message = question
		req.Params.RequestedSchema = map[string]any{"type": "object", "properties": map[string]any{"ok": map[string]any{"type": "boolean"}}}
		res, err := s.RequestElicitation(ctx, req)
		if err != nil {
			return "refused: " + err.Error()
		}
		content, _ := json.Marshal(res.Content)
		return fmt.Sprintf("answered: %s %s", res.Action, content)
	}
	req := mcp.CreateMessageRequest{}
	req.Messages = []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent(question)}}
	req.MaxTokens = 100
	res, err := s.RequestSampling(ctx, req)
	if err != nil {
		return "refused: " + err.Error()
	}
	text := ""
	if tc, ok := res.Content.(mcp.TextContent); ok {
		text = tc.Text
	}
	return fmt.Sprintf("answered: %s by %s", text, res.Model)
}

// awaitFile returns once path exists, or with ctx's error.
func awaitFile(ctx context.Context, path string) error {
	for {
		if _, err := os.Stat(path); err == nil {
			return nil
		} else if !errors.Is(err, os.ErrNotExist) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// writeWhole writes text to path whole: a reader never sees it half written.
func writeWhole(path, text string) {
	if err := os.WriteFile(path+".tmp", []byte(text), 0o600); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	if err := os.Rename(path+".tmp", path); err != nil {
		fmt.Fprintln(os.Stderr, err)
	}
}
