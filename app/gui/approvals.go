package gui

import (
	"context"
	"errors"
	"github.com/switchboard-app/switchboard/app/host"
	"sync"

	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"
)

// ErrNoSuchRequest means the question was already answered or withdrawn.
var ErrNoSuchRequest = errors.New("that request was already answered or withdrawn")

// asker puts approvals and elicitations to the UI and waits for the answer
// bound methods bring back. It implements host.Approver and host.Elicitor;
// safe for concurrent use.
type asker struct {
	emit func(name string, data any)

	mu      sync.Mutex
	pending map[string]*question
}

// question is one open request.
type question struct {
	Approval *host.ApprovalRequest `json:"approval,omitempty"`
	Elicit   *host.ElicitRequest   `json:"elicit,omitempty"`
	answer   chan any
}

var (
	_ host.Approver = (*asker)(nil)
	_ host.Elicitor = (*asker)(nil)
)

func newAsker(emit func(string, any)) *asker {
	return &asker{emit: emit, pending: map[string]*question{}}
}

// ask registers q under id, emits it and waits for the answer or ctx.
func (k *asker) ask(ctx context.Context, id, event string, q *question, payload any) (any, error) {
	q.answer = make(chan any, 1)
	k.mu.Lock()
	k.pending[id] = q
	k.mu.Unlock()
	defer func() {
		k.mu.Lock()
		delete(k.pending, id)
		k.mu.Unlock()
		k.emit(EventRequestDone, RequestDone{ID: id})
	}()
	k.emit(event, payload)
	select {
	case a := <-q.answer:
		return a, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Approve implements host.Approver.
func (k *asker) Approve(ctx context.Context, req host.ApprovalRequest) (host.Decision, error) {
	a, err := k.ask(ctx, req.ID, EventApproval, &question{Approval: &req}, approvalView(req))
	if err != nil {
		return host.Deny, err
	}
	return a.(host.Decision), nil
}

// Elicit implements host.Elicitor.
func (k *asker) Elicit(ctx context.Context, req host.ElicitRequest) (host.ElicitAnswer, error) {
	a, err := k.ask(ctx, req.ID, EventElicit, &question{Elicit: &req}, elicitView(req))
	if err != nil {
		return host.ElicitAnswer{Action: "cancel"}, err
	}
	return a.(host.ElicitAnswer), nil
}

// answer delivers an answer to the open question id.
func (k *asker) answer(id string, a any) error {
	k.mu.Lock()
	q, ok := k.pending[id]
	k.mu.Unlock()
	if !ok {
		return ErrNoSuchRequest
	}
	select {
	case q.answer <- a:
		return nil
	default:
		return ErrNoSuchRequest
	}
}

// open lists the questions still waiting (for a page that was reloaded).
func (k *asker) open() []question {
	k.mu.Lock()
	defer k.mu.Unlock()
	out := make([]question, 0, len(k.pending))
	for _, q := range k.pending {
		out = append(out, *q)
	}
	return out
}

// PendingRequest is an approval or a form waiting for the user.
type PendingRequest struct {
	Approval *ApprovalView `json:"approval,omitempty"`
	Elicit   *ElicitView   `json:"elicit,omitempty"`
}

// emitEvent sends an event to the frontend (no-op before Startup).
func (a *core) emitEvent(name string, data any) {
	if a.emitHook != nil {
		a.emitHook(name, data)
		return
	}
	if ctx := a.wailsContext(); ctx != nil {
		wruntime.EventsEmit(ctx, name, data)
	}
}
