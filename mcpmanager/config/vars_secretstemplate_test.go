package config

import (
	"strings"
	"testing"
)

// Continue's (and GitHub Actions') ${{ secrets.NAME }} is quoted whole in
// the warning, both braces, and kept as written.
func TestExpandQuotesSecretsTemplateWhole(t *testing.T) {
	for _, tt := range []struct{ value, quoted string }{
		{"${{ secrets.SQLITE_API_KEY }}", "uses ${{ secrets.SQLITE_API_KEY }}, which"},
		{"Bearer ${{secrets.TOKEN}}", "uses ${{secrets.TOKEN}}, which"},
	} {
		src := `{"mcpServers": {"s": {"command": "x", "env": {"K": "` + tt.value + `"}}}}`
		f, err := ParseContext(t.Context(), "mcp.json", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		got := f.ExpandVariables(VariablesFor("", "/home/me"))
		e := got.Entries[0]
		if e.Server.Env["K"] != tt.value || len(e.Problems) != 1 || !strings.Contains(e.Problems[0].Message, tt.quoted) {
			t.Errorf("%q: env %q, problems %+v; want the warning to say %q", tt.value, e.Server.Env["K"], e.Problems, tt.quoted)
		}
	}
}
