package config_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

type limits struct {
	Minutes int      `json:"minutes,omitempty"`
	Tags    []string `json:"tags,omitempty"`
	Deep    struct {
		On bool `json:"on"`
	} `json:"deep"`
}

var limitsSection = config.Section[limits]{Key: "limits"}

func TestSectionReportsTheMalformedValueByPath(t *testing.T) {
	tests := []struct {
		name, settings, path, msg string
	}{
		{"number as string", `{"limits": {"minutes": "ten"}}`, "settings.limits.minutes", "want a number, got a JSON string"},
		{"list as string", `{"limits": {"tags": "a,b"}}`, "settings.limits.tags", "want a list, got a JSON string"},
		{"nested", `{"limits": {"deep": {"on": 1}}}`, "settings.limits.deep.on", "want true or false, got a JSON number"},
		{"section not an object", `{"limits": [1]}`, "settings.limits", "want an object, got a JSON array"},
		{"settings not an object", `[]`, "settings", "want an object of sections"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := &config.Config{Settings: json.RawMessage(tt.settings)}
			_, err := limitsSection.Get(cfg)
			var ve *config.ValidationError
			if !errors.As(err, &ve) || !errors.Is(err, config.ErrSettings) {
				t.Fatalf("Get = %v, want a *ValidationError wrapping ErrSettings", err)
			}
			if p := ve.Problems[0]; p.Path != tt.path || !strings.Contains(p.Message, tt.msg) {
				t.Errorf("problem %q: %q, want %q: …%q…", p.Path, p.Message, tt.path, tt.msg)
			}
			before := string(cfg.Settings)
			if err := limitsSection.Edit(cfg, func(l *limits) error { l.Minutes = 3; return nil }); err == nil || string(cfg.Settings) != before {
				t.Errorf("Edit over a malformed section: err %v, settings %s (want the error and nothing changed)", err, cfg.Settings)
			}
		})
	}
}

func TestSectionKeepsTheOtherSections(t *testing.T) {
	cfg := &config.Config{Settings: json.RawMessage(`{"chat": {"maxSteps": 3, "x": [1, 2]}, "limits": {"minutes": 1}}`)}
	if err := limitsSection.Edit(cfg, func(l *limits) error { l.Minutes++; return nil }); err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(cfg.Settings, &m); err != nil {
		t.Fatal(err)
	}
	if string(m["chat"]) != `{"maxSteps":3,"x":[1,2]}` && string(m["chat"]) != `{"maxSteps": 3, "x": [1, 2]}` {
		t.Errorf("chat section changed: %s", m["chat"])
	}
	got, err := limitsSection.Get(cfg)
	if err != nil || got.Minutes != 2 {
		t.Errorf("Get = %+v, %v; want minutes 2", got, err)
	}
	if v, err := limitsSection.Get(&config.Config{}); err != nil || v.Minutes != 0 {
		t.Errorf("absent section: %+v, %v; want the zero value", v, err)
	}
}

// A package that keeps settings declares its section once and reads and
// writes it only through it.
func ExampleSection() {
	type workspaceSettings struct {
		Root string `json:"root,omitempty"`
	}
	workspace := config.Section[workspaceSettings]{Key: "workspace"}

	cfg := &config.Config{Settings: json.RawMessage(`{"chat": {"maxSteps": 3}}`)}
	_ = workspace.Edit(cfg, func(w *workspaceSettings) error { w.Root = "/home/me/projects"; return nil })
	w, _ := workspace.Get(cfg)
	fmt.Println(w.Root)
	fmt.Println(string(cfg.Settings))

	cfg.Settings = json.RawMessage(`{"workspace": {"root": 42}}`)
	_, err := workspace.Get(cfg)
	fmt.Println(err)
	// Output:
	// /home/me/projects
	// {"chat":{"maxSteps":3},"workspace":{"root":"/home/me/projects"}}
	// settings.workspace.root: want a string, got a JSON number; fix or remove it in config.json (Settings rewrites it when saved)
}
