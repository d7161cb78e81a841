package provider_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"sync/atomic"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"

	"github.com/switchboard-app/switchboard/app/chat/provider"
)

// TestToolsAsTheSDKWritesThem checks a tool built from its schema's kept
// JSON (OpenAITool) is sent byte for byte as the SDK writes the same tool
// from the schema's map, for every real and hostile schema in each dialect
// an OpenAI-compatible server may take, with names and descriptions that
// need escaping.
func TestToolsAsTheSDKWritesThem(t *testing.T) {
	real, hostile := loadCases(t)
	texts := []struct{ name, description string }{
		{"files__read_file", "Read a file <b>as text</b> & say \"why\"."},
		{"ünï__cödé", ""},
		{"x\u2028y", "line\u2028separator, \x01 control, invalid \xff UTF-8, tab\t"},
	}
	// sdk is the tool as the SDK writes it in a request body (what the
	// params' MarshalJSON returns), its bytes as they are.
	sdk := func(tool openai.ChatCompletionToolUnionParam) []byte {
		t.Helper()
		b, err := openai.ChatCompletionNewParams{Model: "m", Tools: []openai.ChatCompletionToolUnionParam{tool}}.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		var body struct{ Tools []json.RawMessage }
		if err := json.Unmarshal(b, &body); err != nil || len(body.Tools) != 1 {
			t.Fatalf("%s: %v", b, err)
		}
		return body.Tools[0]
	}
	n := 0
	for _, d := range []provider.Dialect{provider.DialectOpenAI, provider.DialectLocal, provider.DialectGemini} {
		for i, c := range append(real, hostile...) {
			tx := texts[i%len(texts)]
			fn := shared.FunctionDefinitionParam{Name: tx.name, Parameters: provider.ToolSchema(c.Schema, d)}
			if tx.description != "" {
				fn.Description = openai.String(tx.description)
			}
			want := sdk(openai.ChatCompletionFunctionTool(fn))
			got := provider.OpenAITool(tx.name, tx.description, provider.ToolSchemaJSON(c.Schema, d))
			if !bytes.Equal(got, want) {
				t.Fatalf("%s in dialect %s:\n got %.600s\nwant %.600s", c.Name, d, got, want)
			}
			n++
		}
	}
	if n < 900 {
		t.Errorf("compared %d tools, want the corpus's 300+ in three dialects", n)
	}
}

// BenchmarkRequestBody times what a step spends building its request with
// 40 tools of real servers (the count above which tool search starts):
// the provider's params and the SDK's encoding of them.
func BenchmarkRequestBody(b *testing.B) {
	raw, err := os.ReadFile(realSchemas)
	if err != nil {
		b.Fatal(err)
	}
	var tools []provider.Tool
	if err := json.Unmarshal(raw, &tools); err != nil {
		b.Fatal(err)
	}
	req := provider.Request{Model: "m", System: "Be brief.", Tools: tools[:40], Messages: []provider.Message{{Role: provider.RoleUser, Text: "hello"}}}
	var size atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var buf bytes.Buffer
		n, _ := buf.ReadFrom(r.Body)
		size.Store(n)
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: {\"id\":\"1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	}))
	b.Cleanup(srv.Close)
	p, err := provider.New(provider.Config{Kind: provider.KindOpenAI, Name: "fake", BaseURL: srv.URL + "/v1", APIKey: "sk-test"})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Stream(b.Context(), req, func(provider.Event) {}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(size.Load()), "request-bytes")
}
