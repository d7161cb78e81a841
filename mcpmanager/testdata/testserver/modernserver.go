package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// serveModernServer serves mode modernserver: a test MCP server that speaks revision 2026-07-28
// only, the way servers built on the new SDKs do: no initialize handshake
// (stdio answers it with -32601, HTTP with 404), server/discover,
// per-request _meta, and input asked for with input_required results (multi
// round-trip requests), never with requests of its own.
//
//	modernserver               # stdio
//	modernserver -http ADDR    # Streamable HTTP on ADDR (127.0.0.1:0 for any port), printing "listening on URL"
//
// Its tools:
//   - greet {name}: "Hello, NAME!";
//   - book_table: asks for the party (a form: name, and size with a
//     default of 2), then answers "Booked a table for SIZE under NAME." (or
//     "No table booked." when the user declines);
//   - summarize {text}: asks the client's model (sampling) and returns its
//     answer;
//   - list_roots: asks the client for its roots and returns their URIs;
//   - request: returns the call's _meta and its arguments as they came
//     (JSON), which tells a call relayed raw from one mcp-go encoded;
//   - keep_asking: asks for a form again at every round, never finishing;
//   - grow: adds a tool named "extra" (its clients hear tools/list_changed
//     on their subscriptions/listen stream);
//   - prepare_report: for a client that declares the tasks extension, a
//     task that asks a question on the way (tasks.go); for others, the
//     report at once.
//
// It serves two skills (the skills extension, skills.go): release-notes
// (SKILL.md and a template) and haiku; -corrupt-skill serves haiku's
// SKILL.md with other content than its listing says.
//
// Test-only; the Go tests, 'switchboard tools call' tests and the e2e tests
// build it.
func serveModernServer() {
	addr := modernHTTP
	s := newModernServer()
	if *addr != "" {
		serveHTTP(s, *addr)
		return
	}
	serveStdio(s)
}

// tasks is the server's tasks extension (tasks.go).
var tasks taskServer

func newModernServer() *server.MCPServer {
	s := server.NewMCPServer("modern", "1.0.0", server.WithToolCapabilities(true),
		server.WithResourceCapabilities(false, false),
		server.WithExtensions(map[string]any{tasksExtension: map[string]any{}, skillsExtension: map[string]any{}}))
	addSkillResources(s)
	s.AddTool(mcp.NewTool("prepare_report", mcp.WithDescription("Prepare the monthly report (a task that asks about the appendix)"),
		mcp.WithTaskSupport(mcp.TaskSupportOptional)),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(report(false)), nil
		})
	s.AddTool(mcp.NewTool("greet", mcp.WithDescription("Say hello to someone"),
		mcp.WithString("name", mcp.Required(), mcp.Description("who to greet"))),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(fmt.Sprintf("Hello, %s!", req.GetString("name", "stranger"))), nil
		})
	s.AddTool(mcp.NewTool("book_table", mcp.WithDescription("Book a table at the restaurant; asks who is coming")),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res := server.ElicitationResponse(req.Params.InputResponses, "party")
			if res == nil {
				return server.NewInputRequestBuilder("booking-1").Elicit("party", mcp.ElicitationParams{
					Message: "Who is the table for?",
					RequestedSchema: map[string]any{
						"type": "object",
						"properties": map[string]any{
							"name": map[string]any{"type": "string", "title": "Name"},
							"size": map[string]any{"type": "integer", "title": "Party size", "minimum": 1, "maximum": 12, "default": 2},
						},
						"required": []any{"name"},
					},
				}).ToolResult(), nil
			}
			if req.Params.RequestState != "booking-1" {
				return mcp.NewToolResultError(fmt.Sprintf("requestState %q is not the one this server sent", req.Params.RequestState)), nil
			}
			if res.Action != mcp.ElicitationResponseActionAccept {
				return mcp.NewToolResultText("No table booked."), nil
			}
			content, _ := res.Content.(map[string]any)
			return mcp.NewToolResultText(fmt.Sprintf("Booked a table for %v under %v.", content["size"], content["name"])), nil
		})
	s.AddTool(mcp.NewTool("summarize", mcp.WithDescription("Summarize a text with the client's model"),
		mcp.WithString("text", mcp.Required())),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res := server.SamplingResponse(req.Params.InputResponses, "summary")
			if res == nil {
				return server.NewInputRequestBuilder("").Sample("summary", mcp.CreateMessageParams{
					MaxTokens: 100,
					Messages:  []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent("Summarize: " + req.GetString("text", ""))}},
				}).ToolResult(), nil
			}
			switch c := res.Content.(type) { // as decoded from the wire, or as built in process
			case mcp.TextContent:
				return mcp.NewToolResultText(c.Text), nil
			case map[string]any:
				text, _ := c["text"].(string)
				return mcp.NewToolResultText(text), nil
			}
			return mcp.NewToolResultError(fmt.Sprintf("the model's answer is %T, not text", res.Content)), nil
		})
	s.AddTool(mcp.NewTool("keep_asking", mcp.WithDescription("Asks again and again")),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return server.NewInputRequestBuilder(fmt.Sprint(len(req.Params.RequestState))).Elicit("more", mcp.ElicitationParams{
				Message:         "One more thing?",
				RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{}},
			}).ToolResult(), nil
		})
	s.AddTool(mcp.NewTool("grow", mcp.WithDescription("Add a tool named extra")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			s.AddTool(mcp.NewTool("extra", mcp.WithDescription("A tool added while running")),
				func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					return mcp.NewToolResultText("extra!"), nil
				})
			return mcp.NewToolResultText("added extra"), nil
		})
	s.AddTool(mcp.NewTool("request", mcp.WithDescription("Tell what the call carried: its _meta, and its arguments as they came")),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			out, err := json.Marshal(map[string]any{"meta": req.Params.Meta, "arguments": string(req.Params.RawArguments)})
			if err != nil {
				return nil, err
			}
			return mcp.NewToolResultText(string(out)), nil
		})
	s.AddTool(mcp.NewTool("list_roots", mcp.WithDescription("List the client's roots")),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res := server.RootsResponse(req.Params.InputResponses, "roots")
			if res == nil {
				return server.NewInputRequestBuilder("").Roots("roots").ToolResult(), nil
			}
			uris := make([]string, 0, len(res.Roots))
			for _, r := range res.Roots {
				uris = append(uris, r.URI)
			}
			return mcp.NewToolResultText(strings.Join(uris, "\n")), nil
		})
	return s
}

