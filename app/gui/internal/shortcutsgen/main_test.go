package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/gui"
)

// genFile is the generated file, from this package's directory.
var genFile = filepath.Join("..", "..", "..", "..", "frontend", "src", "shortcuts.gen.ts")

func TestGeneratedFileIsCurrent(t *testing.T) {
	want := render(gui.Pages, gui.Shortcuts())
	got, err := os.ReadFile(genFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is stale: run 'go generate ./app/gui'\nwant:\n%s", genFile, want)
	}
}

func TestRender(t *testing.T) {
	got := string(render([]gui.Page{{ID: "chat", Title: "Chat"}}, []gui.Shortcut{{ID: "page:chat", Label: "Chat", Keys: "CmdOrCtrl+1", Menu: "Go"}}))
	for _, want := range []string{
		`{ id: "chat", title: "Chat" },`,
		`{ id: "page:chat", label: "Chat", keys: "CmdOrCtrl+1", menu: "Go" },`,
		"] as const;",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("render lacks %q:\n%s", want, got)
		}
	}
}
