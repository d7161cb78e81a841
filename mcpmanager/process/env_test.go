package process

import (
	"slices"
	"testing"
)

func TestKeepAndDropEnv(t *testing.T) {
	env := []string{"PATH=/bin", "LC_ALL=C", "LANG=C", "SWITCHBOARD_SERVE_TOKEN=t", "OPENAI_API_KEY=k", "PATHX=y", "EMPTY="}
	patterns := []string{"PATH", "LC_*", "SWITCHBOARD_*", "EMPTY"}
	if got, want := KeepEnv(env, patterns), []string{"PATH=/bin", "LC_ALL=C", "SWITCHBOARD_SERVE_TOKEN=t", "EMPTY="}; !slices.Equal(got, want) {
		t.Errorf("KeepEnv = %q, want %q", got, want)
	}
	if got, want := DropEnv(env, patterns), []string{"LANG=C", "OPENAI_API_KEY=k", "PATHX=y"}; !slices.Equal(got, want) {
		t.Errorf("DropEnv = %q, want %q", got, want)
	}
}
