package chat_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

func TestDecideSampling(t *testing.T) {
	inCall := chat.SamplingFacts{Server: "s", InCall: true}
	with := func(f chat.SamplingFacts, mod func(*chat.SamplingFacts)) chat.SamplingFacts { mod(&f); return f }
	allow := chat.SamplingSettings{Mode: chat.SamplingAllow}
	tests := []struct {
		name   string
		s      chat.SamplingSettings
		f      chat.SamplingFacts
		want   chat.Verdict
		whyHas string
	}{
		{"the default asks", chat.SamplingSettings{}, inCall, chat.Ask, ""},
		{"ask asks", chat.SamplingSettings{Mode: chat.SamplingAsk}, inCall, chat.Ask, ""},
		{"deny refuses", chat.SamplingSettings{Mode: chat.SamplingDeny}, inCall, chat.Refuse, "turned off"},
		{"allow runs the first of a chat", allow, inCall, chat.Run, ""},
		{"allow runs up to the default five", allow, with(inCall, func(f *chat.SamplingFacts) { f.SentInChat = 4 }), chat.Run, ""},
		{"allow asks past five", allow, with(inCall, func(f *chat.SamplingFacts) { f.SentInChat = 5 }), chat.Ask, ""},
		{"allow asks past its own N", chat.SamplingSettings{Mode: chat.SamplingAllow, PerChat: 2}, with(inCall, func(f *chat.SamplingFacts) { f.SentInChat = 2 }), chat.Ask, ""},
		{"outside a call is refused", allow, chat.SamplingFacts{Server: "s"}, chat.Refuse, "none of its tool calls was running"},
		{"outside a call asks when allowed", chat.SamplingSettings{OutsideCalls: true}, chat.SamplingFacts{Server: "s"}, chat.Ask, ""},
		{"outside a call runs when allowed and mode allow", chat.SamplingSettings{Mode: chat.SamplingAllow, OutsideCalls: true}, chat.SamplingFacts{Server: "s"}, chat.Run, ""},
		{"the tenth in a minute passes", allow, with(inCall, func(f *chat.SamplingFacts) { f.LastMinute = 9 }), chat.Run, ""},
		{"past ten a minute is refused", allow, with(inCall, func(f *chat.SamplingFacts) { f.LastMinute = 10 }), chat.Refuse, "more than 10 times in a minute"},
		{"the cap holds in ask mode", chat.SamplingSettings{}, with(inCall, func(f *chat.SamplingFacts) { f.LastMinute = 10 }), chat.Refuse, "more than 10"},
		{"its own cap", chat.SamplingSettings{PerMinute: 2}, with(inCall, func(f *chat.SamplingFacts) { f.LastMinute = 2 }), chat.Refuse, "more than 2 times"},
		{"deny wins over outside calls", chat.SamplingSettings{Mode: chat.SamplingDeny, OutsideCalls: true}, chat.SamplingFacts{Server: "s"}, chat.Refuse, "turned off"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := chat.DecideSampling(tt.s, tt.f)
			if r.Verdict != tt.want || !strings.Contains(r.Why, tt.whyHas) || (tt.want == chat.Refuse) != (r.Why != "") {
				t.Fatalf("DecideSampling = %+v; want verdict %v with %q", r, tt.want, tt.whyHas)
			}
		})
	}
}

func TestSamplingSettingsValidate(t *testing.T) {
	for _, tt := range []struct {
		s  chat.SamplingSettings
		ok bool
	}{
		{chat.SamplingSettings{}, true},
		{chat.SamplingSettings{Mode: chat.SamplingAllow, PerChat: 3, PerMinute: 20, OutsideCalls: true}, true},
		{chat.SamplingSettings{Mode: "always"}, false},
		{chat.SamplingSettings{PerChat: -1}, false},
		{chat.SamplingSettings{PerMinute: 5000}, false},
	} {
		if err := tt.s.Validate(); (err == nil) != tt.ok {
			t.Errorf("%+v: Validate = %v", tt.s, err)
		}
	}
}

func TestClampMaxTokens(t *testing.T) {
	for _, tt := range []struct {
		asked int
		model string
		want  int
	}{
		{100, "some-local-model", 100},
		{100_000, "some-local-model", 4096}, // unknown: the default cap
		{0, "some-local-model", 4096},       // none asked: bounded anyway
		{-5, "llama3.1:8b", 4096},
		{50_000, "gpt-4o-mini", 16_384},
		{50_000, "openai/gpt-4o", 16_384},
		{1_000_000, "gpt-5", 128_000},
		{20_000, "claude-3-5-sonnet-latest", 8_192},
		{20_000, "claude-3-haiku", 4_096},
		{20_000, "claude-sonnet-4-5", 20_000},
		{200_000, "claude-sonnet-4-5", 64_000},
	} {
		if got := chat.ClampMaxTokens(tt.asked, tt.model); got != tt.want {
			t.Errorf("ClampMaxTokens(%d, %q) = %d; want %d", tt.asked, tt.model, got, tt.want)
		}
	}
}

