package router

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/builtin/mcptest"
)

// leakSecret is what the leaky server was started with.
const leakSecret = "SEKRIT-0001-value"

// oneSecret is a Redactor that knows leakSecret.
type oneSecret struct{}

func (oneSecret) Redact(s string) string {
	return strings.ReplaceAll(s, leakSecret, "••••alue")
}
func (oneSecret) InJSON(raw []byte) bool { return bytes.Contains(raw, []byte(leakSecret)) }
func (oneSecret) Empty() bool            { return false }

// seenGate is a Gate that offers everything and keeps what it was shown.
type seenGate struct {
	mu    sync.Mutex
	tools []mcp.Tool
}

func (g *seenGate) Screen(_ string, tools []mcp.Tool) []error {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.tools = append(g.tools, tools...)
	return make([]error, len(tools))
}

// leakyServer puts leakSecret wherever a server can say something: tool,
// prompt and resource descriptions, a schema's default, results (text,
// an embedded resource, structuredContent), an error, a prompt and a
// resource's text.
func leakyServer() *server.MCPServer {
	s := server.NewMCPServer("leaky", "1", server.WithToolCapabilities(true), server.WithPromptCapabilities(true), server.WithResourceCapabilities(false, true),
		server.WithCompletions(), server.WithPromptCompletionProvider(leakyCompleter{}), server.WithTaskCapabilities(true, true, true))
	s.AddTaskTool(mcp.NewTool("job", mcp.WithTaskSupport(mcp.TaskSupportRequired)),
		func(context.Context, mcp.CallToolRequest) (*mcp.CreateTaskResult, error) {
			return nil, errors.New("TASK-ENV: API_TOKEN=" + leakSecret) // the task's statusMessage
		})
	s.AddTool(mcp.NewTool("env", mcp.WithDescription("returns env. DESC-ENV: API_TOKEN="+leakSecret),
		mcp.WithString("db", mcp.Description("the database"), mcp.DefaultString("postgres://u:"+leakSecret+"@db"))),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{
				Content: []mcp.Content{
					mcp.NewTextContent("RESULT-ENV: API_TOKEN=" + leakSecret),
					mcp.NewEmbeddedResource(mcp.TextResourceContents{URI: "env://x", Text: "token " + leakSecret}),
				},
				StructuredContent: map[string]any{"env": []any{map[string]any{"API_TOKEN": leakSecret}}, "n": 1},
			}, nil
		})
	s.AddTool(mcp.NewTool("fail"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return nil, errors.New("ERROR-ENV: API_TOKEN=" + leakSecret)
	})
	s.AddTool(mcp.NewTool("clean"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("nothing to hide"), nil
	})
	s.AddPrompt(mcp.NewPrompt("p", mcp.WithPromptDescription("prompt of "+leakSecret)),
		func(context.Context, mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return mcp.NewGetPromptResult("d "+leakSecret, []mcp.PromptMessage{mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent("use "+leakSecret))}), nil
		})
	s.AddResource(mcp.NewResource("env://r", "r", mcp.WithResourceDescription("resource of "+leakSecret)),
		func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: "env://r", Text: "text " + leakSecret}}, nil
		})
	return s
}

// leakyCompleter suggests a value holding leakSecret.
type leakyCompleter struct{}

func (leakyCompleter) CompletePromptArgument(context.Context, string, mcp.CompleteArgument, mcp.CompleteContext) (*mcp.Completion, error) {
	return &mcp.Completion{Values: []string{"postgres://u:" + leakSecret + "@db", "plain"}}, nil
}

// keptQuestions is an Asker that keeps the questions it is asked.
type keptQuestions struct {
	mu        sync.Mutex
	samplings []mcp.CreateMessageRequest
	elicits   []mcp.ElicitationRequest
}

func (k *keptQuestions) CreateMessage(_ context.Context, _ string, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.samplings = append(k.samplings, req)
	return &mcp.CreateMessageResult{}, nil
}

func (k *keptQuestions) Elicit(_ context.Context, _ string, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.elicits = append(k.elicits, req)
	return &mcp.ElicitationResult{}, nil
}

