package provider_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/chat/provider"
)

// TestSurrogatePairSplitAcrossEvents: a server that escapes characters
// outside the BMP as UTF-16 surrogate pairs ("\ud83d\ude00") may cut a
// pair between two stream events; each event's JSON then holds half of
// it, which alone decodes to U+FFFD. The halves are joined again: the
// answer (and each text event, and a call's arguments) holds the
// character, not two replacement characters.
func TestSurrogatePairSplitAcrossEvents(t *testing.T) {
	tests := []struct {
		name   string
		pieces []string // the content of each event, as JSON string bodies
		want   string
	}{
		{"split pair", []string{`A\ud83d`, `\ude00B`}, "A😀B"},
		{"pair alone in events", []string{`\ud83d`, `\ude00`}, "😀"},
		{"pair whole", []string{`A\ud83d\ude00`, `B`}, "A😀B"},
		{"two split pairs", []string{`\ud83d`, `\ude00\ud83d`, `\ude01`}, "😀😁"},
		{"a lone high surrogate stays replaced", []string{`A\ud83d`, `B`}, "A\uFFFDB"},
		{"a lone high surrogate at the end", []string{`A`, `B\ud83d`}, "AB\uFFFD"},
		{"an escaped backslash is no escape", []string{`A\\ud83d`, `\ude00B`}, "A\\ud83d\uFFFDB"},
	}
	for _, tc := range tests {
		for _, field := range []string{"content", "arguments"} {
			t.Run(tc.name+"/"+field, func(t *testing.T) {
				srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
					w.Header().Set("Content-Type", "text/event-stream")
					for i, p := range tc.pieces {
						delta := `{"content":"` + p + `"}`
						if field == "arguments" {
							id := ""
							if i == 0 {
								id = `"id":"c1","type":"function",`
							}
							delta = `{"tool_calls":[{"index":0,` + id + `"function":{"name":"t","arguments":"` + p + `"}}]}`
						}
						fmt.Fprintf(w, "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m1\",\"choices\":[{\"index\":0,\"delta\":%s}]}\n\n", delta)
					}
					fmt.Fprint(w, "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m1\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
				}))
				t.Cleanup(srv.Close)
				p, err := provider.New(provider.Config{Kind: provider.KindOpenAI, Name: "local", BaseURL: srv.URL + "/v1"})
				if err != nil {
					t.Fatal(err)
				}
				var shown strings.Builder
				resp, err := p.Stream(t.Context(), userTurn("hi"), func(ev provider.Event) {
					shown.WriteString(ev.Text + ev.ArgsDelta)
				})
				if err != nil {
					t.Fatal(err)
				}
				got := resp.Text
				if field == "arguments" {
					if len(resp.ToolCalls) != 1 {
						t.Fatalf("calls %+v", resp.ToolCalls)
					}
					got = string(resp.ToolCalls[0].Arguments)
				}
				if got != tc.want || shown.String() != tc.want {
					t.Fatalf("%s %q, shown %q; want %q", field, got, shown.String(), tc.want)
				}
			})
		}
	}
}
