package host

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/mcpmanager/apps"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
)

// extApp runs the testserver's extapp as server "ext" on a new host and
// returns the host's MCPApps, started, and the ui:// resource ext__show names.
func extApp(t *testing.T) (*MCPApps, string) {
	t.Helper()
	h := open(t)
	if err := h.Servers.Add(config.Server{Name: "ext", Transport: config.Stdio, Command: proctest.Server(t, "extapp")}); err != nil {
		t.Fatal(err)
	}
	if err := h.Servers.Load(); err != nil {
		t.Fatal(err)
	}
	if err := h.MCPApps.Start(); err != nil {
		t.Fatal(err)
	}
	var uri string
	mcptest.UntilNil(t, "ext__show with its app", func() error {
		_, ui, err := h.MCPApps.Tool(t.Context(), "ext__show")
		uri = ui.ResourceURI
		if err == nil && uri == "" {
			err = errors.New("no ui:// resource")
		}
		return err
	})
	return h.MCPApps, uri
}

// An app's ui/download-file: embedded files come with safe names, a linked
// one is read from the app's own server (never the web), and the file the
// user saves is written whole where the dialog said (SaveDownload).
func TestAppsDownload(t *testing.T) {
	a, uri := extApp(t)
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()

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

	o, err := a.Open(ctx, "ext", uri)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	p := filepath.Join(dir, files[1].Name)
	if err := a.SaveDownload(o.Session, files[1], p); err != nil {
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

// An app's downloads are bounded per request (files, bytes, linked files
// counted as they are read) and per app session: a session that has saved
// apps.MaxSessionFiles files is refused more, before the user is asked
// (Offer) and at the save; opening the app again starts a new session; a
// session the host does not know is refused.
func TestAppsDownloadLimits(t *testing.T) {
	files, bytes := apps.MaxSessionFiles, apps.MaxSaveBytes
	apps.MaxSessionFiles, apps.MaxSaveBytes = 3, 30
	t.Cleanup(func() { apps.MaxSessionFiles, apps.MaxSaveBytes = files, bytes })
	a, uri := extApp(t)
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	// The linked file is 20 bytes: with 11 embedded ones it passes 30.
	if _, err := a.Download(ctx, "ext", []byte(`[{"type":"resource","resource":{"uri":"file:///a.txt","text":"0123456789a"}},
		{"type":"resource_link","uri":"test://extapp/report.csv","name":"Linked report","mimeType":"text/csv"}]`)); !errors.Is(err, apps.ErrSaveLimit) {
		t.Fatalf("a linked file past the request's bytes: %v, want ErrDownloadLimit", err)
	}

	o, err := a.Open(ctx, "ext", uri)
	if err != nil {
		t.Fatal(err)
	}
	two, err := a.Download(ctx, "ext", []byte(`[{"type":"resource","resource":{"uri":"file:///a.txt","text":"a"}},{"type":"resource","resource":{"uri":"file:///b.txt","text":"b"}}]`))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := a.Offer(o.Session, two); err != nil {
		t.Fatal(err)
	}
	for i, f := range two {
		if err := a.SaveDownload(o.Session, f, filepath.Join(dir, f.Name)); err != nil {
			t.Fatalf("file %d: %v", i+1, err)
		}
	}
	if err := a.Offer(o.Session, two); !errors.Is(err, apps.ErrSaveLimit) {
		t.Fatalf("two more files in a session with one left: %v, want ErrDownloadLimit", err)
	}
	if err := a.SaveDownload(o.Session, two[0], filepath.Join(dir, "c.txt")); err != nil {
		t.Fatal(err)
	}
	if err := a.SaveDownload(o.Session, two[1], filepath.Join(dir, "d.txt")); !errors.Is(err, apps.ErrSaveLimit) {
		t.Fatalf("file 4 of a session: %v, want ErrDownloadLimit", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "d.txt")); !os.IsNotExist(err) {
		t.Fatalf("the refused file was written: %v", err)
	}
	again, err := a.Open(ctx, "ext", uri)
	if err != nil || again.Session == o.Session {
		t.Fatalf("opened again: %q (was %q), %v", again.Session, o.Session, err)
	}
	if err := a.Offer(again.Session, two); err != nil {
		t.Fatalf("a new session: %v", err)
	}
	if err := a.Offer("forged", two); !errors.Is(err, ErrAppClosed) {
		t.Fatalf("an unknown session: %v, want ErrAppClosed", err)
	}
}
