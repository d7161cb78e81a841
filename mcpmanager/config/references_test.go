package config_test

import (
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

func TestReference(t *testing.T) {
	for in, want := range map[string]string{
		"Bearer ${secret:OTHER}":    "${secret:OTHER}",
		"${env:HOME}/x ${secret:A}": "${env:HOME}",
		"${HOME} ${user_config.k}":  "", // a bundle's own placeholders are not expanded at start
		"$ {secret:A} {env:B}":      "",
		"${secret:}":                "",
	} {
		if got := config.Reference(in); got != want {
			t.Errorf("Reference(%q) = %q, want %q", in, got, want)
		}
	}
}

// A user's value hidden while a document's text is checked comes back
// whole; text that only looks like a stand-in is left as it is.
func TestOpaque(t *testing.T) {
	o := config.NewOpaque()
	a, b := o.Hide("${secret:mine}"), o.Hide("plain")
	if config.Reference(a) != "" || strings.Contains(a, "mine") || o.Hide("") != "" {
		t.Fatalf("stand-in %q shows the value", a)
	}
	s := config.Server{URL: "https://x/" + b, Args: []string{"--k=" + a}, Env: map[string]string{"K": a + b}, Headers: map[string]string{"H": "\x000-0\x00"}}
	o.RevealServer(&s)
	if s.URL != "https://x/plain" || s.Args[0] != "--k=${secret:mine}" || s.Env["K"] != "${secret:mine}plain" || s.Headers["H"] != "\x000-0\x00" {
		t.Fatalf("revealed %+v", s)
	}
}
