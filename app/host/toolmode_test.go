package host

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/gateway"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

func TestToolModeOf(t *testing.T) {
	agent := &chat.Agent{Name: "a", ToolMode: chat.ToolsBoth}
	tests := []struct {
		name     string
		settings string
		agent    *chat.Agent
		chat     string
		window   int
		mode, by string
	}{
		{"small model, nothing chosen", "", nil, "", 8192, chat.ToolsCode, "model"},
		{"large model, nothing chosen", "", nil, "", 128000, chat.ToolsDirect, "model"},
		{"unknown window", "", nil, "", 0, chat.ToolsDirect, "model"},
		{"settings", chat.ToolsDirect, nil, "", 8192, chat.ToolsDirect, "settings"},
		{"agent over settings", chat.ToolsDirect, agent, "", 8192, chat.ToolsBoth, "agent"},
		{"chat over all", chat.ToolsDirect, agent, chat.ToolsCode, 128000, chat.ToolsCode, "chat"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := ToolModeOf(chat.Settings{Tools: tt.settings}, tt.agent, tt.chat, tt.window)
			if m.Mode != tt.mode || m.By != tt.by {
				t.Errorf("ToolModeOf = %s by %s, want %s by %s", m.Mode, m.By, tt.mode, tt.by)
			}
			if m.Default != chat.DefaultToolMode(tt.window) || m.Window != tt.window || m.CodeWindow != chat.CodeModeWindow {
				t.Errorf("ToolModeOf = %+v: default, window or code window wrong", m)
			}
		})
	}
}

// TestScriptDecision: a script's call under 'serve --code' is decided as a
// direct call in a chat: read-only runs, the rest asks, a policy or a deny
// rule refuses with its sentence, and a tool no setting names takes the
// host's default (a workspace's file write runs, as in the chat). Asked
// about the tool alone (nil args), only a policy's deny denies: the
// gateway hides that tool from the functions.
func TestScriptDecision(t *testing.T) {
	ro := true
	read := router.Tool{Name: "m__read", Server: "m", Tool: mcp.Tool{Name: "read", Annotations: mcp.ToolAnnotation{ReadOnlyHint: &ro}}}
	write := router.Tool{Name: "m__write", Server: "m", Tool: mcp.Tool{Name: "write"}}
	gone := router.Tool{Name: "m__delete", Server: "m", Tool: mcp.Tool{Name: "delete"}}
	rm := router.Tool{Name: "m__rm", Server: "m", Tool: mcp.Tool{Name: "rm"}}
	wsWrite := router.Tool{Name: "workspace__write_file", Server: "workspace", Tool: mcp.Tool{Name: "write_file"}}
	s := chat.Settings{Policies: chat.Policies{"m__delete": chat.PolicyDeny},
		Rules: chat.Rules{{Tool: "m__rm", Effect: chat.PolicyDeny, Match: []chat.Match{{Path: "path", Glob: "/etc/*"}}}}}
	// def is the host's default where Switchboard made the workspace: its
	// file writes run unasked (Tools.DefaultPolicy).
	def := func(t router.Tool) chat.Policy {
		if t.Server == "workspace" {
			return chat.PolicyAllow
		}
		return chat.DefaultPolicy(t)
	}
	decide := scriptDecision(s, def)
	call := json.RawMessage(`{"path":"/etc/passwd"}`)
	for _, tt := range []struct {
		tool router.Tool
		args json.RawMessage
		want gateway.Decision
	}{
		{read, call, gateway.Allow}, {write, call, gateway.Ask}, {gone, call, gateway.Deny}, {rm, call, gateway.Deny},
		{wsWrite, call, gateway.Allow},
		{gone, nil, gateway.Deny}, {rm, nil, gateway.Allow}, {write, nil, gateway.Allow},
	} {
		d, why := decide(tt.tool, tt.args)
		if d != tt.want || (d == gateway.Deny) != (why != "") {
			t.Errorf("%s %s: %v %q, want %v", tt.tool.Name, tt.args, d, why, tt.want)
		}
	}
}

// TestServeSettings: settings.serve.tools is written only when it is a
// tool mode, and serveCode turns it into the gateway's code mode with the
// chat settings' limits; a malformed section is an error naming its path.
func TestServeSettings(t *testing.T) {
	h := open(t)
	if err := h.Settings.SetServe(ServeSettings{Tools: "scripts"}); err == nil || !strings.Contains(err.Error(), "settings.serve.tools") {
		t.Fatalf("SetServe(scripts) = %v, want an error naming settings.serve.tools", err)
	}
	if b, err := os.ReadFile(h.dir.Config()); err == nil && strings.Contains(string(b), "scripts") {
		t.Fatalf("a refused tool mode was written: %s", b)
	}
	if err := h.Settings.EditChat(func(s *chat.Settings) error { s.CodeMode.MaxCalls = 7; return nil }); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ tools, mode string }{
		{"", gateway.CodeOff}, {chat.ToolsDirect, gateway.CodeOff}, {chat.ToolsCode, gateway.CodeOnly}, {chat.ToolsBoth, gateway.CodeBoth},
	} {
		if err := h.Settings.SetServe(ServeSettings{Tools: c.tools}); err != nil {
			t.Fatal(err)
		}
		if got, err := h.Settings.Serve(); err != nil || got.Tools != c.tools {
			t.Errorf("Serve() = %+v, %v; want tools %q", got, err, c.tools)
		}
		cm, err := h.Settings.serveCode()
		if err != nil || cm.Mode != c.mode || cm.Limits.MaxCalls != 7 || cm.Decide == nil {
			t.Errorf("tools %q: serveCode() = mode %q, limits %+v, decide set %v, %v; want mode %q, 7 calls", c.tools, cm.Mode, cm.Limits, cm.Decide != nil, err, c.mode)
		}
	}
	if err := h.edit(func(cfg *config.Config) error {
		cfg.Settings = json.RawMessage(`{"serve": {"tools": 3}}`)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Settings.serveCode(); err == nil || !strings.Contains(err.Error(), "settings.serve.tools") {
		t.Errorf("serveCode() of a malformed section = %v, want an error naming settings.serve.tools", err)
	}
}
