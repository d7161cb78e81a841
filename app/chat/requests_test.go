package chat_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// elicitor answers forms from a script and records them.
type elicitor struct {
	answer chat.ElicitAnswer
	got    []chat.ElicitRequest
}

func (e *elicitor) Elicit(_ context.Context, req chat.ElicitRequest) (chat.ElicitAnswer, error) {
	e.got = append(e.got, req)
	return e.answer, nil
}

func samplingRequest(text string) mcp.CreateMessageRequest {
	var req mcp.CreateMessageRequest
	req.Messages = []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent(text)}}
	req.SystemPrompt = "Answer in one word."
	req.MaxTokens = 50
	return req
}

func TestSamplingGoesToTheModelAfterApproval(t *testing.T) {
	llm := providertest.NewServer(t)
	p, err := provider.New(provider.Config{Kind: provider.KindAnthropic, Name: "fake", BaseURL: llm.URL(provider.KindAnthropic), APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	appr := &approver{answer: chat.ApproveOnce}
	q := &chat.Requests{Engine: chat.New(chat.Options{}), Approver: appr,
		Fallback: func(context.Context) (chat.Model, error) { return chat.Model{Provider: p, Name: "claude-test"}, nil }}
	// During a call outside any chat (the Tools page's), as the router tied it.
	ctx := router.WithTie(t.Context(), "everything", "the Tools page")

	llm.Enqueue(providertest.Reply{Text: "Lisbon"})
	res, err := q.CreateMessage(ctx, "everything", samplingRequest("Capital of Portugal?"))
	if err != nil {
		t.Fatal(err)
	}
	if tc, ok := res.Content.(mcp.TextContent); !ok || tc.Text != "Lisbon" || res.Model != "claude-test" || res.Role != mcp.RoleAssistant || res.StopReason != "endTurn" {
		t.Fatalf("result %+v", res)
	}
	asked := appr.asked()
	if len(asked) != 1 || asked[0].Kind != chat.KindSampling || asked[0].Server != "everything" || !strings.Contains(string(asked[0].Arguments), "Capital of Portugal?") {
		t.Fatalf("approval %+v", asked)
	}
	body := string(llm.Requests()[0])
	if !strings.Contains(body, "Capital of Portugal?") || !strings.Contains(body, "Answer in one word.") {
		t.Fatalf("the model got %s", body)
	}

	appr.answer = chat.Deny
	if _, err := q.CreateMessage(ctx, "everything", samplingRequest("again")); !errors.Is(err, chat.ErrSamplingDenied) {
		t.Fatalf("denied: %v", err)
	}
	if len(llm.Requests()) != 1 {
		t.Fatal("a denied request reached the model")
	}
}

func TestElicitationIsShownAsAForm(t *testing.T) {
	el := &elicitor{answer: chat.ElicitAnswer{Action: "accept", Content: map[string]any{"name": "Ada"}}}
	q := &chat.Requests{Engine: chat.New(chat.Options{}), Elicitor: el}
	var req mcp.ElicitationRequest
	req.Params.Message = "Who are you?"
	req.Params.RequestedSchema = map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}}
	res, err := q.Elicit(t.Context(), "everything", req)
	if err != nil {
		t.Fatal(err)
	}
	if res.Action != mcp.ElicitationResponseActionAccept || res.Content.(map[string]any)["name"] != "Ada" {
		t.Fatalf("result %+v", res)
	}
	var schema map[string]any
	if len(el.got) != 1 || el.got[0].Mode != "form" || el.got[0].Message != "Who are you?" || json.Unmarshal(el.got[0].Schema, &schema) != nil || schema["type"] != "object" {
		t.Fatalf("form %+v", el.got)
	}
	el.answer = chat.ElicitAnswer{Action: "decline"}
	if res, _ := q.Elicit(t.Context(), "everything", req); res.Action != mcp.ElicitationResponseActionDecline {
		t.Fatalf("decline: %+v", res)
	}
	if _, err := (&chat.Requests{Engine: chat.New(chat.Options{})}).Elicit(t.Context(), "x", req); !errors.Is(err, chat.ErrNoElicitor) {
		t.Fatalf("no elicitor: %v", err)
	}
}

// TestSamplingKeepsTheStopSequences: a sampling request's stopSequences
// reach the model in each wire format (OpenAI's stop, Anthropic's
// stop_sequences), as the approval card showed them.
func TestSamplingKeepsTheStopSequences(t *testing.T) {
	for _, tc := range []struct {
		kind  provider.Kind
		field string
	}{
		{provider.KindOpenAI, "stop"},
		{provider.KindAnthropic, "stop_sequences"},
	} {
		t.Run(string(tc.kind), func(t *testing.T) {
			llm := providertest.NewServer(t)
			p, err := provider.New(provider.Config{Kind: tc.kind, Name: "fake", BaseURL: llm.URL(tc.kind), APIKey: "k"})
			if err != nil {
				t.Fatal(err)
			}
			q := &chat.Requests{Engine: chat.New(chat.Options{}), Approver: &approver{answer: chat.ApproveOnce},
				Fallback: func(context.Context) (chat.Model, error) { return chat.Model{Provider: p, Name: "m1"}, nil }}
			reply := providertest.Reply{Text: "one, two"} // OpenAI's finish_reason "stop"
			if tc.kind == provider.KindAnthropic {
				reply.Stop = "stop_sequence"
			}
			llm.Enqueue(reply)
			req := samplingRequest("Count to three, then say STOP.")
			req.StopSequences = []string{"STOP", "\n\n"}
			res, err := q.CreateMessage(router.WithTie(t.Context(), "everything", "the Tools page"), "everything", req)
			if err != nil {
				t.Fatal(err)
			}
			// Anthropic says a stop sequence ended the answer; OpenAI's
			// "stop" cannot tell it from the answer's end.
			want := map[provider.Kind]string{provider.KindOpenAI: "endTurn", provider.KindAnthropic: "stopSequence"}[tc.kind]
			if res.StopReason != want {
				t.Errorf("stopReason %q, want %q", res.StopReason, want)
			}
			var body map[string]json.RawMessage
			if err := json.Unmarshal(llm.Requests()[0], &body); err != nil {
				t.Fatal(err)
			}
			var stop []string
			if err := json.Unmarshal(body[tc.field], &stop); err != nil || strings.Join(stop, "|") != "STOP|\n\n" {
				t.Fatalf("the model request's %s is %s, want [\"STOP\",\"\\n\\n\"]", tc.field, body[tc.field])
			}
		})
	}
}
