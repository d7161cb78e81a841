package gui

import (
	"encoding/json"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/history"
	"github.com/switchboard-app/switchboard/app/host"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// ChatOptions are a chat's own choices, kept in its history record.
type ChatOptions struct {
	// OffServers and OffTools are the servers and tools (server__tool) the
	// user switched off for this chat; everything else is active.
	OffServers []string `json:"offServers,omitempty"`
	OffTools   []string `json:"offTools,omitempty"`
	// ToolMode is how this chat offers the tools: direct, code or both
	// (chat.ToolsDirect, …); "" leaves it to the agent, the settings and
	// the model's context window.
	ToolMode string `json:"toolMode,omitempty"`
}

func chatOptions(raw json.RawMessage) ChatOptions {
	var o ChatOptions
	if len(raw) > 0 {
		_ = json.Unmarshal(raw, &o)
	}
	return o
}

func (o ChatOptions) active(t router.Tool) bool {
	for _, s := range o.OffServers {
		if s == t.Server {
			return false
		}
	}
	for _, n := range o.OffTools {
		if n == t.Name {
			return false
		}
	}
	return true
}

// createChat saves a new chat through the host (its title and default
// model by the host's rules, as the CLI's).
func (a *core) createChat(s chat.Settings, n host.NewChat) (ChatView, error) {
	c, err := a.h.Chats.Create(a.bg(), s, n)
	if err != nil {
		return ChatView{}, err
	}
	return chatView(c), nil
}

// MaxMessagePage caps the limit ChatMessagesPage accepts.
var MaxMessagePage = 500

// storedChat is the history store and one chat of it.
func (a *core) storedChat(id string) (*history.Store, history.Chat, error) {
	h, err := a.historyStore()
	if err != nil {
		return nil, history.Chat{}, err
	}
	c, err := h.Chat(a.bg(), id)
	return h, c, err
}
