package host

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/registry"
)

// Tasks are the settings of tool calls that run as MCP tasks (see
// registry.TaskPolicy): whether tools that merely allow it
// (taskSupport "optional") run as tasks, and how long a task may run.
type Tasks struct{ h *Host }

// TaskSettings is the "tasks" section of config.json's settings.
type TaskSettings struct {
	// OptionalAsTasks: tools with taskSupport "optional" run as tasks too
	// (nil: yes, registry.DefaultTaskPolicy).
	OptionalAsTasks *bool `json:"optionalAsTasks,omitempty"`
	// LimitMinutes bounds one task (0: registry.DefaultTaskLimit).
	LimitMinutes int `json:"limitMinutes,omitempty"`
}

// MaxTaskLimit is the longest task limit a user may set.
const MaxTaskLimit = 24 * time.Hour

func taskSettingsIn(cfg *config.Config) TaskSettings {
	var m map[string]json.RawMessage
	var s TaskSettings
	if json.Unmarshal(cfg.Settings, &m) == nil {
		_ = json.Unmarshal(m["tasks"], &s)
	}
	return s
}

// taskPolicyIn is what cfg's settings make of registry.DefaultTaskPolicy.
func taskPolicyIn(cfg *config.Config) registry.TaskPolicy {
	s := taskSettingsIn(cfg)
	p := registry.DefaultTaskPolicy
	if s.OptionalAsTasks != nil {
		p.Optional = *s.OptionalAsTasks
	}
	if s.LimitMinutes > 0 {
		p.Limit = time.Duration(s.LimitMinutes) * time.Minute
	}
	return p
}

// Policy is the saved task policy, Limit filled in.
func (t *Tasks) Policy() (registry.TaskPolicy, error) {
	cfg, err := t.h.Config()
	if err != nil {
		return registry.TaskPolicy{}, err
	}
	p := taskPolicyIn(cfg)
	if p.Limit == 0 {
		p.Limit = registry.DefaultTaskLimit
	}
	return p, nil
}

// SetPolicy saves the task policy; the next call follows it.
func (t *Tasks) SetPolicy(p registry.TaskPolicy) error {
	if p.Limit < time.Minute || p.Limit > MaxTaskLimit {
		return fmt.Errorf("task time limit %s: choose between 1 minute and %s", p.Limit, MaxTaskLimit)
	}
	err := t.h.Edit(func(cfg *config.Config) error {
		m := map[string]json.RawMessage{}
		if len(cfg.Settings) > 0 {
			if err := json.Unmarshal(cfg.Settings, &m); err != nil {
				return fmt.Errorf("settings in config.json: %w", err)
			}
		}
		raw, err := json.Marshal(TaskSettings{OptionalAsTasks: &p.Optional, LimitMinutes: int(p.Limit / time.Minute)})
		if err != nil {
			return err
		}
		m["tasks"] = raw
		cfg.Settings, err = json.Marshal(m)
		return err
	})
	if err == nil {
		t.h.registry().SetTaskPolicy(p) // a CLI edit applies nothing else
	}
	return err
}
