package app

import (
	"context"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/registry"
)

// CancelTask asks a server to cancel a tool call running as an MCP task
// (tasks/cancel), from the Cancel of its card; the call then ends saying
// it was cancelled.
func (a *ChatPage) CancelTask(server, taskID string) error {
	ctx, cancel := context.WithTimeout(a.bg(), 15*time.Second)
	defer cancel()
	return a.h.Tools.CancelTask(ctx, server, taskID)
}

// TaskSettingsView is how tool calls run as MCP tasks (Settings → Tasks).
type TaskSettingsView struct {
	// OptionalAsTasks: tools that allow tasks (taskSupport "optional") run
	// as tasks too; tools that require them always do.
	OptionalAsTasks bool `json:"optionalAsTasks"`
	// LimitMinutes bounds one task; the tool timeout does not apply to tasks.
	LimitMinutes int `json:"limitMinutes"`
}

// TaskSettings returns the saved task settings.
func (a *SettingsPage) TaskSettings() (TaskSettingsView, error) {
	p, err := a.h.Tasks.Policy()
	return TaskSettingsView{OptionalAsTasks: p.Optional, LimitMinutes: int(p.Limit / time.Minute)}, err
}

// SetTaskSettings saves them; the next tool call follows them.
func (a *SettingsPage) SetTaskSettings(v TaskSettingsView) error {
	return a.h.Tasks.SetPolicy(registry.TaskPolicy{Optional: v.OptionalAsTasks, Limit: time.Duration(v.LimitMinutes) * time.Minute})
}
