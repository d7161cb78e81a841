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
	s := server.NewMCPServer("leaky", "1", server.WithToolCapabilities(true), server.WithPromptCapabilities(true), server.WithResourceCapabilities(false, true))
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

// TestSecretsMaskedAtTheSource: whatever a server says reaches every
// caller of the router masked, and the gate (the pins) and a Recaller (the
// kept listing) are shown the masked listing.
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
	gate.mu.Lock()
	screened := gate.tools
	gate.mu.Unlock()
	doors := map[string]any{
		"Tools": tools, "Call": res, "the call's error": failErr.Error(), "CallRaw": raw, "CallRaw's error": rawFailErr.Error(),
		"ServerPrompts": prompts, "GetPrompt": prompt, "ServerResources": resources, "ReadResource": read, "the gate": screened,
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
