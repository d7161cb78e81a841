package wire

import (
	"context"
	"time"
)

// TaskUpdate is the state of a call a server turned into a task (MCP tasks:
// the 2025-11-25 utility, or the io.modelcontextprotocol/tasks extension of
// revision 2026-07-28), at its creation and at every change.
type TaskUpdate struct {
	ID      string `json:"id"`
	Status  string `json:"status"`            // working, input_required, completed, failed, cancelled
	Message string `json:"message,omitempty"` // the server's statusMessage
}

// TasksExtension is the capability key of revision 2026-07-28's tasks
// extension (SEP-2663): a server offering it may answer any tools/call of a
// client that declares it with a task.
const TasksExtension = "io.modelcontextprotocol/tasks"

type taskUpdatesKey struct{}

// WithTaskUpdates returns a context whose calls tell fn each state of the
// task a server turns them into. The caller that makes the call (the tool
// router) sets it; the layer that follows the task (the supervisor's
// transport, for the 2026-07-28 extension) calls it. fn must not block.
func WithTaskUpdates(ctx context.Context, fn func(TaskUpdate)) context.Context {
	if fn == nil {
		return ctx
	}
	return context.WithValue(ctx, taskUpdatesKey{}, fn)
}

// TaskUpdates returns the function WithTaskUpdates set, or one that does
// nothing.
func TaskUpdates(ctx context.Context) func(TaskUpdate) {
	if fn, ok := ctx.Value(taskUpdatesKey{}).(func(TaskUpdate)); ok {
		return fn
	}
	return func(TaskUpdate) {}
}

// Task polling; variables so tests can shorten them.
var (
	// TaskPoll is the polling interval of a server that suggests none.
	TaskPoll = time.Second
	// MinTaskPoll and MaxTaskPoll bound the interval a server suggests:
	// 1 ms must not become a thousand tasks/get a second, nor an hour a
	// task never looked at.
	MinTaskPoll = 250 * time.Millisecond
	MaxTaskPoll = time.Minute
)

// PollWait is how long to wait before the next tasks/get: the server's
// interval (milliseconds) within the bounds, else TaskPoll.
func PollWait(ms *int64) time.Duration {
	if ms == nil || *ms <= 0 {
		return TaskPoll
	}
	return min(max(time.Duration(*ms)*time.Millisecond, MinTaskPoll), MaxTaskPoll)
}
