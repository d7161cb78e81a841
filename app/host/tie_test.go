package host

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/app/history"
	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
)

// screen is the person at the window: it approves every card and form,
// and records each.
type screen struct {
	mu    sync.Mutex
	cards []chat.ApprovalRequest
	forms []chat.ElicitRequest
}

func (s *screen) Approve(_ context.Context, req chat.ApprovalRequest) (chat.Decision, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cards = append(s.cards, req)
	return chat.ApproveOnce, nil
}

func (s *screen) Elicit(_ context.Context, req chat.ElicitRequest) (chat.ElicitAnswer, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.forms = append(s.forms, req)
	return chat.ElicitAnswer{Action: "accept", Content: map[string]any{"ok": true}}, nil
}

// shownIn is the chat of each question the window showed ("" outside a chat).
func (s *screen) shownIn() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, c := range s.cards {
		if c.Kind == chat.KindSampling {
			out = append(out, c.ChatID)
		}
	}
	for _, f := range s.forms {
		out = append(out, f.ChatID)
	}
	return out
}

// otherApp is an app attached through 'switchboard serve' that takes
// sampling and forms, and records each question it is asked.
type otherApp struct {
	mu    sync.Mutex
	asked []string
}

func (a *otherApp) note(q string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.asked = append(a.asked, q)
}

func (a *otherApp) seen() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.asked...)
}

func (a *otherApp) CreateMessage(_ context.Context, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	a.note(fmt.Sprint(req.Messages))
	return &mcp.CreateMessageResult{Model: "the app's model", SamplingMessage: mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: mcp.NewTextContent("the app answers")}}, nil
}

func (a *otherApp) Elicit(_ context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	a.note(req.Params.Message)
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{"ok": true}}}, nil
}

// attach connects app to the window's shared servers as 'switchboard
// serve' does (h.Shared.Attach, relaying its stdio), and returns its
// client, initialized with the sampling and elicitation capabilities.
func attach(t *testing.T, ctx context.Context, h *Host, app *otherApp) *client.Client {
	t.Helper()
	caps := mcp.ClientCapabilities{Sampling: &mcp.SamplingCapability{}, Elicitation: &mcp.ElicitationCapability{Form: &struct{}{}}}
	return attachWith(t, ctx, h, app, caps)
}

// attachWith is attach for an app that declares caps (and answers only
// what they name: mcp-go's client declares what it has a handler for).
func attachWith(t *testing.T, ctx context.Context, h *Host, app *otherApp, caps mcp.ClientCapabilities) *client.Client {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	attached := make(chan error, 1)
	go func() {
		_, err := h.Shared.Attach(ctx, AttachRequest{In: inR, Out: outW, Client: "test-app"})
		outW.Close()
		attached <- err
	}()
	var answers []client.ClientOption
	if caps.Sampling != nil {
		answers = append(answers, client.WithSamplingHandler(app))
	}
	if caps.Elicitation != nil {
		answers = append(answers, client.WithElicitationHandler(app))
	}
	cl := client.NewClient(transport.NewIO(outR, inW, nil), answers...)
	if err := cl.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cl.Close()
		inW.Close()
		<-attached // ends with ctx: the app is let go
	})
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.ProtocolVersion20251125
	init.Params.ClientInfo = mcp.Implementation{Name: "test-app", Version: "1"}
	init.Params.Capabilities = caps
	if _, err := cl.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	return cl
}

// awaitFile returns once path exists.
func awaitFile(t *testing.T, path string) {
	t.Helper()
	mcptest.Within(t, 30*time.Second, path, func() error {
		_, err := os.Stat(path)
		return err
	})
}

