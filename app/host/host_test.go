package host

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/datadir"
	"github.com/switchboard-app/switchboard/app/secrets/secretstest"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// TestMain keeps every test of this package away from the user's keyring.
func TestMain(m *testing.M) {
	secretstest.UseMockKeyring()
	os.Exit(m.Run())
}

func open(t *testing.T) *Host {
	t.Helper()
	dir := datadir.Dir(t.TempDir())
	if err := dir.Ensure(); err != nil {
		t.Fatal(err)
	}
	h := Open(Options{Dir: dir})
	t.Cleanup(func() { h.Close(context.Background()) })
	return h
}

func TestSpecsResolveSecretsAtStart(t *testing.T) {
	h := open(t)
	if err := h.Secrets.Set("gh_GH_TOKEN", "ghp_secretvalue0001"); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SB_TEST_REGION", "eu-west-1")
	specs := h.Servers.Specs([]config.Server{
		{Name: "gh", Transport: config.Stdio, Command: "x", Env: map[string]string{"GH_TOKEN": "${secret:gh_GH_TOKEN}", "REGION": "${env:SB_TEST_REGION}"}},
		{Name: "missing", Transport: config.Stdio, Command: "x", Env: map[string]string{"K": "${secret:nope}"}},
		{Name: "remote", Transport: config.HTTP, URL: "https://${secret:nope}.example.com/mcp"},
	})
	if specs[0].Env["GH_TOKEN"] != "ghp_secretvalue0001" || specs[0].Env["REGION"] != "eu-west-1" || specs[0].StartError != "" {
		t.Fatalf("resolved = %+v", specs[0])
	}
	for _, s := range specs[1:] {
		if !strings.Contains(s.StartError, `secret "nope": secret not found in the keyring`) || !strings.Contains(s.StartError, "Settings → Secrets") {
			t.Fatalf("%s: missing secret error = %q", s.Name, s.StartError)
		}
	}
	if got := h.Redact("auth failed for ghp_secretvalue0001!"); got != "auth failed for ••••0001!" {
		t.Fatalf("Redact = %q", got)
	}
}

func TestTurnSetupMergesTheAgent(t *testing.T) {
	s := chatSettings(t, `{"chat":{"system":"base","maxSteps":5,"policies":{"a__*":"allow"},
		"agents":[{"id":"ag1","name":"Reviewer","system":"review","servers":["b"],"policies":{"b__*":"deny"},"delegate":true}]}}`)
	plain := TurnSetup(s, nil, "", nil)
	if plain.System != "base" || plain.MaxSteps != 5 || plain.Policies["a__*"] != "allow" || plain.Delegate {
		t.Fatalf("without agent: %+v", plain)
	}
	ag, err := s.Agent("ag1")
	if err != nil {
		t.Fatal(err)
	}
	withAgent := TurnSetup(s, &ag, "", nil)
	if withAgent.System != "review" || !withAgent.Delegate || withAgent.Policies["b__*"] != "deny" || withAgent.Policies["a__*"] != "allow" {
		t.Fatalf("with agent: %+v", withAgent)
	}
	if given := TurnSetup(s, &ag, "flag", nil); given.System != "flag" {
		t.Fatalf("a given system prompt wins: %q", given.System)
	}
}

func TestTitle(t *testing.T) {
	tests := []struct{ in, want string }{
		{"  hello\nsecond line", "hello"},
		{strings.Repeat("é", 61), strings.Repeat("é", 60) + "…"},
		{strings.Repeat("a", 60), strings.Repeat("a", 60)},
	}
	for _, tt := range tests {
		if got := Title(tt.in); got != tt.want {
			t.Errorf("Title(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func chatSettings(t *testing.T, raw string) chat.Settings {
	t.Helper()
	s, err := chat.LoadSettings(json.RawMessage(raw))
	if err != nil {
		t.Fatal(err)
	}
	return s
}