// TestSamplingFollowsItsSettings: a Requests with settings "allow 2 per
// chat" sends two requests unasked, asks about the third, refuses outside
// a call and under "deny" (telling OnRefused each time), and clamps
// maxTokens on the wire.
func TestSamplingFollowsItsSettings(t *testing.T) {
	llm := providertest.NewServer(t)
	p, err := provider.New(provider.Config{Kind: provider.KindOpenAI, Name: "fake", BaseURL: llm.URL(provider.KindOpenAI), APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	appr := &approver{answer: chat.ApproveOnce}
	var mu sync.Mutex
	settings := chat.SamplingSettings{Mode: chat.SamplingAllow, PerChat: 2}
	var refused []chat.Refusal
	q := &chat.Requests{Engine: chat.New(chat.Options{}), Approver: appr,
		Fallback:  func(context.Context) (chat.Model, error) { return chat.Model{Provider: p, Name: "local-model"}, nil },
		Sampling:  func() chat.SamplingSettings { mu.Lock(); defer mu.Unlock(); return settings },
		OnRefused: func(r chat.Refusal) { mu.Lock(); defer mu.Unlock(); refused = append(refused, r) },
	}
	// The requests come during a call of the Tools page (as the router tied them), but one.
	during := router.WithTie(t.Context(), "srv", "the Tools page")
	big := samplingRequest("hi")
	big.MaxTokens = 1_000_000
	for i := range 3 {
		llm.Enqueue(providertest.Reply{Text: "ok"})
		if _, err := q.CreateMessage(during, "srv", big); err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
	}
	asked := appr.asked()
	if len(llm.Requests()) != 3 || len(asked) != 1 {
		t.Fatalf("%d requests reached the model, %d were asked; want 3 and 1 (the third)", len(llm.Requests()), len(asked))
	}
	var body struct {
		MaxTokens           int `json:"max_tokens"`
		MaxCompletionTokens int `json:"max_completion_tokens"`
	}
	if err := json.Unmarshal(llm.Requests()[0], &body); err != nil || max(body.MaxTokens, body.MaxCompletionTokens) != chat.DefaultSamplingMaxTokens {
		t.Fatalf("maxTokens on the wire: %s", llm.Requests()[0])
	}
	if !strings.Contains(string(asked[0].Arguments), `"maxTokens":4096`) {
		t.Fatalf("the card shows another limit than the model gets: %s", asked[0].Arguments)
	}

	if _, err := q.CreateMessage(router.WithTie(t.Context(), "srv", nil), "srv", big); !errors.Is(err, chat.ErrSamplingRefused) || !strings.Contains(err.Error(), "none of its tool calls") {
		t.Fatalf("outside a call: %v", err)
	}
	mu.Lock()
	settings = chat.SamplingSettings{Mode: chat.SamplingDeny}
	mu.Unlock()
	if _, err := q.CreateMessage(during, "srv", big); !errors.Is(err, chat.ErrSamplingRefused) || !strings.Contains(err.Error(), "turned off") {
		t.Fatalf("deny: %v", err)
	}
	// The user's own "Deny" on the card is no refusal to report.
	mu.Lock()
	settings = chat.SamplingSettings{}
	mu.Unlock()
	appr.answer = chat.Deny
	if _, err := q.CreateMessage(during, "srv", big); !errors.Is(err, chat.ErrSamplingDenied) {
		t.Fatalf("declined: %v", err)
	}
	if len(llm.Requests()) != 3 {
		t.Fatalf("a refused request reached the model: %d requests", len(llm.Requests()))
	}
	mu.Lock()
	defer mu.Unlock()
	if len(refused) != 2 || refused[0].Server != "srv" || !strings.Contains(refused[1].Why, "turned off") {
		t.Fatalf("refusals told: %+v", refused)
	}
}

// TestApproveAllIsNoYesToSampling: the CLI's --yes approver allows tool
// calls, never a server's use of the model.
func TestApproveAllIsNoYesToSampling(t *testing.T) {
	if d, _ := (chat.ApproveAll{}).Approve(t.Context(), chat.ApprovalRequest{Kind: chat.KindSampling}); d != chat.Deny {
		t.Fatalf("sampling: %v", d)
	}
	if d, _ := (chat.ApproveAll{}).Approve(t.Context(), chat.ApprovalRequest{Kind: chat.KindTool}); d != chat.ApproveOnce {
		t.Fatalf("tool: %v", d)
	}
}

// TestAppSamplingSharesTheServersPolicy: an MCP App's sampling request is
// decided as its server's own (the same allowance per chat, the same cap
// per server and minute, "deny" refuses), asks on the same card naming
// the app, and needs no running tool call: the app asks from the screen.
func TestAppSamplingSharesTheServersPolicy(t *testing.T) {
	llm := providertest.NewServer(t)
	p, err := provider.New(provider.Config{Kind: provider.KindOpenAI, Name: "fake", BaseURL: llm.URL(provider.KindOpenAI), APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	appr := &approver{answer: chat.ApproveOnce}
	var mu sync.Mutex
	settings := chat.SamplingSettings{Mode: chat.SamplingAllow, PerChat: 1, PerMinute: 3}
	var refused []chat.Refusal
	q := &chat.Requests{Engine: chat.New(chat.Options{}), Approver: appr,
		Fallback:  func(context.Context) (chat.Model, error) { return chat.Model{Provider: p, Name: "local-model"}, nil },
		Sampling:  func() chat.SamplingSettings { mu.Lock(); defer mu.Unlock(); return settings },
		OnRefused: func(r chat.Refusal) { mu.Lock(); defer mu.Unlock(); refused = append(refused, r) },
	}
	// The server's own request uses the chat's one unasked request (outside a chat: chat ""), so the app's asks.
	llm.Enqueue(providertest.Reply{Text: "from the server"})
	if _, err := q.CreateMessage(router.WithTie(t.Context(), "srv", "the Tools page"), "srv", samplingRequest("hi")); err != nil {
		t.Fatal(err)
	}
	llm.Enqueue(providertest.Reply{Text: "Q4 was fine."})
	res, err := q.CreateMessageForApp(t.Context(), "", "srv", "ui://srv/app.html", samplingRequest("Summarise Q4"))
	if err != nil {
		t.Fatal(err)
	}
	if tc, ok := res.Content.(mcp.TextContent); !ok || tc.Text != "Q4 was fine." {
		t.Fatalf("the app got %+v", res.Content)
	}
	asked := appr.asked()
	if len(asked) != 1 || asked[0].Kind != chat.KindSampling || asked[0].Server != "srv" || asked[0].App != "ui://srv/app.html" ||
		!strings.Contains(string(asked[0].Arguments), "Summarise Q4") {
		t.Fatalf("asked %+v; want one sampling card naming the app", asked)
	}
	// The cap counts srv's requests, the app's and its own: the third passes, the fourth is refused.
	llm.Enqueue(providertest.Reply{Text: "third"})
	if _, err := q.CreateMessageForApp(t.Context(), "", "srv", "ui://srv/app.html", samplingRequest("again")); err != nil {
		t.Fatal(err)
	}
	if _, err := q.CreateMessageForApp(t.Context(), "", "srv", "ui://srv/app.html", samplingRequest("once more")); !errors.Is(err, chat.ErrSamplingRefused) || !strings.Contains(err.Error(), "more than 3 times in a minute") {
		t.Fatalf("past the server's cap: %v", err)
	}
	// In a chat, the app's request goes to the chat's own model.
	q.ChatModel = func(_ context.Context, chatID string) (chat.Model, error) {
		return chat.Model{Provider: p, Name: "model-of-" + chatID}, nil
	}
	llm.Enqueue(providertest.Reply{Text: "in the chat"})
	if res, err := q.CreateMessageForApp(t.Context(), "c7", "other", "ui://other/app.html", samplingRequest("x")); err != nil || res.Model != "model-of-c7" {
		t.Fatalf("in chat c7: %+v, %v", res, err)
	}
	mu.Lock()
	settings = chat.SamplingSettings{Mode: chat.SamplingDeny}
	mu.Unlock()
	if _, err := q.CreateMessageForApp(t.Context(), "c1", "other", "ui://other/app.html", samplingRequest("x")); !errors.Is(err, chat.ErrSamplingRefused) || !strings.Contains(err.Error(), "turned off") {
		t.Fatalf("deny: %v", err)
	}
	if n := len(llm.Requests()); n != 4 {
		t.Fatalf("%d requests reached the model, want 4", n)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(refused) != 2 || refused[1].ChatID != "c1" || refused[1].Server != "other" {
		t.Fatalf("refusals told: %+v", refused)
	}
}
