package host

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// An app's ui/download-file: embedded files come with safe names, a linked
// one is read from the app's own server (never the web), and the file the
// user saves is written whole where the dialog said (SaveDownload).
func TestAppsDownload(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "extapp")
	if out, err := exec.CommandContext(t.Context(), "go", "build", "-o", bin, "../../mcpmanager/apps/testdata/extapp").CombinedOutput(); err != nil {
		t.Fatalf("build extapp: %v\n%s", err, out)
	}
	h := open(t)
	if err := h.Servers.Add(config.Server{Name: "ext", Transport: config.Stdio, Command: bin}); err != nil {
		t.Fatal(err)
	}
	if err := h.Servers.Load(); err != nil {
		t.Fatal(err)
	}
	a := h.Apps
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	for {
		if _, ui, err := a.Tool(ctx, "ext__show"); err == nil && ui.ResourceURI != "" {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatal("ext__show never listed")
		case <-time.After(100 * time.Millisecond):
		}
	}

	contents := []byte(`[
		{"type":"resource","resource":{"uri":"file:///../../.Q4 report:final.csv","mimeType":"text/csv","text":"a,b\n"}},
		{"type":"resource_link","uri":"test://extapp/report.csv","name":"Linked report","mimeType":"text/csv"}
	]`)
	files, err := a.Download(ctx, "ext", contents)
	if err != nil {
		t.Fatal(err)
	}
	if files[0].Name != "Q4 reportfinal.csv" || string(files[0].Data) != "a,b\n" {
		t.Errorf("embedded: %q %q", files[0].Name, files[0].Data)
	}
	if files[1].Name != "Linked report.csv" || string(files[1].Data) != "quarter,total\nQ4,42\n" {
		t.Errorf("linked: %q %q", files[1].Name, files[1].Data)
	}

	dir := t.TempDir()
	p := filepath.Join(dir, files[1].Name)
	if err := a.SaveDownload(files[1], p); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(p); err != nil || string(b) != "quarter,total\nQ4,42\n" {
		t.Errorf("saved %q, %v", b, err)
	}

	for _, tc := range []struct{ name, contents, want string }{
		{"web link", `[{"type":"resource_link","uri":"https://example.com/q4.pdf","name":"Q4"}]`, "saves only files the app embeds"},
		{"unknown resource", `[{"type":"resource_link","uri":"test://extapp/nope.csv","name":"nope"}]`, "could not be read from ext"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := a.Download(ctx, "ext", []byte(tc.contents)); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
}
