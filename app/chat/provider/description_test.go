package provider_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
)

// TestToolDescriptionsGoWhole: an OpenAI-compatible endpoint gets every
// tool description whole (OpenAI's API takes long ones now, and MCP servers
// put their usage rules there). One that refuses a long description as
// OpenAI did ("string too long. Expected a string with maximum length
// 1024", also behind a gateway's 500) gets the request again at once, each
// long description cut to that limit and marked as shortened; later turns,
// through a provider opened anew, send them cut from the start. Other
// refusals are not retried.
func TestToolDescriptionsGoWhole(t *testing.T) {
	long := strings.Repeat("Use this tool for é things. ", 100) // 2,800 characters
	tooLong := "Invalid 'tools[0].function.description': string too long. Expected a string with maximum length 1024, but got a string with length 2800 instead."
	for _, c := range []struct {
		name     string
		refusal  *providertest.Reply
		requests int  // the first turn's
		cut      bool // descriptions cut in its last request and the next turn's
		fails    bool
	}{
		{name: "taken whole", requests: 1},
		{name: "refused with OpenAI's 400", refusal: &providertest.Reply{Status: http.StatusBadRequest, Error: tooLong}, requests: 2, cut: true},
		{name: "refused by a gateway's 500", refusal: &providertest.Reply{Status: http.StatusInternalServerError, Error: tooLong}, requests: 2, cut: true},
		{name: "refused for another reason", refusal: &providertest.Reply{Status: http.StatusBadRequest, Error: "max_tokens is too large"}, requests: 1, fails: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, p := newProvider(t, provider.KindOpenAI)
			if c.refusal != nil {
				s.Enqueue(*c.refusal)
			}
			s.Enqueue(providertest.Reply{Text: "ok"})
			req := userTurn("hi")
			req.Tools = []provider.Tool{
				{Name: "files__edit", Description: long, InputSchema: json.RawMessage(`{"type":"object"}`)},
				{Name: "files__read", Description: "Read a file.", InputSchema: json.RawMessage(`{"type":"object"}`)},
			}
			_, err := p.Stream(t.Context(), req, nil)
			if (err != nil) != c.fails {
				t.Fatalf("error %v, want failure %v", err, c.fails)
			}
			reqs := s.Requests()
			if len(reqs) != c.requests {
				t.Fatalf("%d requests, want %d", len(reqs), c.requests)
			}
			checkDescriptions(t, reqs[len(reqs)-1], long, c.cut)
			if c.fails {
				return
			}
			// The next turn opens the provider again, as the app does.
			again, err := provider.New(provider.Config{Kind: provider.KindOpenAI, Name: "fake", BaseURL: s.URL(provider.KindOpenAI), APIKey: testKey})
			if err != nil {
				t.Fatal(err)
			}
			s.Enqueue(providertest.Reply{Text: "ok"})
			if _, err := again.Stream(t.Context(), req, nil); err != nil {
				t.Fatal(err)
			}
			reqs = s.Requests()
			if len(reqs) != c.requests+1 {
				t.Fatalf("the next turn took %d requests, want 1", len(reqs)-c.requests)
			}
			checkDescriptions(t, reqs[len(reqs)-1], long, c.cut)
		})
	}
}

// checkDescriptions: the request's first tool has long, whole or cut to
// 1,024 characters with the mark; the second its short description.
func checkDescriptions(t *testing.T, body []byte, long string, cut bool) {
	t.Helper()
	var v struct {
		Tools []struct {
			Function struct {
				Description string `json:"description"`
			} `json:"function"`
		} `json:"tools"`
	}
	mustUnmarshal(t, body, &v)
	if len(v.Tools) != 2 {
		t.Fatalf("%d tools sent", len(v.Tools))
	}
	got := v.Tools[0].Function.Description
	switch {
	case !cut && got != long:
		t.Errorf("the long description was sent as %d characters, want it whole (%d)", utf8.RuneCountInString(got), utf8.RuneCountInString(long))
	case cut && (utf8.RuneCountInString(got) > 1024 || !strings.HasSuffix(got, "[description shortened]") || !strings.HasPrefix(long, strings.TrimSuffix(got, " … [description shortened]"))):
		t.Errorf("the long description was sent as %q (%d characters), want its head within 1,024, marked shortened", got, utf8.RuneCountInString(got))
	}
	if d := v.Tools[1].Function.Description; d != "Read a file." {
		t.Errorf("the short description was sent as %q", d)
	}
}

func mustUnmarshal(t *testing.T, raw []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
}
