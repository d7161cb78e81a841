package supervisor

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/wire"
)

// Revision 2026-07-28 moved tasks into an extension
// (io.modelcontextprotocol/tasks, SEP-2663). A client that declares it lets
// the server answer any tools/call with a task instead of its result:
// {"resultType":"task","taskId",...}. The client then polls tasks/get,
// whose answer carries the result inline once the task completed (or its
// error once it failed, or the input it waits for), answers that input
// with tasks/update, and may stop the task with tasks/cancel.
//
// mcp-go knows none of it, so the transport follows the task for the call
// that started it: the call's caller waits as for any call and gets the
// task's result as the call's; each state reaches wire.TaskUpdates(ctx)
// (the task card, 'tools call'); the questions go to the same handlers as
// any other, and a call given up on cancels its task. Tasks of servers
// before 2026-07-28 are the router's (router/tasks.go).

// TaskCancelTimeout bounds the tasks/cancel sent for a call given up on.
var TaskCancelTimeout = 5 * time.Second

// maxCreateTask is the largest tools/call answer taken for a
// CreateTaskResult: one carries a task's id, status, times and message.
const maxCreateTask = 16 << 10

// extTask is a task as the extension's CreateTaskResult and tasks/get
// carry it.
type extTask struct {
	ResultType     string                   `json:"resultType"`
	TaskID         string                   `json:"taskId"`
	Status         string                   `json:"status"`
	StatusMessage  string                   `json:"statusMessage"`
	PollIntervalMs *int64                   `json:"pollIntervalMs"`
	Result         json.RawMessage          `json:"result"`
	Error          *mcp.JSONRPCErrorDetails `json:"error"`
	InputRequests  mcp.InputRequests        `json:"inputRequests"`
}

// tasker follows the extension's tasks for a transport's tools/call.
type tasker struct {
	server   string
	requests RequestHandler  // nil: questions are declined
	roots    func() []string // the roots offered, for roots/list input requests
	ids      atomic.Int64
}

// tasker is the task follower of s's transports.
func (s *Server) tasker() *tasker {
	return &tasker{server: s.spec.Name, requests: s.opts.Requests, roots: s.Roots}
}

// follow returns res, or, when res starts a task, the task's result once
// it ends, as the response to req.
func (k *tasker) follow(ctx context.Context, send sendFunc, req transport.JSONRPCRequest, res *transport.JSONRPCResponse) (*transport.JSONRPCResponse, error) {
	// A CreateTaskResult is a few hundred bytes: a larger answer is the
	// call's result, not decoded again here.
	if k == nil || req.Method != string(mcp.MethodToolsCall) || res == nil || res.Error != nil || len(res.Result) > maxCreateTask ||
		!bytes.Contains(res.Result, []byte(`"task"`)) { // a result's resultType, else no task
		return res, nil
	}
	var t extTask
	if json.Unmarshal(res.Result, &t) != nil || t.ResultType != "task" || t.TaskID == "" {
		return res, nil
	}
	meta := callMeta(req.Params)
	tell := wire.TaskUpdates(ctx)
	tell(wire.TaskUpdate{ID: t.TaskID, Status: t.Status, Message: t.StatusMessage})
	ask := func(method string, params map[string]any) (*transport.JSONRPCResponse, error) {
		params["_meta"] = meta
		r := transport.JSONRPCRequest{JSONRPC: mcp.JSONRPC_VERSION, ID: mcp.NewRequestId(fmt.Sprintf("%v-task-%d", req.ID.Value(), k.ids.Add(1))),
			Method: method, Params: params, Header: taskHeader(req.Header, method)}
		return send(ctx, r)
	}
	id := t.TaskID
	defer func() {
		if ctx.Err() != nil && !terminal(t.Status) {
			cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), TaskCancelTimeout)
			defer cancel()
			r := transport.JSONRPCRequest{JSONRPC: mcp.JSONRPC_VERSION, ID: mcp.NewRequestId(fmt.Sprintf("%v-task-cancel", req.ID.Value())),
				Method: "tasks/cancel", Params: map[string]any{"taskId": id, "_meta": meta}, Header: taskHeader(req.Header, "tasks/cancel")}
			_, _ = send(cctx, r)
		}
	}()
	for {
		switch t.Status {
		case "completed":
			if len(t.Result) == 0 {
				return nil, fmt.Errorf("task %s completed without a result", id)
			}
			return &transport.JSONRPCResponse{JSONRPC: res.JSONRPC, ID: res.ID, Result: t.Result}, nil
		case "failed":
			e := t.Error
			if e == nil {
				e = &mcp.JSONRPCErrorDetails{Code: mcp.INTERNAL_ERROR, Message: cmp.Or(t.StatusMessage, "the task failed")}
			}
			return &transport.JSONRPCResponse{JSONRPC: res.JSONRPC, ID: res.ID, Error: e}, nil
		case "cancelled":
			out, _ := json.Marshal(mcp.NewToolResultError("The task was cancelled before it finished."))
			return &transport.JSONRPCResponse{JSONRPC: res.JSONRPC, ID: res.ID, Result: out}, nil
		case "input_required":
			if len(t.InputRequests) > 0 {
				answers, err := k.answer(ctx, t.InputRequests)
				if err != nil {
					return nil, err
				}
				if r, err := ask("tasks/update", map[string]any{"taskId": id, "inputResponses": answers}); err != nil {
					return nil, err
				} else if r.Error != nil {
					return nil, fmt.Errorf("task %s: tasks/update: %w", id, r.Error.AsError())
				}
			}
		}
		wait := time.NewTimer(wire.PollWait(t.PollIntervalMs))
		select {
		case <-ctx.Done():
			wait.Stop()
			return nil, ctx.Err()
		case <-wait.C:
		}
		r, err := ask("tasks/get", map[string]any{"taskId": id})
		if err != nil {
			return nil, fmt.Errorf("task %s: %w", id, err)
		}
		if r.Error != nil {
			return nil, fmt.Errorf("task %s: tasks/get: %w", id, r.Error.AsError())
		}
		var next extTask
		if err := json.Unmarshal(r.Result, &next); err != nil {
			return nil, fmt.Errorf("task %s: tasks/get: %w", id, err)
		}
		if next.Status != t.Status || next.StatusMessage != t.StatusMessage {
			tell(wire.TaskUpdate{ID: id, Status: next.Status, Message: next.StatusMessage})
		}
		t = next
	}
}

