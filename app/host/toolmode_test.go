package host

import (
	"testing"

	"github.com/switchboard-app/switchboard/app/chat"
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