// leakyQuestions are a server's questions holding leakSecret wherever one
// can: a sampling request's system prompt and messages (text as mcp-go
// types it, as generic JSON as a transport may leave it, a list of
// blocks, an embedded resource, an earlier tool call and its result), and
// an elicitation's message and form schema (title, description, default,
// choices).
func leakyQuestions() ([]mcp.CreateMessageRequest, []mcp.ElicitationRequest) {
	sampling := mcp.CreateMessageRequest{}
	sampling.SystemPrompt = "you know " + leakSecret
	sampling.Messages = []mcp.SamplingMessage{
		{Role: mcp.RoleUser, Content: mcp.NewTextContent("typed " + leakSecret)},
		{Role: mcp.RoleUser, Content: map[string]any{"type": "text", "text": "generic " + leakSecret}},
		{Role: mcp.RoleUser, Content: []any{map[string]any{"type": "text", "text": "listed " + leakSecret}}},
		{Role: mcp.RoleUser, Content: []mcp.Content{mcp.NewTextContent("blocks " + leakSecret),
			mcp.NewEmbeddedResource(mcp.TextResourceContents{URI: "env://x", Text: "file " + leakSecret})}},
		{Role: mcp.RoleAssistant, Content: mcp.ToolUseContent{Type: "tool_use", ID: "u1", Name: "env", Input: map[string]any{"token": leakSecret}}},
		{Role: mcp.RoleUser, Content: mcp.ToolResultContent{Type: "tool_result", ToolUseID: "u1", Content: []mcp.Content{mcp.NewTextContent("result " + leakSecret)},
			StructuredContent: map[string]any{"token": leakSecret}}},
	}
	form := mcp.ElicitationRequest{}
	form.Params.Message = "confirm " + leakSecret
	form.Params.RequestedSchema = map[string]any{"type": "object", "properties": map[string]any{
		"db":   map[string]any{"type": "string", "title": "db " + leakSecret, "description": "uses " + leakSecret, "default": leakSecret},
		"pick": map[string]any{"type": "string", "enum": []any{leakSecret, "no"}},
	}}
	return []mcp.CreateMessageRequest{sampling}, []mcp.ElicitationRequest{form}
}

// askedThrough puts leakyQuestions to an Asker behind Tying and returns
// what it was asked.
func askedThrough(t *testing.T, r *Router) (samplings []mcp.CreateMessageRequest, elicits []mcp.ElicitationRequest) {
	t.Helper()
	kept := &keptQuestions{}
	asker := Tying(r, kept)
	sampling, forms := leakyQuestions()
	for _, q := range sampling {
		if _, err := asker.CreateMessage(t.Context(), "leaky", q); err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range forms {
		if _, err := asker.Elicit(t.Context(), "leaky", q); err != nil {
			t.Fatal(err)
		}
	}
	if b, _ := json.Marshal(sampling); !strings.Contains(string(b), leakSecret) {
		t.Fatal("the server's own request was changed: Tying must mask a copy")
	}
	return kept.samplings, kept.elicits
}

// taskStatuses runs leaky's task tool "job", which fails with leakSecret
// in its statusMessage, on a session of 2025-11-25 (whose tasks the
// router follows), and returns the statuses OnTask was told and the
// call's result.
func taskStatuses(t *testing.T, r *Router) ([]TaskUpdate, *mcp.CallToolResult) {
	t.Helper()
	s := &src{name: "tasky"}
	s.cl.Store(mcptest.Connect(t, leakyServer(), mcptest.Protocol(mcp.LATEST_LEGACY_PROTOCOL_VERSION)))
	r.Add(s)
	var mu sync.Mutex
	var told []TaskUpdate
	res, err := r.Call(t.Context(), "tasky", "job", nil, CallOptions{OnTask: func(u TaskUpdate) {
		mu.Lock()
		defer mu.Unlock()
		told = append(told, u)
	}})
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(told) == 0 || told[len(told)-1].Status != "failed" {
		t.Fatalf("task statuses %+v; want it to end failed", told)
	}
	return told, res
}

// TestSecretsMaskedAtTheSource: whatever a server says reaches every
// caller of the router masked, and the gate (the pins) and a Recaller (the
// kept listing) are shown the masked listing: its questions (sampling,
// elicitation) reach the door's Asker masked, and so do its completions
// and its tasks' status messages.
func TestSecretsMaskedAtTheSource(t *testing.T) {
	gate := &seenGate{}
	r := New(Options{Gate: gate, Redact: oneSecret{}})
	s := &src{name: "leaky"}
	s.cl.Store(mcptest.Connect(t, leakyServer()))
	r.Add(s)
	ctx := t.Context()

	tools, _ := r.Tools(ctx)
	res, callErr := r.Call(ctx, "leaky", "env", nil, CallOptions{})
	_, failErr := r.Call(ctx, "leaky", "fail", nil, CallOptions{})
	raw, rawErr := r.CallRaw(ctx, "leaky", "env", json.RawMessage(`{}`), CallOptions{})
	_, rawFailErr := r.CallRaw(ctx, "leaky", "fail", json.RawMessage(`{}`), CallOptions{})
	prompts, _ := r.ServerPrompts(ctx, "leaky")
	prompt, promptErr := r.GetPrompt(ctx, "leaky", "p", nil)
	resources, _ := r.ServerResources(ctx, "leaky")
	read, readErr := r.ReadResource(ctx, "leaky", "env://r")
	if callErr != nil || rawErr != nil || promptErr != nil || readErr != nil || failErr == nil || rawFailErr == nil {
		t.Fatalf("errors: call %v, raw %v, prompt %v, read %v, fail %v, raw fail %v", callErr, rawErr, promptErr, readErr, failErr, rawFailErr)
	}
	completions, completeErr := r.Complete(ctx, "leaky", Completion{Prompt: "p", Argument: "db"})
	if completeErr != nil || len(completions) != 2 {
		t.Fatalf("Complete = %q, %v", completions, completeErr)
	}
	samplings, elicits := askedThrough(t, r)
	statuses, taskRes := taskStatuses(t, r)
	gate.mu.Lock()
	screened := gate.tools
	gate.mu.Unlock()
	doors := map[string]any{
		"Tools": tools, "Call": res, "the call's error": failErr.Error(), "CallRaw": raw, "CallRaw's error": rawFailErr.Error(),
		"ServerPrompts": prompts, "GetPrompt": prompt, "ServerResources": resources, "ReadResource": read, "the gate": screened,
		"Complete": completions, "a sampling request": samplings, "an elicitation": elicits,
		"a task's status": statuses[len(statuses)-1], "a failed task's result": taskRes,
	}
	for door, v := range doors {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), leakSecret) || !strings.Contains(string(b), "••••alue") {
			t.Errorf("%s: %s; want the secret masked", door, b)
		}
	}
	var back mcp.CallToolResult
	if err := json.Unmarshal(raw, &back); err != nil || len(back.Content) != 2 {
		t.Fatalf("CallRaw's masked result is not a result: %v %s", err, raw)
	}
}

