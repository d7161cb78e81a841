package cli

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
)

// TestToolsCallPrintsTaskStatus: a tool that runs as an MCP task (the real
// server-everything's simulate-research-query) prints its status lines on
// stderr and its result on stdout.
func TestToolsCallPrintsTaskStatus(t *testing.T) {
	everything := proctest.NPM(t, "mcp-server-everything")
	file := writeFile(t, "mcp.json", fmt.Sprintf(`{"mcpServers": {"everything": {"command": %q}}}`, everything))
	code, out, errOut := runIn(t, t.TempDir(), "tools", "call", "everything__simulate-research-query", "--args", `{"topic":"cli"}`, "--config", file)
	if code != 0 || !strings.Contains(out, "Research Report: cli") {
		t.Fatalf("tools call: %d\n%s\n%s", code, out, errOut)
	}
	lines := regexp.MustCompile(`(?m)^task \S+: ([a-z_]+)`).FindAllStringSubmatch(errOut, -1)
	if len(lines) < 2 || lines[0][1] != "working" || lines[len(lines)-1][1] != "completed" {
		t.Fatalf("status lines on stderr, want working … completed:\n%s", errOut)
	}
	if strings.Contains(out, "task ") {
		t.Fatalf("status lines on stdout:\n%s", out)
	}
}
