package mcpregistry_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/mcpregistry"
	"github.com/switchboard-app/switchboard/mcpmanager/mcpregistry/mcpregistrytest"
)

// FuzzEntry maps any server.json through every option it offers with a
// plain value for each ask: it never panics, and an entry it makes holds
// no ${secret:…} or ${env:…} reference (only the user's values may bring
// one, and these bring none). Under plain 'go test' only the seeds run.
func FuzzEntry(f *testing.F) {
	for _, d := range mcpregistrytest.Documents {
		f.Add(d)
	}
	f.Add(`{"name": "a/b", "version": "1.0.0", "packages": [{"registryType": "npm", "identifier": "x", "version": "1", "transport": {"type": "stdio"},
		"packageArguments": [{"type": "named", "name": "--k", "value": "${{a}", "variables": {"a": {"default": "secret:OTHER}"}}}]}]}`)
	f.Add(`{"name": "a/b", "remotes": [{"type": "sse", "url": "https://{h}.example/{p}", "variables": {"h": {"default": "$"}, "p": {"default": "{env:HOME}"}}}]}`)
	f.Add(`{"name": "", "packages": [{"registryType": "mcpb", "identifier": "http://x/y.mcpb"}, {"registryType": "oci", "identifier": "-v/:/host"}]}`)
	f.Fuzz(func(t *testing.T, doc string) {
		var s mcpregistry.ServerJSON
		if json.Unmarshal([]byte(doc), &s) != nil {
			return
		}
		_ = mcpregistry.Name(s)
		for _, o := range mcpregistry.Options(s) {
			values := map[string]string{}
			for _, a := range mcpregistry.Asks(s, o) {
				values[a.Key] = "v"
			}
			e, err := mcpregistry.Entry(s, o, values)
			if err != nil {
				continue
			}
			if all := everything(e); strings.Contains(all, "${secret:") || strings.Contains(all, "${env:") {
				t.Fatalf("an entry from the document holds a reference:\n%s\n%s", doc, all)
			}
		}
	})
}
