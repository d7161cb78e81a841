package chat_test

import (
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
)

// TestBlobResourceReachesTheModel: server-everything's
// get-resource-reference returns a text/plain resource as a base64 blob;
// the model reads its text in every wire format, not "[resource …,
// binary]".
func TestBlobResourceReachesTheModel(t *testing.T) {
	reg := everything(t)
	for _, kind := range []provider.Kind{provider.KindAnthropic, provider.KindOpenAI, provider.KindOllama} {
		t.Run(string(kind), func(t *testing.T) {
			f := newFixture(t, kind, nil)
			f.eng.SetTools(reg)
			f.llm.Enqueue(
				providertest.Reply{ToolCalls: []providertest.ToolCall{call("c1", "everything__get-resource-reference", `{"resourceType":"Blob","resourceId":3}`)}},
				providertest.Reply{Text: "It says so."},
			)
			if _, err := f.send(t.Context(), "What does resource 3 say?"); err != nil {
				t.Fatal(err)
			}
			reqs := f.llm.Requests()
			if len(reqs) != 2 {
				t.Fatalf("%d model requests, want 2", len(reqs))
			}
			body := string(reqs[1])
			if !strings.Contains(body, "Resource 3: This is a base64 blob created at") || strings.Contains(body, "binary]") {
				t.Errorf("the model did not get the blob's text: %s", body)
			}
		})
	}
}
