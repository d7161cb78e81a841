package host

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/registry"
)

// A malformed settings section is reported with its JSON path by the use
// case that reads it (it used to be ignored: the defaults ran silently),
// and saving the section rewrites it.
func TestMalformedSettingsSectionsAreReported(t *testing.T) {
	h := open(t)
	bad := `{"mcpServers": {}, "settings": {
		"tasks": {"limitMinutes": "ten"},
		"servers": {"downloadTimeoutSeconds": "slow"},
		"chat": {"maxSteps": "many"},
		"library": {"profile": 7},
		"secrets": "gh_TOKEN"
	}}`
	if err := os.WriteFile(h.Dir().Config(), []byte(bad), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		read func() error
		path string
	}{
		{"tasks", func() error { _, err := h.Tasks.Policy(); return err }, "settings.tasks.limitMinutes"},
		{"downloads", func() error { _, err := h.Downloads.Timeout(); return err }, "settings.servers.downloadTimeoutSeconds"},
		{"chat", func() error { _, err := h.Settings.Chat(); return err }, "settings.chat.maxSteps"},
		{"profiles", func() error { _, _, err := h.Library.Profiles(); return err }, "settings.library.profile"},
		{"secrets index", func() error { return h.Secrets.Set("x", "y") }, "settings.secrets"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.read()
			var ve *config.ValidationError
			if !errors.As(err, &ve) || !errors.Is(err, config.ErrSettings) || ve.Problems[0].Path != tt.path {
				t.Fatalf("err = %v, want a problem at %s", err, tt.path)
			}
			if !strings.Contains(err.Error(), "fix or remove it") {
				t.Errorf("err = %q: it should say what to do", err)
			}
		})
	}
	// Saving a section from Settings replaces the malformed one.
	if err := h.Tasks.SetPolicy(registry.TaskPolicy{Optional: true, Limit: time.Hour}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Tasks.Policy(); err != nil {
		t.Errorf("after saving: %v", err)
	}
}
