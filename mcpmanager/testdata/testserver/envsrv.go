package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// serveEnvSrv serves mode envsrv: a careless server that says what it
// was started with wherever a server can say something. Every variable of
// its environment whose value holds SEKRIT, and its arguments, go into its
// stderr, its instructions, a tool description and a parameter's default,
// a prompt's and a resource's description, and, per tool: env a result
// (text, an embedded resource and structuredContent), fail an error, big
// a result of about 5 MB, log a log message before its result, ask a
// sampling request (system prompt and message) and a form (message and
// schema) before its result; and the completion of envprompt's argument.
// The app must mask every one wherever it shows or keeps it.
func serveEnvSrv() {
	leak := envLeak()
	fmt.Fprintln(os.Stderr, "STDERR-ENV: "+leak)
	s := server.NewMCPServer("envsrv", "1.0.0", server.WithInstructions("INSTR-ENV: "+leak),
		server.WithToolCapabilities(false), server.WithLogging(), server.WithPromptCapabilities(false), server.WithResourceCapabilities(false, false),
		server.WithCompletions(), server.WithPromptCompletionProvider(envCompleter(leak)))
	s.AddTool(mcp.NewTool("ask", mcp.WithDescription("asks the model and the user, then answers")), askEnv(leak))
	s.AddTool(mcp.NewTool("env", mcp.WithDescription("returns env. DESC-ENV: "+leak),
		mcp.WithString("db", mcp.Description("the database"), mcp.DefaultString(leak))),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{
				Content: []mcp.Content{
					mcp.NewTextContent("RESULT-ENV: " + leak),
					mcp.NewEmbeddedResource(mcp.TextResourceContents{URI: "env://leak", MIMEType: "text/plain", Text: "RESOURCE-ENV: " + leak}),
				},
				StructuredContent: map[string]any{"env": leak},
			}, nil
		})
	s.AddTool(mcp.NewTool("fail", mcp.WithDescription("fails")), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return nil, errors.New("ERROR-ENV: " + leak)
	})
	s.AddTool(mcp.NewTool("big", mcp.WithDescription("a result of about 5 MB")), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		line := "BIG " + leak + " "
		return mcp.NewToolResultText(strings.Repeat(line, 5<<20/len(line))), nil
	})
	s.AddTool(mcp.NewTool("log", mcp.WithDescription("logs, then answers")), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		_ = server.ServerFromContext(ctx).SendNotificationToClient(ctx, "notifications/message", map[string]any{"level": "error", "data": "LOG-ENV: " + leak})
		return mcp.NewToolResultText("logged"), nil
	})
	s.AddPrompt(mcp.NewPrompt("envprompt", mcp.WithPromptDescription("PROMPT-ENV: "+leak)),
		func(context.Context, mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return mcp.NewGetPromptResult("", []mcp.PromptMessage{mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent("PROMPT-TEXT: "+leak))}), nil
		})
	s.AddResource(mcp.NewResource("env://leak", "leak", mcp.WithResourceDescription("RESOURCE-DESC: "+leak)),
		func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: "env://leak", Text: "RESOURCE-TEXT: " + leak}}, nil
		})
	if err := server.ServeStdio(s); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// envLeak is every NAME=value of the environment whose value holds
// SEKRIT, sorted, and the arguments after the flags.
func envLeak() string {
	var kv []string
	for _, e := range os.Environ() {
		if _, v, _ := strings.Cut(e, "="); strings.Contains(v, "SEKRIT") {
			kv = append(kv, e)
		}
	}
	sort.Strings(kv)
	return strings.Join(kv, " ") + " ARGV: " + strings.Join(flag.Args(), " ")
}

// askEnv is the tool ask: one sampling request and one form, each holding
// leak, asked as input requests (mcp-go sends them as requests of their
// own to a client older than 2026-07-28).
func askEnv(leak string) server.ToolHandlerFunc {
	return func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if server.SamplingResponse(req.Params.InputResponses, "model") != nil || server.ElicitationResponse(req.Params.InputResponses, "form") != nil {
			return mcp.NewToolResultText("asked"), nil
		}
		return server.NewInputRequestBuilder("").
			Sample("model", mcp.CreateMessageParams{MaxTokens: 100, SystemPrompt: "SAMPLING-SYSTEM: " + leak,
				Messages: []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent("SAMPLING-ENV: " + leak)}}}).
			Elicit("form", mcp.ElicitationParams{Message: "FORM-ENV: " + leak, RequestedSchema: map[string]any{"type": "object",
				"properties": map[string]any{"db": map[string]any{"type": "string", "title": "FORM-TITLE: " + leak, "description": "FORM-DESC: " + leak}}}}).
			ToolResult(), nil
	}
}

// envCompleter suggests leak for any prompt argument.
type envCompleter string

func (c envCompleter) CompletePromptArgument(context.Context, string, mcp.CompleteArgument, mcp.CompleteContext) (*mcp.Completion, error) {
	return &mcp.Completion{Values: []string{"COMPLETION-ENV: " + string(c)}}, nil
}
