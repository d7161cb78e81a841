package buildinfo

import (
	"os"
	"strings"
	"testing"
)

// The packages' copyright file names every component of the runtime that
// About lists, with the same copyright line, so the two cannot drift.
func TestRuntimeNoticesAreInTheCopyrightFile(t *testing.T) {
	b, err := os.ReadFile("../../build/linux/copyright")
	if err != nil {
		t.Fatal(err)
	}
	copyright := string(b)
	if !strings.Contains(copyright, "Files: usr/lib/switchboard/llama-server") {
		t.Fatal("build/linux/copyright has no stanza for usr/lib/switchboard/llama-server")
	}
	names := map[string]bool{}
	for _, n := range Runtime {
		if n.Name == "" || n.Licence == "" || n.Copyright == "" || !strings.HasPrefix(n.URL, "https://") {
			t.Errorf("incomplete notice %+v", n)
		}
		if names[n.Name] {
			t.Errorf("%s is listed twice", n.Name)
		}
		names[n.Name] = true
		// The copyright file names a component without About's
		// parenthesis ("ggml (part of llama.cpp)" is "ggml" there).
		short, _, _ := strings.Cut(n.Name, " (part of")
		if !strings.Contains(copyright, n.Copyright+" (") || !strings.Contains(copyright, short) {
			t.Errorf("build/linux/copyright lacks %s's line %q", short, n.Copyright)
		}
	}
	for _, want := range []string{"llama.cpp", "ggml (part of llama.cpp)"} {
		if !names[want] {
			t.Errorf("About does not list %s", want)
		}
	}
}
