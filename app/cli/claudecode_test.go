package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
)

// TestClaudeCode runs the real Claude Code (@anthropic-ai/claude-code,
// pinned in mcpmanager/testdata/clients) against a connected Switchboard:
// after 'clients connect claude-code --move', its own 'claude mcp list'
// reports Switchboard's entry connected and no longer lists the moved
// server, which Switchboard now runs. Claude Code runs with HOME in a
// temp dir, its updater and traffic off, and, when the system lets it,
// in a network namespace of its own (unshare -n): no network at all.
func TestClaudeCode(t *testing.T) {
	binDir := inspectorBinDir(t)
	claude := filepath.Join(binDir, "claude")
	if _, err := os.Stat(claude); err != nil {
		t.Fatalf("Claude Code is not installed (%v): run 'npm ci' in mcpmanager/testdata/clients", err)
	}
	memory := proctest.NPM(t, "mcp-server-memory")
	bin := proctest.Switchboard(t)
	home, data := t.TempDir(), t.TempDir()
	file := filepath.Join(home, ".claude.json")
	orig := `{
  "numStartups": 3,
  "mcpServers": {
    "memory": {
      "type": "stdio",
      "command": ` + strconv.Quote(memory) + `,
      "args": []
    }
  },
  "projects": {}
}
`
	if err := os.WriteFile(file, []byte(orig), 0o600); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"PATH="+binDir+string(os.PathListSeparator)+os.Getenv("PATH"),
		"DISABLE_AUTOUPDATER=1", "MCP_TIMEOUT=60000", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_TELEMETRY=1",
		"CLAUDE_CONFIG_DIR=", "SWITCHBOARD_COMMAND=")
	run := func(name string, args ...string) string {
		t.Helper()
		ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
		defer cancel()
		if name == claude && exec.CommandContext(ctx, "unshare", "-n", "true").Run() == nil {
			args = append([]string{"-n", name}, args...)
			name = "unshare"
		}
		cmd := exec.CommandContext(ctx, name, args...)
		cmd.Env, cmd.Dir = env, home
		cmd.WaitDelay = 5 * time.Second
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s %v: %v\n%s", name, args, err, out.String())
		}
		return out.String()
	}

	before := run(claude, "mcp", "list")
	if !strings.Contains(before, "memory: ") || !strings.Contains(before, "Connected") {
		t.Fatalf("claude mcp list before connecting:\n%s", before)
	}

	run(bin, "--data-dir", data, "clients", "connect", "claude-code", "--move")
	b, _ := os.ReadFile(file)
	if strings.Contains(string(b), `"memory"`) || !strings.Contains(string(b), `"switchboard": {`) || !strings.Contains(string(b), `"numStartups": 3`) {
		t.Fatalf("~/.claude.json after connect --move:\n%s", b)
	}

	after := run(claude, "mcp", "list")
	var line string
	for l := range strings.Lines(after) {
		if strings.HasPrefix(l, "switchboard: ") {
			line = l
		}
	}
	// "✔ Connected", or on a loaded machine "! Connected · tools fetch
	// failed" when its tools/list outlasts Claude Code's own short wait.
	if !strings.Contains(line, bin+" serve --client claude-code") || !strings.Contains(line, " Connected") || strings.Contains(after, "memory: ") {
		t.Fatalf("claude mcp list after connect --move:\n%s", after)
	}

	// The moved server runs under Switchboard now.
	tools := run(bin, "--data-dir", data, "tools", "list")
	if !strings.Contains(tools, "memory__create_entities") {
		t.Fatalf("switchboard tools list has no memory tools:\n%s", tools)
	}

	run(bin, "--data-dir", data, "clients", "disconnect", "claude-code")
	gone := run(claude, "mcp", "list")
	if strings.Contains(gone, "switchboard: ") || !strings.Contains(gone, "memory: ") {
		t.Fatalf("claude mcp list after disconnect:\n%s", gone)
	}
}
