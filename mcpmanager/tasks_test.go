package mcpmanager

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// taskLog collects a task call's updates.
type taskLog struct {
	mu      sync.Mutex
	updates []router.TaskUpdate
	first   chan string // the task id, once
}

func newTaskLog() *taskLog { return &taskLog{first: make(chan string, 1)} }

func (l *taskLog) add(u router.TaskUpdate) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.updates) == 0 {
		l.first <- u.ID
	}
	l.updates = append(l.updates, u)
}

func (l *taskLog) statuses() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, u := range l.updates {
		out = append(out, u.Status)
	}
	return out
}

// TestTasksOfTheRealEverythingServer calls server-everything's
// simulate-research-query (execution.taskSupport "required", about 4 s) as
// a task: its statuses are told as they change, the tool timeout (1 s here)
// does not cut it, its result is fetched when done; tasks/cancel ends one
// early, and the task limit ends one that runs too long.
func TestTasksOfTheRealEverythingServer(t *testing.T) {
	m := New(Options{LogDir: t.TempDir()})
	t.Cleanup(func() { m.Close(context.Background()) })
	m.Apply([]ServerConfig{{Name: "everything", Command: proctest.NPM(t, "mcp-server-everything"), CallTimeout: time.Second}})
	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()
	m.WaitSettled(ctx)
	reg := m.Router()
	args := map[string]any{"topic": "switchboard"}

	t.Run("completes past the tool timeout", func(t *testing.T) {
		log := newTaskLog()
		res, err := reg.Call(ctx, "everything", "simulate-research-query", args, router.CallOptions{OnTask: log.add})
		if err != nil {
			t.Fatal(err)
		}
		if res.IsError || !strings.Contains(mcptest.Text(res), "Research Report: switchboard") {
			t.Fatalf("result = %q (error %v)", mcptest.Text(res), res.IsError)
		}
		st := log.statuses()
		if len(st) < 2 || st[0] != "working" || st[len(st)-1] != "completed" {
			t.Fatalf("statuses %v, want working … completed", st)
		}
	})

	t.Run("cancelled with tasks/cancel", func(t *testing.T) {
		log := newTaskLog()
		go func() {
			select {
			case id := <-log.first:
				if err := reg.CancelTask(ctx, "everything", id); err != nil {
					t.Errorf("CancelTask: %v", err)
				}
			case <-ctx.Done():
			}
		}()
		start := time.Now()
		res, err := reg.Call(ctx, "everything", "simulate-research-query", args, router.CallOptions{OnTask: log.add})
		if err != nil {
			t.Fatal(err)
		}
		if !res.IsError || !strings.Contains(mcptest.Text(res), "cancelled") {
			t.Fatalf("result = %q, want a cancelled error", mcptest.Text(res))
		}
		if took := time.Since(start); took > 3500*time.Millisecond {
			t.Fatalf("a cancelled task took %s, as long as a whole run", took)
		}
		if st := log.statuses(); st[len(st)-1] != "cancelled" {
			t.Fatalf("statuses %v, want … cancelled", st)
		}
	})

	t.Run("the task limit ends it", func(t *testing.T) {
		reg.SetTaskPolicy(router.TaskPolicy{Optional: true, Limit: 1500 * time.Millisecond})
		t.Cleanup(func() { reg.SetTaskPolicy(router.DefaultTaskPolicy) })
		_, err := reg.Call(ctx, "everything", "simulate-research-query", args, router.CallOptions{})
		if !errors.Is(err, router.ErrTaskLimit) {
			t.Fatalf("err = %v, want ErrTaskLimit", err)
		}
	})
}
