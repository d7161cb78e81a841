package app

import (
	"context"
	"time"
)

// CancelTask asks a server to cancel a tool call running as an MCP task
// (tasks/cancel), from the Cancel of its card; the call then ends saying
// it was cancelled.
func (a *ChatPage) CancelTask(server, taskID string) error {
	ctx, cancel := context.WithTimeout(a.bg(), 15*time.Second)
	defer cancel()
	return a.h.Registry().CancelTask(ctx, server, taskID)
}