// A result without a secret is not decoded, copied or changed.
func TestRedactLeavesCleanResultsAlone(t *testing.T) {
	raw := json.RawMessage(`{"content":[{"type":"text","text":"nothing to hide"}],"structuredContent":{"n":1.50}}`)
	if got := redactJSON(oneSecret{}, raw); unsafe.SliceData(got) != unsafe.SliceData(raw) || len(got) != len(raw) {
		t.Fatalf("redactJSON copied a clean result: %s", got)
	}
	m := map[string]any{"a": []any{"x", map[string]any{"b": "y"}}}
	if got, ok := redactValue(oneSecret{}, m).(map[string]any); !ok || !sameMap(got, m) {
		t.Fatal("redactValue copied a clean value")
	}
	dirty := map[string]any{"a": []any{"x", map[string]any{"b": leakSecret}}}
	got := redactValue(oneSecret{}, dirty).(map[string]any)
	if sameMap(got, dirty) || dirty["a"].([]any)[1].(map[string]any)["b"] != leakSecret {
		t.Fatal("redactValue changed the value it was given instead of a copy")
	}
	if b, _ := json.Marshal(got); !strings.Contains(string(b), `"b":"••••alue"`) {
		t.Fatalf("masked copy = %s", b)
	}
}

// sameMap reports whether a and b are one map.
func sameMap(a, b map[string]any) bool {
	a["\x00probe"] = true
	_, same := b["\x00probe"]
	delete(a, "\x00probe")
	return same
}

// The results of a server whose results are the user's own data (the
// built-ins: a workspace file, a store's document) come back as they are,
// so a model writing a file it read does not write the mask over the
// user's key; that server's errors and listing are still masked.
func TestOwnDataResultsAreNotMasked(t *testing.T) {
	r := New(Options{Redact: oneSecret{}, OwnData: func(s string) bool { return s == "leaky" }})
	s := &src{name: "leaky"}
	s.cl.Store(mcptest.Connect(t, leakyServer()))
	r.Add(s)
	ctx := t.Context()
	res, err := r.Call(ctx, "leaky", "env", nil, CallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	raw, err := r.CallRaw(ctx, "leaky", "env", json.RawMessage(`{}`), CallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for door, v := range map[string]any{"Call": res, "CallRaw": raw} {
		if b, _ := json.Marshal(v); !strings.Contains(string(b), leakSecret) {
			t.Errorf("%s: %s; want the user's own data as it is", door, b)
		}
	}
	_, failErr := r.Call(ctx, "leaky", "fail", nil, CallOptions{})
	tools, _ := r.Tools(ctx)
	b, _ := json.Marshal(tools)
	if failErr == nil || strings.Contains(failErr.Error(), leakSecret) || strings.Contains(string(b), leakSecret) {
		t.Errorf("error %v, listing %s: want both masked", failErr, b)
	}
}
