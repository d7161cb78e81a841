package provider_test

import (
	"fmt"
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
	}{
		{"key refused", providertest.Reply{Status: 401, Error: "Incorrect API key provided"}, []string{`"fake" refused the API key`, "Settings → Providers"}},
		{"rate limited", providertest.Reply{Status: 429, RetryAfter: fmt.Sprint(int((provider.MaxRetryWait + time.Hour).Seconds()))}, []string{"rate limiting", "Wait 1h", "retry"}},
		{"unknown model", providertest.Reply{Status: 404, Error: "model gone"}, []string{`has no model "m1"`, "Pick another model"}},
		{"server error", providertest.Reply{Status: 500, Error: "kaboom"}, []string{"problem on its side (HTTP 500)", "Retry in a moment"}},
		{"bad request", providertest.Reply{Status: 400, Error: "context too long"}, []string{"refused the request (HTTP 400)", "Settings → Providers"}},
		{"broke off", providertest.Reply{Text: "one two three four", DropAfter: 2}, []string{"broke off", "Retry"}},
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
	t.Run("not a provider error", func(t *testing.T) {
		if got := provider.Explain(fmt.Errorf("save message: disk full")); got != "" {
			t.Fatalf("Explain = %q", got)
		}
	})
}
