package cli

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
)

// TestToolsCallModernServer: 'tools call' on a server that speaks MCP
// 2026-07-28 only: a plain tool, and one the server turns into a task
// (its states on stderr, the result on stdout); 'servers test' names the
// revision.
func TestToolsCallModernServer(t *testing.T) {
	data := t.TempDir()
	file := writeFile(t, "mcp.json", fmt.Sprintf(`{"mcpServers": {"modern": {"command": %q}}}`, proctest.ModernServer(t)))
	code, out, errOut := runIn(t, data, "tools", "call", "modern__greet", "--args", `{"name":"Ada"}`, "--config", file)
	if code != 0 || strings.TrimSpace(out) != "Hello, Ada!" {
		t.Fatalf("greet = %d %q %q", code, out, errOut)
	}
	// The question the task asks is declined (no terminal): no appendix.
	var o, e bytes.Buffer
	code = Run(t.Context(), []string{"--data-dir", data, "tools", "call", "modern__prepare_report", "--config", file}, Env{Stdin: strings.NewReader("n\n"), Stdout: &o, Stderr: &e})
	out, errOut = o.String(), e.String()
	if code != 0 || strings.TrimSpace(out) != "Report ready: 3 sections." {
		t.Fatalf("prepare_report = %d %q %q", code, out, errOut)
	}
	for _, want := range []string{"task report-1: working: Gathering the figures", "task report-1: input_required", "modern asks: Include the appendix in the report? — declined", "task report-1: completed"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	code, out, errOut = runIn(t, data, "servers", "test", "modern", "--config", file)
	if code != 0 || !strings.Contains(out, "MCP 2026-07-28") {
		t.Errorf("servers test = %d %q %q", code, out, errOut)
	}
}
