package host

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// Tasks are the settings of tool calls that run as MCP tasks (see
// router.TaskPolicy): whether tools that merely allow it
// (taskSupport "optional") run as tasks, and how long a task may run.
type Tasks struct{ h *Host }

// TaskSettings is the "tasks" section of config.json's settings.
type TaskSettings struct {
	// OptionalAsTasks: tools with taskSupport "optional" run as tasks too
	// (nil: yes, router.DefaultTaskPolicy).
	OptionalAsTasks *bool `json:"optionalAsTasks,omitempty"`
	// LimitMinutes bounds one task (0: router.DefaultTaskLimit).
	LimitMinutes int `json:"limitMinutes,omitempty"`
}

// MaxTaskLimit is the longest task limit a user may set.
const MaxTaskLimit = 24 * time.Hour

// tasksSection is settings.tasks.
var tasksSection = config.Section[TaskSettings]{Key: "tasks"}

// taskPolicyIn is what cfg's settings make of router.DefaultTaskPolicy
// (the default itself, with the error, when the section is malformed).
func taskPolicyIn(cfg *config.Config) (router.TaskPolicy, error) {
	s, err := tasksSection.Get(cfg)
	p := router.DefaultTaskPolicy
	if err != nil {
		return p, err
	}
	if s.OptionalAsTasks != nil {
		p.Optional = *s.OptionalAsTasks
	}
	if s.LimitMinutes > 0 {
		p.Limit = time.Duration(s.LimitMinutes) * time.Minute
	}
	return p, nil
}

// TaskPolicy is how tool calls run as MCP tasks: whether a tool that
// merely allows it (taskSupport "optional") runs as one too, and how long
// a task may run in all (the server's tool timeout does not apply).
type TaskPolicy struct {
	Optional bool
	Limit    time.Duration
}

// Policy is the saved task policy, Limit filled in.
func (t *Tasks) Policy() (TaskPolicy, error) {
	cfg, err := t.h.readConfig()
	if err != nil {
		return TaskPolicy{}, err
	}
	p, err := taskPolicyIn(cfg)
	if err != nil {
		return TaskPolicy(p), err
	}
	if p.Limit == 0 {
		p.Limit = router.DefaultTaskLimit
	}
	return TaskPolicy(p), nil
}

// SetPolicy saves the task policy; the next call follows it.
func (t *Tasks) SetPolicy(p TaskPolicy) error {
	if p.Limit < time.Minute || p.Limit > MaxTaskLimit {
		return fmt.Errorf("task time limit %s: choose between 1 minute and %s", p.Limit, MaxTaskLimit)
	}
	err := t.h.edit(func(cfg *config.Config) error {
		return tasksSection.Put(cfg, TaskSettings{OptionalAsTasks: &p.Optional, LimitMinutes: int(p.Limit / time.Minute)})
	})
	if err == nil {
		t.h.router().SetTaskPolicy(router.TaskPolicy(p)) // a CLI edit applies nothing else
	}
	return err
}

// applyTaskPolicy makes the router follow cfg's task settings (their
// defaults when the section is malformed: the Settings page says why).
func (h *Host) applyTaskPolicy(cfg *config.Config) {
	p, err := taskPolicyIn(cfg)
	if err != nil {
		slog.Warn("settings", "err", err)
	}
	h.router().SetTaskPolicy(p)
}