// answer puts a task's questions to the handlers, as mcp-go does for the
// input requests of a call.
func (k *tasker) answer(ctx context.Context, requests mcp.InputRequests) (map[string]any, error) {
	out := make(map[string]any, len(requests))
	for key, r := range requests {
		switch {
		case r.Elicitation != nil:
			if k.requests == nil {
				out[key] = mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionDecline}}
				continue
			}
			res, err := elicitor{k.requests, k.server}.Elicit(ctx, mcp.ElicitationRequest{Params: *r.Elicitation})
			if err != nil {
				return nil, err
			}
			out[key] = res
		case r.Sampling != nil:
			if k.requests == nil {
				return nil, fmt.Errorf("%s asked to use a model (sampling), which this client does not offer", k.server)
			}
			res, err := sampler{k.requests, k.server}.CreateMessage(ctx, mcp.CreateMessageRequest{CreateMessageParams: *r.Sampling})
			if err != nil {
				return nil, err
			}
			out[key] = res
		case r.Roots != nil:
			roots := []mcp.Root{}
			if k.roots != nil {
				for _, p := range k.roots() {
					roots = append(roots, root(p))
				}
			}
			out[key] = mcp.ListRootsResult{Roots: roots}
		default:
			return nil, fmt.Errorf("%s asked for %q, which this client does not answer", k.server, r.Method)
		}
	}
	return out, nil
}

// callMeta is the _meta of a tools/call (protocol version, client info and
// capabilities, as mcp-go put them), which every request about its task
// carries too; the progress token is the call's own.
func callMeta(params any) map[string]any {
	b, err := json.Marshal(params)
	if err != nil {
		return map[string]any{}
	}
	var p struct {
		Meta map[string]any `json:"_meta"`
	}
	if json.Unmarshal(b, &p) != nil || p.Meta == nil {
		return map[string]any{}
	}
	m := maps.Clone(p.Meta)
	delete(m, "progressToken")
	return m
}

// taskHeader is the call's HTTP headers for a tasks/* request: its own
// Mcp-Method, and none of the tool's Mcp-Name or Mcp-Param-* headers.
func taskHeader(h http.Header, method string) http.Header {
	out := http.Header{}
	for k, v := range h {
		ck := http.CanonicalHeaderKey(k)
		if ck == "Mcp-Name" || strings.HasPrefix(ck, "Mcp-Param-") {
			continue
		}
		out[ck] = v
	}
	out.Set("Mcp-Method", method)
	return out
}

func terminal(status string) bool {
	return status == "completed" || status == "failed" || status == "cancelled"
}
