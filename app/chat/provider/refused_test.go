package provider_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
)

// When a provider still refuses a tool's definition, the user is told which
// tool of which server, and to turn it off, instead of only that the
// request was refused.
func TestRefusedToolDefinitionNamesTheTool(t *testing.T) {
	tools := []provider.Tool{
		{Name: "files__read", Server: "files", InputSchema: json.RawMessage(`{"type":"object"}`)},
		{Name: "db__find", Server: "db", InputSchema: json.RawMessage(`{"type":"object"}`)},
	}
	for _, c := range []struct {
		name    string
		kind    provider.Kind
		message string
	}{
		{"Anthropic", provider.KindAnthropic, "tools.1.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level"},
		{"OpenAI", provider.KindOpenAI, "Invalid schema for function 'db__find': In context=(), 'allOf' is not permitted."},
		{"Gemini", provider.KindOpenAI, `Invalid JSON payload received. Unknown name "const" at 'tools[0].function_declarations[1].parameters.properties[0].value': Cannot find field.`},
		{"OpenAI-compatible", provider.KindOpenAI, "invalid tools[1]: schema not supported"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, p := newProvider(t, c.kind)
			s.Enqueue(providertest.Reply{Status: http.StatusBadRequest, Error: c.message})
			req := userTurn("hi")
			req.Tools = tools
			_, err := p.Stream(t.Context(), req, nil)
			var e *provider.Error
			if !errors.As(err, &e) || e.Tool != "db__find" || e.ToolServer != "db" {
				t.Fatalf("error %#v: want the tool db__find of db named", err)
			}
			plain := provider.Explain(err)
			for _, want := range []string{`the tool "db__find"`, `the server "db"`, "Turn that tool off in the chat's Tools menu"} {
				if !strings.Contains(plain, want) {
					t.Errorf("Explain = %q, want it to say %q", plain, want)
				}
			}
		})
	}
	// A refusal that names no tool stays the general one.
	s, p := newProvider(t, provider.KindAnthropic)
	s.Enqueue(providertest.Reply{Status: http.StatusBadRequest, Error: "max_tokens: must be at most 8192"})
	req := userTurn("hi")
	req.Tools = tools
	_, err := p.Stream(t.Context(), req, nil)
	if plain := provider.Explain(err); strings.Contains(plain, "tool") || !strings.Contains(plain, "refused the request") {
		t.Errorf("Explain = %q for a refusal naming no tool", plain)
	}
}
