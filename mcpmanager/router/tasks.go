package router

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/wire"
)

// Tasks (MCP 2025-11-25): a tool whose execution.taskSupport is "required"
// is always called as a task; an "optional" one is called as a task when
// the task policy says so (TaskPolicy.Optional, on by default: a task is
// never cut by the tool timeout and can be cancelled, which is what a
// long-running tool needs, at the price of a few status requests). A task
// call returns at once with a task id; the router then polls tasks/get
// (at the server's pollInterval), tells the caller each status
// (CallOptions.OnTask), fetches the result with tasks/result once the task
// completed or needs input (the server sends its elicitation requests
// while tasks/result waits), and within TaskPolicy.Limit instead of the
// server's tool timeout. CancelTask sends tasks/cancel; a caller that gives
// up (its context ends) cancels the task too.

// Task defaults; variables so tests can shorten them.
var (
	// DefaultTaskLimit is how long a task may run when TaskPolicy.Limit is 0.
	DefaultTaskLimit = 30 * time.Minute
)

// TaskPolicy says which tools run as tasks and for how long.
type TaskPolicy struct {
	// Optional: call tools with taskSupport "optional" as tasks too.
	Optional bool
	// Limit bounds a task's whole run (0: DefaultTaskLimit); the server's
	// tool timeout does not apply to a task.
	Limit time.Duration
}

// DefaultTaskPolicy runs optional tools as tasks, for DefaultTaskLimit.
var DefaultTaskPolicy = TaskPolicy{Optional: true}

// TaskUpdate is the state of a call running as a task, told to
// CallOptions.OnTask at its creation and at every change.
type TaskUpdate = wire.TaskUpdate

// TaskClient is a session that runs tasks; *client.Client satisfies it.
type TaskClient interface {
	RawClient
	GetServerCapabilities() mcp.ServerCapabilities
	GetTask(ctx context.Context, req mcp.GetTaskRequest) (*mcp.GetTaskResult, error)
	TaskResult(ctx context.Context, req mcp.TaskResultRequest) (*mcp.TaskResultResult, error)
	CancelTask(ctx context.Context, req mcp.CancelTaskRequest) (*mcp.CancelTaskResult, error)
}

// ErrTaskLimit means a task ran longer than TaskPolicy.Limit (it is cancelled).
var ErrTaskLimit = errors.New("task ran longer than its limit")

// SetTaskPolicy sets which tools run as tasks and their limit.
func (r *Router) SetTaskPolicy(p TaskPolicy) { r.tasks.Store(&p) }

// TaskPolicy is the policy in force (DefaultTaskPolicy until one is set).
func (r *Router) TaskPolicy() TaskPolicy {
	if p := r.tasks.Load(); p != nil {
		return *p
	}
	return DefaultTaskPolicy
}

// asTask returns the session when server's tool is to be called as a
// task: the tool asks for it, the server offers task-augmented tools/call,
// and the session speaks a protocol version whose tools/call carries it.
func (r *Router) asTask(ctx context.Context, server, tool string) (TaskClient, bool) {
	_, cl, err := r.session(server)
	if err != nil {
		return nil, false
	}
	tc, ok := cl.(TaskClient)
	if !ok || mcp.IsModernProtocol(tc.ProtocolVersion()) {
		return nil, false
	}
	caps := tc.GetServerCapabilities().Tasks
	if caps == nil || caps.Requests == nil || caps.Requests.Tools == nil || caps.Requests.Tools.Call == nil {
		return nil, false
	}
	tools, err := r.ServerTools(ctx, server)
	if err != nil {
		return nil, false
	}
	for _, t := range tools {
		if t.Name != tool || t.Execution == nil {
			continue
		}
		switch t.Execution.TaskSupport {
		case mcp.TaskSupportRequired:
			return tc, true
		case mcp.TaskSupportOptional:
			return tc, r.TaskPolicy().Optional
		}
	}
	return nil, false
}

// extensionTasks reports whether cl is a 2026-07-28 session with a server
// that offers the tasks extension.
func extensionTasks(cl Client) bool {
	tc, ok := cl.(TaskClient)
	if !ok || !mcp.IsModernProtocol(tc.ProtocolVersion()) {
		return false
	}
	_, offered := tc.GetServerCapabilities().Extensions[wire.TasksExtension]
	return offered
}

// taskLimit is how long a task may run.
func (r *Router) taskLimit() time.Duration {
	if l := r.TaskPolicy().Limit; l > 0 {
		return l
	}
	return DefaultTaskLimit
}

// taskParams are the params of a task-augmented tools/call.
type taskParams struct {
	Meta      *mcp.Meta       `json:"_meta,omitempty"`
	Name      string          `json:"name"`
	Arguments map[string]any  `json:"arguments"`
	Task      *mcp.TaskParams `json:"task"`
}

