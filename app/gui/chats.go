package gui

import (
	"github.com/switchboard-app/switchboard/app/host"
)

// createChat saves a new chat through the host (its title and default
// model by the host's rules, as the CLI's).
func (a *core) createChat(s host.ChatSettings, n host.NewChat) (host.ChatView, error) {
	return a.h.Chats.Create(a.bg(), s, n)
}

// MaxMessagePage caps the limit ChatMessagesPage accepts.
var MaxMessagePage = 500
