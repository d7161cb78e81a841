package provider_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
)

// TestExplain: each failure a person can act on gets its plain sentence,
// with what to do, and never the technical detail.
func TestExplain(t *testing.T) {
	tests := []struct {
		name  string
		reply providertest.Reply
		want  []string // in the explanation
		not   []string // not in it
	}{
		{"key refused", providertest.Reply{Status: 401, Error: "Incorrect API key provided"}, []string{`"fake" refused the API key`, "Settings → Models"}, nil},
		{"rate limited", providertest.Reply{Status: 429, RetryAfter: fmt.Sprint(int((provider.MaxRetryWait + time.Hour).Seconds()))}, []string{"rate limiting", "Wait 1h", "retry"}, nil},
		{"unknown model", providertest.Reply{Status: 404, Error: "model gone"}, []string{`has no model "m1"`, "Pick another model"}, nil},
		{"server error", providertest.Reply{Status: 500, Error: "kaboom"}, []string{"problem on its side (HTTP 500)", "Retry in a moment"}, nil},
		{"bad request", providertest.Reply{Status: 400, Error: "context too long"}, []string{"refused the request (HTTP 400)", "Settings → Models"}, nil},
		{"broke off", providertest.Reply{Text: "one two three four", DropAfter: 2}, []string{"broke off", "Retry"}, nil},
		// Of the request alone: whether the chat was summarised before it
		// is the chat's to say. Where the window is set, in both doors.
		{"too long", providertest.Reply{Status: 400, Error: "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens."},
			[]string{"longer than its context window", "Settings → Chat → Long chats → Context windows", "--context-window N"}, []string{"summarised", "Settings → Models"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, p := newProvider(t, provider.KindOpenAI)
			s.Enqueue(tc.reply)
			_, err := p.Stream(t.Context(), userTurn("hi"), nil)
			if err == nil {
				t.Fatal("no error")
			}
			got := provider.Explain(err)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("Explain = %q, want %q in it (err %v)", got, w, err)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(got, n) {
					t.Errorf("Explain = %q, want no %q in it", got, n)
				}
			}
			if tc.reply.Error != "" && strings.Contains(got, tc.reply.Error) {
				t.Errorf("Explain = %q carries the provider's own message", got)
			}
		})
	}
	t.Run("unreachable", func(t *testing.T) {
		addr := closedAddr(t)
		p, err := provider.New(provider.Config{Kind: provider.KindOpenAI, Name: "local", BaseURL: "http://" + addr + "/v1"})
		if err != nil {
			t.Fatal(err)
		}
		_, err = p.Stream(t.Context(), userTurn("hi"), nil)
		got := provider.Explain(err)
		if want := `"local" at http://` + addr + ` is not reachable. Is it running?`; !strings.Contains(got, want) || strings.Contains(got, "dial tcp") {
			t.Fatalf("Explain = %q, want %q (err %v)", got, want, err)
		}
	})
	// llama.cpp's server breaks the stream off with an error event when it
	// cannot read a tool call out of what the model wrote.
	t.Run("unreadable tool call", func(t *testing.T) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m1","choices":[{"index":0,"delta":{"content":"<tool_call>"}}]}`+"\n\n")
			fmt.Fprint(w, `data: {"error":{"code":500,"message":"The model produced output that does not match the expected peg-native format","type":"server_error"}}`+"\n\n")
		}))
		t.Cleanup(srv.Close)
		p, err := provider.New(provider.Config{Kind: provider.KindOpenAI, Name: "On this computer", BaseURL: srv.URL + "/v1"})
		if err != nil {
			t.Fatal(err)
		}
		_, err = p.Stream(t.Context(), userTurn("hi"), nil)
		if !errors.Is(err, provider.ErrIncomplete) || !errors.Is(err, provider.ErrToolCallUnreadable) {
			t.Fatalf("err = %v, want ErrIncomplete and ErrToolCallUnreadable", err)
		}
		if got, want := provider.Explain(err), `The model wrote a tool call that "On this computer" could not read; what arrived is kept. Retry`; !strings.HasPrefix(got, want) {
			t.Fatalf("Explain = %q, want it to start %q", got, want)
		}
	})
	t.Run("not a provider error", func(t *testing.T) {
		if got := provider.Explain(fmt.Errorf("save message: disk full")); got != "" {
			t.Fatalf("Explain = %q", got)
		}
	})
}
