package host

import (
	"cmp"
	"encoding/json"
	"fmt"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/gateway"
)

// ToolMode is how a chat's next turn offers the tools (chat.ToolsDirect,
// ToolsCode, ToolsBoth) and who chose it, for the chat's Tools menu.
type ToolMode struct {
	// Mode is the mode the next turn uses.
	Mode string `json:"mode"`
	// By is who chose it: "chat" (the chat's own choice), "agent",
	// "settings" (settings.chat.tools) or "model" (nothing chose: the
	// default for the model's context window).
	By string `json:"by"`
	// Default is the mode the model's context window alone would choose,
	// Window that window (0: not known) and CodeWindow the largest window
	// that chooses code mode.
	Default    string `json:"default"`
	Window     int    `json:"window"`
	CodeWindow int    `json:"codeWindow"`
}

// ToolModeOf is the tool mode of a turn (Chats.Turn takes it from here):
// the chat's own mode, else the agent's, else the settings', else the
// default for a model with a context window of window tokens.
func ToolModeOf(s ChatSettings, agent *ChatAgent, chatMode string, window int) ToolMode {
	m := ToolMode{Default: chat.DefaultToolMode(window), Window: window, CodeWindow: chat.CodeModeWindow}
	var agentMode string
	if agent != nil {
		agentMode = agent.ToolMode
	}
	switch {
	case chatMode != "":
		m.Mode, m.By = chatMode, "chat"
	case agentMode != "":
		m.Mode, m.By = agentMode, "agent"
	case s.Tools != "":
		m.Mode, m.By = s.Tools, "settings"
	default:
		m.Mode, m.By = m.Default, "model"
	}
	m.Mode = cmp.Or(m.Mode, chat.ToolsDirect)
	return m
}

// scriptDecision decides each call a script run by 'serve --code' makes
// as the chat decides a direct call (chat.Decide: the argument rules, then
// the tool's policy, else def, the host's default that the chat uses too;
// no "allowed for the rest of the chat" there): the gateway asks the
// client about an "ask" and refuses a refusal with its sentence. Asked
// about no call (nil args), it denies a tool the settings deny, which
// the gateway then hides from the functions, as the chat hides it.
func scriptDecision(s ChatSettings, def func(Tool) ToolPolicy) gateway.DecideFunc {
	return func(t Tool, raw json.RawMessage) (gateway.Decision, string) {
		if raw == nil {
			if s.Policies.For(t, def) == chat.PolicyDeny {
				return gateway.Deny, "The user's settings do not allow this tool."
			}
			return gateway.Allow, ""
		}
		var args map[string]any
		if err := json.Unmarshal(raw, &args); err != nil {
			return gateway.Deny, "its arguments are not a JSON object"
		}
		switch r := chat.Decide(t, args, s.Rules, s.Policies, def, false); r.Verdict {
		case chat.Run:
			return gateway.Allow, ""
		case chat.Ask:
			return gateway.Ask, ""
		default:
			return gateway.Deny, r.Why
		}
	}
}

// ServeSettings is config.json's settings.serve: how Switchboard offers
// the tools to the apps that use it as their MCP server ('switchboard
// serve', and the apps attached to a running Switchboard through it).
type ServeSettings struct {
	// Tools is how they are offered when 'serve' is run without --code:
	// chat.ToolsDirect ("" too: every tool as it is), ToolsCode (code
	// mode's three tools instead) or ToolsBoth. The running Switchboard
	// offers the same to the apps attached to it, and follows a change at
	// once (each attached app is sent tools/list_changed).
	Tools string `json:"tools,omitempty"`
}

var serveSection = config.Section[ServeSettings]{Key: "serve"}

// serveCode is Settings.serveCode of cfg; def is the policy of a tool no
// setting names (Tools.DefaultPolicy, as the chat's).
func serveCode(cfg *config.Config, def func(Tool) ToolPolicy) (gateway.CodeMode, error) {
	sv, err := serveSection.Get(cfg)
	if err != nil {
		return gateway.CodeMode{}, err
	}
	if err := chat.ValidToolMode(sv.Tools); err != nil {
		return gateway.CodeMode{}, fmt.Errorf("config.json settings.serve.tools: %w; choose one in Settings → Chat → Code mode, or remove it", err)
	}
	s, err := chat.LoadSettings(cfg.Settings)
	if err != nil {
		return gateway.CodeMode{}, err
	}
	return gateway.CodeMode{Mode: codeModeOf(sv.Tools), Limits: s.CodeMode, Decide: scriptDecision(s, def)}, nil
}

// codeModeOf is a tool mode (chat.ToolsDirect, ToolsCode, ToolsBoth) as
// the gateway's code mode.
func codeModeOf(tools string) string {
	switch tools {
	case chat.ToolsCode:
		return gateway.CodeOnly
	case chat.ToolsBoth:
		return gateway.CodeBoth
	}
	return gateway.CodeOff
}
