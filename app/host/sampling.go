package host

import (
	"context"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// A server's question (sampling, elicitation) goes to the caller whose
// call asked it, or to nobody (router.Tie: the manager ties each one
// before any door's handler hears it). The host names the caller of each
// call it makes: a chat's turn names its chat (the engine does), an MCP
// App's call the chat it is shown in, and the Tools page's, 'tools call''s
// and an app's outside a chat the person at this screen outside any chat
// (outsideChats), whose questions are asked outside a chat with the
// fallback model (chat.Requests).

// hostParty is a caller of the host's own, as the router counts it: an
// attended one (router.Attended), asked at this window or terminal.
type hostParty string

// Attended marks the host's callers as router.Attended.
func (hostParty) Attended() {}

// outsideChats is the caller of the calls made outside any chat: a
// party apart from every chat, though the same person answers both
// (router/parties.go says why) while their calls run at once.
const outsideChats hostParty = "outside chats"

// asCaller is ctx naming the caller of a call made for chatID ("": outside
// any chat): the chat's questions go to that chat and no other.
func asCaller(ctx context.Context, chatID string) context.Context {
	if chatID == "" {
		return router.WithParty(ctx, outsideChats)
	}
	return router.WithParty(ctx, chat.Party(chatID))
}