// TestQuestionsStayWithTheirCaller: the window shares its servers and an
// app is attached through 'switchboard serve'. A question a stdio server
// (the testserver in mode askserver) asks during a chat's call, or a
// Tools page call, while the app's call runs on it too, is refused: it
// reaches neither the app nor the window, since whose it is cannot be
// told. Asked while the window's call runs alone, it is the window's: a
// chat's is shown in that chat and sampled with the chat's model, the
// Tools page's outside any chat with the fallback model.
func TestQuestionsStayWithTheirCaller(t *testing.T) {
	bin := proctest.Server(t, "askserver")
	for _, tc := range []struct {
		caller, kind string
		appRuns      bool
	}{
		{"chat", "sampling", true},
		{"chat", "form", true},
		{"chat", "sampling", false},
		{"chat", "form", false},
		{"tools page", "sampling", true},
		{"tools page", "sampling", false},
	} {
		t.Run(fmt.Sprintf("%s %s, the app's call running %v", tc.caller, tc.kind, tc.appRuns), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
			defer cancel()
			h := open(t)
			hist, err := history.Open(ctx, filepath.Join(t.TempDir(), "history.db"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { hist.Close() })
			row, err := hist.CreateChat(ctx, history.Chat{Title: "mine"})
			if err != nil {
				t.Fatal(err)
			}
			llm := providertest.NewServer(t)
			p, err := provider.New(provider.Config{Kind: provider.KindOpenAI, Name: "fake", BaseURL: llm.URL(provider.KindOpenAI), APIKey: "k"})
			if err != nil {
				t.Fatal(err)
			}
			me := &screen{}
			eng := h.Chats.newEngine(hist, me)
			h.Servers.HandleRequests(h.Chats.requests(&ChatRequests{Engine: eng, Approver: me, Elicitor: me,
				Fallback: func(context.Context) (chat.Model, error) { return chat.Model{Provider: p, Name: "fallback-model"}, nil }}))
			if err := h.Shared.Start(ctx); err != nil {
				t.Fatal(err)
			}
			h.Servers.Run([]config.Server{{Name: "ask", Transport: config.Stdio, Command: bin}})
			h.mgr.WaitSettled(ctx)
			app := &otherApp{}
			appClient := attach(t, ctx, h, app)

			dir := t.TempDir()
			gate, appGate := filepath.Join(dir, "mine"), filepath.Join(dir, "app")
			held := make(chan error, 1)
			if tc.appRuns {
				go func() {
					req := mcp.CallToolRequest{}
					req.Params.Name, req.Params.Arguments = "ask__hold", map[string]any{"gate": appGate}
					_, err := appClient.CallTool(ctx, req)
					held <- err
				}()
				awaitFile(t, appGate+".started")
			} else {
				held <- nil
			}
			args := fmt.Sprintf(`{"who":"alice","kind":%q,"gate":%q}`, tc.kind, gate)
			result := make(chan string, 1)
			go func() { result <- callAs(ctx, h, eng, tc.caller, row.ID, p, llm, args) }()
			awaitFile(t, gate+".started")
			if err := os.WriteFile(gate, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			got := <-result
			if err := os.WriteFile(appGate, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := <-held; err != nil {
				t.Errorf("the app's call: %v", err)
			}

			want := map[bool]string{true: "refused: ", false: "answered: "}[tc.appRuns]
			if !strings.Contains(got, want) {
				t.Errorf("the %s's call came back %q, want its question %s…", tc.caller, got, want)
			}
			if s := app.seen(); len(s) != 0 {
				t.Errorf("the attached app, whose call did not ask, was asked %q", s)
			}
			wantShown := map[string]string{"chat": row.ID, "tools page": ""}[tc.caller]
			if shown := me.shownIn(); tc.appRuns && len(shown) != 0 || !tc.appRuns && (len(shown) != 1 || shown[0] != wantShown) {
				t.Errorf("the window showed the question in chats %q; want %s", shown, map[bool]string{true: "none", false: fmt.Sprintf("%q alone", wantShown)}[tc.appRuns])
			}
			if tc.kind == "sampling" && !tc.appRuns && !strings.Contains(got, map[string]string{"chat": "by chat-model", "tools page": "by fallback-model"}[tc.caller]) {
				t.Errorf("sampled with another model than the %s's: %q", tc.caller, got)
			}
		})
	}
}

// callAs calls ask__ask with args as caller does: a chat's turn (the
// model calls it, then answers) or the Tools page, and returns its result.
func callAs(ctx context.Context, h *Host, eng *chat.Engine, caller, chatID string, p provider.Provider, llm *providertest.Server, args string) string {
	if caller == "tools page" {
		llm.Enqueue(providertest.Reply{Text: "the model's answer"})
		var m map[string]any
		_ = json.Unmarshal([]byte(args), &m)
		res, err := h.Tools.Call(ctx, "ask__ask", m)
		if err != nil {
			return "error: " + err.Error()
		}
		return fmt.Sprint(res.Content)
	}
	llm.Enqueue(providertest.Reply{ToolCalls: []providertest.ToolCall{{ID: "c1", Name: "ask__ask", Arguments: args}}},
		providertest.Reply{Text: "the model's answer"}, providertest.Reply{Text: "done"})
	res, err := eng.Send(ctx, chat.Turn{ChatID: chatID, Provider: p, Model: "chat-model", Text: "go"})
	if err != nil || len(res.ToolCalls) == 0 {
		return fmt.Sprintf("error: %v, %d calls", err, len(res.ToolCalls))
	}
	return string(res.ToolCalls[0].Result)
}
