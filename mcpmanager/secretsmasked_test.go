package mcpmanager

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// maskWords is a router.Redactor that knows some words of what
// modernserver says, standing for keyring values it was started with.
type maskWords []string

func (w maskWords) Redact(s string) string {
	for _, v := range w {
		s = strings.ReplaceAll(s, v, "••••"+v[len(v)-4:])
	}
	return s
}

func (w maskWords) InJSON(raw []byte) bool {
	for _, v := range w {
		if bytes.Contains(raw, []byte(v)) {
			return true
		}
	}
	return false
}

func (maskWords) Empty() bool { return false }

// TestSecretsMaskedInQuestionsTasksAndSkills: a 2026-07-28 server over
// stdio (modernserver) says a secret in a task's status message ("Gathering
// the figures"), in the question its task asks ("Include the appendix …?",
// an input request the supervisor answers through the manager's handler)
// and in a skill (haiku's description and SKILL.md, "syllables"): each
// reaches OnTask, the handler and the skills catalog masked.
func TestSecretsMaskedInQuestionsTasksAndSkills(t *testing.T) {
	words := maskWords{"figures", "appendix", "syllables"}
	m := New(Options{Redact: words})
	u := &formUser{}
	m.SetRequestHandler(u)
	m.Apply([]ServerConfig{{Name: "modern", Command: proctest.ModernServer(t)}})
	t.Cleanup(func() { m.Close(context.Background()) })
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	m.WaitSettled(ctx)

	var mu sync.Mutex
	var statuses []router.TaskUpdate
	if _, err := m.Router().Call(ctx, "modern", "prepare_report", nil, router.CallOptions{OnTask: func(u router.TaskUpdate) {
		mu.Lock()
		defer mu.Unlock()
		statuses = append(statuses, u)
	}}); err != nil {
		t.Fatal(err)
	}
	sk, err := m.Skills().Find(ctx, "modern", "haiku")
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := m.Skills().Load(ctx, sk)
	if err != nil {
		t.Fatalf("Load: %v; want the masked SKILL.md verified", err)
	}
	mu.Lock()
	u.mu.Lock()
	seen := map[string]any{"the task's statuses": statuses, "the question": u.asked, "the skill's entry": sk, "the skill": loaded.Text}
	u.mu.Unlock()
	mu.Unlock()
	for door, v := range seen {
		b, _ := json.Marshal(v)
		if strings.Contains(string(b), "figures") || strings.Contains(string(b), "appendix") || strings.Contains(string(b), "syllables") || !strings.Contains(string(b), "••••") {
			t.Errorf("%s: %s; want the secrets masked", door, b)
		}
	}
}