// callTask runs one tools/call as a task, to its result.
func (r *Router) callTask(ctx context.Context, tc TaskClient, server, tool string, args map[string]any, opts CallOptions) (*mcp.CallToolResult, error) {
	if err := r.screenCall(ctx, sourceOf(r, server), server, tool); err != nil {
		r.record(server, 0, true)
		return nil, err
	}
	limit := r.taskLimit()
	tctx, cancel := context.WithTimeoutCause(ctx, limit, ErrTaskLimit)
	defer cancel()
	meta, release := r.callMeta(server, opts.Meta, opts.OnProgress)
	defer release()
	if args == nil {
		args = map[string]any{}
	}
	start := time.Now()
	res, err := r.runTask(tctx, tc, tool, taskParams{Meta: meta, Name: tool, Arguments: args, Task: &mcp.TaskParams{}}, opts.OnTask)
	if err != nil {
		if errors.Is(context.Cause(tctx), ErrTaskLimit) && ctx.Err() == nil {
			err = fmt.Errorf("%s: %s: %w (%s); raise it in Settings → Tasks", server, tool, ErrTaskLimit, limit)
		} else {
			err = fmt.Errorf("%s: %s: %w", server, tool, err)
		}
	}
	r.record(server, time.Since(start), err != nil || res != nil && res.IsError)
	return res, err
}

// runTask creates the task, follows it and fetches its result; when ctx
// ends first the task is cancelled on the server.
func (r *Router) runTask(ctx context.Context, tc TaskClient, tool string, params taskParams, onTask func(TaskUpdate)) (*mcp.CallToolResult, error) {
	tell := func(t mcp.Task) {
		if onTask != nil {
			onTask(TaskUpdate{ID: t.TaskId, Status: string(t.Status), Message: t.StatusMessage})
		}
	}
	id := mcp.NewRequestId(fmt.Sprintf("switchboard-task-%d", r.rawIDs.Add(1)))
	resp, err := tc.GetTransport().SendRequest(ctx, transport.JSONRPCRequest{
		JSONRPC: mcp.JSONRPC_VERSION, ID: id, Method: string(mcp.MethodToolsCall), Params: params,
	})
	if err != nil {
		return nil, err
	}
	if resp.Error != nil {
		return nil, resp.Error.AsError()
	}
	var created struct {
		Task *mcp.Task `json:"task"`
	}
	if err := json.Unmarshal(resp.Result, &created); err != nil || created.Task == nil || created.Task.TaskId == "" {
		// The server answered at once with the result itself.
		raw := resp.Result
		return mcp.ParseCallToolResult(&raw)
	}
	task := *created.Task
	tell(task)
	defer func() {
		if ctx.Err() != nil && !task.Status.IsTerminal() {
			cancelTask(tc, task.TaskId)
		}
	}()
	for task.Status != mcp.TaskStatusCompleted && task.Status != mcp.TaskStatusInputRequired {
		switch task.Status {
		case mcp.TaskStatusFailed:
			return taskResult(ctx, tc, task)
		case mcp.TaskStatusCancelled:
			return mcp.NewToolResultError("The task was cancelled before it finished."), nil
		}
		t := time.NewTimer(wire.PollWait(task.PollInterval)) // the server's pollInterval, within bounds
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
		req := mcp.GetTaskRequest{}
		req.Params.TaskId = task.TaskId
		got, err := tc.GetTask(ctx, req)
		if err != nil {
			return nil, fmt.Errorf("task %s: %w", task.TaskId, err)
		}
		if got.Status != task.Status || got.StatusMessage != task.StatusMessage {
			tell(got.Task)
		}
		task = got.Task
	}
	res, err := taskResult(ctx, tc, task)
	if err == nil && task.Status != mcp.TaskStatusCompleted {
		task.Status = mcp.TaskStatusCompleted // input was given while tasks/result waited
		tell(task)
	}
	return res, err
}

// taskResult fetches a task's result (tasks/result waits until it is done).
func taskResult(ctx context.Context, tc TaskClient, task mcp.Task) (*mcp.CallToolResult, error) {
	req := mcp.TaskResultRequest{}
	req.Params.TaskId = task.TaskId
	res, err := tc.TaskResult(ctx, req)
	if err != nil {
		if task.Status == mcp.TaskStatusFailed {
			return mcp.NewToolResultError("The task failed: " + task.StatusMessage), nil
		}
		return nil, fmt.Errorf("task %s: result: %w", task.TaskId, err)
	}
	return &mcp.CallToolResult{Result: res.Result, Content: res.Content, StructuredContent: res.StructuredContent, IsError: res.IsError}, nil
}

// cancelTask sends tasks/cancel for a task whose caller gave up, off the
// caller's path and best effort.
func cancelTask(tc TaskClient, id string) {
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), CancelNotifyTimeout)
		defer cancel()
		req := mcp.CancelTaskRequest{}
		req.Params.TaskId = id
		_, _ = tc.CancelTask(ctx, req)
	}()
}

// CancelTask asks server to cancel one of its tasks (tasks/cancel): the
// call following it ends with a result saying it was cancelled.
func (r *Router) CancelTask(ctx context.Context, server, taskID string) error {
	_, cl, err := r.session(server)
	if err != nil {
		return err
	}
	tc, ok := cl.(TaskClient)
	if !ok {
		return fmt.Errorf("%s: cancel task: %w", server, ErrUnsupported)
	}
	req := mcp.CancelTaskRequest{}
	req.Params.TaskId = taskID
	if _, err := tc.CancelTask(ctx, req); err != nil {
		return fmt.Errorf("%s: cancel task %s: %w", server, taskID, err)
	}
	return nil
}
