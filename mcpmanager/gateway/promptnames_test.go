package gateway

import (
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// TestPromptNamesFitWithTheirSuffix: two prompts sharing a long name each
// get their suffix within the 64 characters (the shared name cut first),
// still told apart; a name no other prompt has stays as it was.
func TestPromptNamesFitWithTheirSuffix(t *testing.T) {
	// Server a__bbb…'s c always carries a hash (its name holds __); server
	// a's prompt is named so that it reads the same, 63 characters.
	long := "a__" + strings.Repeat("b", 50)
	shared := router.Namespace(long, "c")
	cases := []struct {
		name    string
		servers []string
		prompts map[string][]mcp.Prompt
		shared  [][2]string // the prompts that share a name
		own     map[[2]string]string
	}{
		{
			name:    "shared long name",
			servers: []string{"a", long, "z"},
			prompts: map[string][]mcp.Prompt{"a": {{Name: strings.TrimPrefix(shared, "a__")}}, long: {{Name: "c"}}, "z": {{Name: "plain"}}},
			shared:  [][2]string{{"a", strings.TrimPrefix(shared, "a__")}, {long, "c"}},
			own:     map[[2]string]string{{"z", "plain"}: "z__plain"},
		},
		{
			name:    "shared short name",
			servers: []string{"a", "a__b"},
			prompts: map[string][]mcp.Prompt{"a": {{Name: strings.TrimPrefix(router.Namespace("a__b", "c"), "a__")}}, "a__b": {{Name: "c"}}},
			shared:  [][2]string{{"a", strings.TrimPrefix(router.Namespace("a__b", "c"), "a__")}, {"a__b", "c"}},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := promptNames(tc.servers, tc.prompts)
			seen := map[string]bool{}
			for k, n := range got {
				if len(n) > maxPromptName {
					t.Errorf("%s's %q is named %q, %d characters; want at most %d", k[0], k[1], n, len(n), maxPromptName)
				}
				if seen[n] {
					t.Errorf("two prompts are named %q", n)
				}
				seen[n] = true
			}
			base := router.Namespace(tc.shared[1][0], tc.shared[1][1])
			for _, k := range tc.shared {
				n := got[k]
				if !strings.HasPrefix(n, base[:min(len(base), maxPromptName-7)]+"_") || len(n) != min(len(base), maxPromptName-7)+7 {
					t.Errorf("%s's %q is named %q; want the shared %q (cut to fit) and _ and 6 hex digits", k[0], k[1], n, base)
				}
			}
			for k, want := range tc.own {
				if got[k] != want {
					t.Errorf("%s's %q is named %q, want %q", k[0], k[1], got[k], want)
				}
			}
		})
	}
}
