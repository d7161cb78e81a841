package provider

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

// An OpenAI-compatible provider at Gemini's endpoint sends Gemini's
// dialect, one at api.openai.com OpenAI's: the wiring for hosts a test
// cannot reach.
func TestOpenAIProviderSendsItsHostsDialect(t *testing.T) {
	schema := json.RawMessage(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"n":{"type":["integer","null"],"exclusiveMinimum":0}},"additionalProperties":false}`)
	for _, c := range []struct {
		base      string
		want, not []string
	}{
		{"https://generativelanguage.googleapis.com/v1beta/openai/", []string{`"nullable":true`, `"description":"Greater than 0."`}, []string{"additionalProperties", "exclusiveMinimum", "$schema", `"null"`}},
		{"https://api.openai.com/v1", []string{`"additionalProperties":false`, `"exclusiveMinimum":0`, `["integer","null"]`}, []string{"$schema", "nullable"}},
	} {
		base, _ := url.Parse(c.base)
		p := newOpenAI(Config{Name: "x"}, base)
		req := Request{Model: "m", Tools: []Tool{{Name: "t", InputSchema: schema}}}
		b, err := json.Marshal(p.params(req, newToolNames(openAINameLimit, req)))
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range c.want {
			if !strings.Contains(string(b), w) {
				t.Errorf("%s: %s lacks %s", c.base, b, w)
			}
		}
		for _, n := range c.not {
			if strings.Contains(string(b), n) {
				t.Errorf("%s: %s has %s", c.base, b, n)
			}
		}
	}
}
