package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// tasksExtension is revision 2026-07-28's tasks extension (SEP-2663),
// written by hand for one tool, since mcp-go does not implement it:
// prepare_report, called by a client that declares the extension, answers
// with a task; the task asks (input_required) whether to include the
// appendix, and completes with the report once tasks/update brings the
// answer. tasks/get reports it, with the result inline; tasks/cancel ends
// it. A client without the extension gets the report at once, without
// the appendix (newServer's handler).
const tasksExtension = "io.modelcontextprotocol/tasks"

type task struct {
	ID      string
	Status  string
	Message string
	Result  json.RawMessage
	Asks    mcp.InputRequests
	answer  chan bool
}

type taskServer struct {
	mu    sync.Mutex
	n     int
	tasks map[string]*task
}

// request is the part of a JSON-RPC request the extension looks at.
type request struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Name           string                     `json:"name"`
		TaskID         string                     `json:"taskId"`
		InputResponses map[string]json.RawMessage `json:"inputResponses"`
		Meta           struct {
			Caps struct {
				Extensions map[string]any `json:"extensions"`
			} `json:"io.modelcontextprotocol/clientCapabilities"`
		} `json:"_meta"`
	} `json:"params"`
}

// handle answers line when it is the extension's to answer, else returns nil.
func (ts *taskServer) handle(line []byte) []byte {
	var req request
	if json.Unmarshal(line, &req) != nil {
		return nil
	}
	_, declared := req.Params.Meta.Caps.Extensions[tasksExtension]
	switch req.Method {
	case "tools/call":
		if req.Params.Name != "prepare_report" || !declared {
			return nil
		}
		t := ts.start()
		return reply(req.ID, ts.view(t, "task"))
	case "tasks/get":
		t := ts.get(req.Params.TaskID)
		if t == nil {
			return replyError(req.ID, mcp.INVALID_PARAMS, "unknown taskId")
		}
		return reply(req.ID, ts.view(t, "complete"))
	case "tasks/update":
		t := ts.get(req.Params.TaskID)
		if t == nil {
			return replyError(req.ID, mcp.INVALID_PARAMS, "unknown taskId")
		}
		if raw, ok := req.Params.InputResponses["appendix"]; ok {
			var res mcp.ElicitationResult
			_ = json.Unmarshal(raw, &res)
			content, _ := res.Content.(map[string]any)
			yes, _ := content["appendix"].(bool)
			select {
			case t.answer <- res.Action == mcp.ElicitationResponseActionAccept && yes:
			default:
			}
		}
		return reply(req.ID, map[string]any{"resultType": "complete"})
	case "tasks/cancel":
		t := ts.get(req.Params.TaskID)
		if t == nil {
			return replyError(req.ID, mcp.INVALID_PARAMS, "unknown taskId")
		}
		ts.mu.Lock()
		if t.Status != "completed" {
			t.Status, t.Message = "cancelled", "cancelled by the client"
		}
		ts.mu.Unlock()
		return reply(req.ID, map[string]any{"resultType": "complete"})
	}
	return nil
}

func (ts *taskServer) start() *task {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.n++
	if ts.tasks == nil {
		ts.tasks = map[string]*task{}
	}
	t := &task{ID: fmt.Sprintf("report-%d", ts.n), Status: "working", Message: "Gathering the figures", answer: make(chan bool, 1)}
	ts.tasks[t.ID] = t
	go func() {
		time.Sleep(300 * time.Millisecond) // the work before the question
		ts.mu.Lock()
		if t.Status == "cancelled" {
			ts.mu.Unlock()
			return
		}
		t.Status, t.Message = "input_required", "Waiting for your answer"
		t.Asks = mcp.InputRequests{"appendix": mcp.NewElicitationInputRequest(mcp.ElicitationParams{
			Message: "Include the appendix in the report?",
			RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{
				"appendix": map[string]any{"type": "boolean", "title": "Include the appendix", "default": true},
			}},
		})}
		ts.mu.Unlock()
		yes := <-t.answer
		ts.mu.Lock()
		defer ts.mu.Unlock()
		if t.Status == "cancelled" {
			return
		}
		t.Asks = nil
		t.Status, t.Message = "completed", ""
		t.Result, _ = json.Marshal(mcp.NewToolResultText(report(yes)))
	}()
	return t
}

func (ts *taskServer) get(id string) *task {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.tasks[id]
}

// view is a task as CreateTaskResult (resultType "task") or tasks/get
// ("complete") carries it.
func (ts *taskServer) view(t *task, resultType string) map[string]any {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	now := time.Now().UTC().Format(time.RFC3339)
	v := map[string]any{"resultType": resultType, "taskId": t.ID, "status": t.Status, "createdAt": now, "lastUpdatedAt": now,
		"ttlMs": 600000, "pollIntervalMs": 100}
	if t.Message != "" {
		v["statusMessage"] = t.Message
	}
	if t.Status == "input_required" {
		v["inputRequests"] = t.Asks
	}
	if t.Status == "completed" {
		v["result"] = t.Result
	}
	return v
}

// report is prepare_report's text.
func report(appendix bool) string {
	parts := []string{"Report ready: 3 sections"}
	if appendix {
		parts = append(parts, "with the appendix")
	}
	return strings.Join(parts, ", ") + "."
}

func reply(id json.RawMessage, result any) []byte {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
	return append(b, '\n')
}

func replyError(id json.RawMessage, code int, msg string) []byte {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": msg}})
	return append(b, '\n')
}
