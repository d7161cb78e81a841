package mcpmanager

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// TestCompletionsOfTheRealEverythingServer: server-everything completes its
// completable-prompt's arguments, the second narrowed by the first, and
// its resource templates' resourceId.
func TestCompletionsOfTheRealEverythingServer(t *testing.T) {
	m := New(Options{LogDir: t.TempDir()})
	t.Cleanup(func() { m.Close(context.Background()) })
	m.Apply([]ServerConfig{{Name: "everything", Command: proctest.NPM(t, "mcp-server-everything")}})
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	m.WaitSettled(ctx)
	tests := []struct {
		name string
		c    router.Completion
		want []string
	}{
		{"prompt argument", router.Completion{Prompt: "completable-prompt", Argument: "department", Value: "S"}, []string{"Sales", "Support"}},
		{"narrowed by another", router.Completion{Prompt: "completable-prompt", Argument: "name", Value: "", Given: map[string]string{"department": "Engineering"}}, []string{"Alice", "Bob", "Charlie"}},
		{"nothing matches", router.Completion{Prompt: "completable-prompt", Argument: "department", Value: "Zz"}, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := m.Router().Complete(ctx, "everything", tt.c)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.want) {
				t.Fatalf("Complete = %q, want %q", got, tt.want)
			}
		})
	}
	templates, err := m.Router().ServerResourceTemplates(ctx, "everything")
	if err != nil || len(templates) == 0 {
		t.Fatalf("templates: %v, %v", templates, err)
	}
	got, err := m.Router().Complete(ctx, "everything", router.Completion{Template: templates[0].URITemplate.Raw(), Argument: "resourceId", Value: "1"})
	if err != nil || len(got) == 0 {
		t.Fatalf("template %s: Complete = %q, %v", templates[0].URITemplate.Raw(), got, err)
	}
}