// notFound is the answer to initialize on stdio: the method does not exist
// in revision 2026-07-28.
func notFound(id json.RawMessage) []byte {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{
		"code": mcp.METHOD_NOT_FOUND, "message": "Method not found: initialize (this server speaks MCP 2026-07-28 only)",
	}})
	return append(b, '\n')
}

// serveStdio runs the server on stdin/stdout, answering initialize itself.
func serveStdio(s *server.MCPServer) {
	var wmu sync.Mutex
	out := bufio.NewWriter(os.Stdout)
	write := func(line []byte) {
		wmu.Lock()
		defer wmu.Unlock()
		_, _ = out.Write(line)
		_ = out.Flush()
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			write(append(sc.Bytes(), '\n'))
		}
	}()
	go func() {
		sc := bufio.NewScanner(os.Stdin)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			var msg struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			line := bytes.Clone(sc.Bytes())
			if json.Unmarshal(line, &msg) == nil && msg.Method == string(mcp.MethodInitialize) {
				write(notFound(msg.ID))
				continue
			}
			if out := tasks.handle(line); out != nil {
				write(out)
				continue
			}
			if out := skills(line); out != nil {
				write(out)
				continue
			}
			if msg.Method == string(mcp.MethodNotificationInitialized) {
				continue
			}
			if _, err := inW.Write(append(line, '\n')); err != nil {
				return
			}
		}
		inW.Close()
	}()
	if err := server.NewStdioServer(s).Listen(context.Background(), inR, outW); err != nil && err != io.EOF && err != context.Canceled {
		log.Fatal(err)
	}
}

// serveHTTP serves Streamable HTTP, refusing initialize with 404 as a
// server without the handshake does.
func serveHTTP(s *server.MCPServer, addr string) {
	h := server.NewStreamableHTTPServer(s, server.WithStreamableHTTPProtocolVersions(mcp.ProtocolVersion20260728))
	l, err := net.Listen("tcp", addr)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("listening on http://%s/mcp\n", l.Addr())
	log.Fatal(http.Serve(l, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(io.LimitReader(r.Body, 16<<20))
			var msg struct {
				Method string `json:"method"`
			}
			if json.Unmarshal(body, &msg) == nil && msg.Method == string(mcp.MethodInitialize) {
				http.NotFound(w, r)
				return
			}
			out := tasks.handle(body)
			if out == nil {
				out = skills(body)
			}
			if out != nil {
				w.Header().Set("Content-Type", "application/json")
				_, _ = w.Write(out)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		h.ServeHTTP(w, r)
	})))
}
