package app

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/chat"
)

// Sample is an MCP App's sampling/createMessage (paramsJSON: the request's
// params) from the app uri of server, shown in chatID ("" outside a chat):
// decided, asked about on the sampling approval card and capped exactly as
// the server's own requests are (chat.Requests.CreateMessageForApp). It
// returns the CreateMessageResult as JSON.
func (a *Apps) Sample(chatID, server, uri, paramsJSON string) (string, error) {
	if a.requests == nil {
		return "", errors.New("sampling is unavailable")
	}
	var req mcp.CreateMessageRequest
	if err := json.Unmarshal([]byte(paramsJSON), &req.CreateMessageParams); err != nil {
		return "", fmt.Errorf("the app's sampling request is not valid: %w", err)
	}
	if len(req.Messages) == 0 {
		return "", errors.New("the app's sampling request has no messages")
	}
	ctx, cancel := context.WithCancel(cmp.Or(a.wailsContext(), context.Background()))
	defer cancel()
	res, err := a.requests.CreateMessageForApp(ctx, chatID, server, uri, req)
	if err != nil {
		return "", errors.New(a.h.Redact(err.Error()))
	}
	b, err := json.Marshal(res)
	return string(b), err
}

// chatModel is the model chatID uses (its provider and model), for an MCP
// App's sampling in that chat.
func (c *core) chatModel(_ context.Context, chatID string) (chat.Model, error) {
	_, ch, err := c.storedChat(chatID)
	if err != nil {
		return chat.Model{}, err
	}
	s, err := c.h.Settings.Chat()
	if err != nil {
		return chat.Model{}, err
	}
	m, _, err := c.h.Chats.Model(s, ch.Provider, ch.Model)
	return m, err
}
