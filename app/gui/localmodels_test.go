package gui

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/datadir"
	"github.com/switchboard-app/switchboard/app/host"
	"github.com/switchboard-app/switchboard/app/localmodel"
	"github.com/switchboard-app/switchboard/app/localmodel/gguf"
	"github.com/switchboard-app/switchboard/app/localmodel/testmodel"
	"github.com/switchboard-app/switchboard/builtin/mcptest"
)

// From the welcome page: the catalog is listed with nothing downloaded;
// a download reports progress and ends "ready" as events, and the
// provider "On this computer" is then the default.
func TestDownloadLocalModelThroughTheWindow(t *testing.T) {
	var b bytes.Buffer
	f := &gguf.File{}
	f.Set("general.name", gguf.TypeString, "tiny")
	if err := testmodel.Encode(&b, f); err != nil {
		t.Fatal(err)
	}
	content := append(b.Bytes(), make([]byte, 3<<20)...)
	sum := sha256.Sum256(content)
	e := localmodel.Entry{Name: "tiny", Title: "Tiny", File: "Tiny.gguf", Size: int64(len(content)), SHA256: hex.EncodeToString(sum[:]),
		Licence: "MIT", GoodFor: "tests", RAM: 1 << 30, Default: true}
	cat, _ := json.Marshal([]localmodel.Entry{e})
	catPath := filepath.Join(t.TempDir(), "catalog.json")
	os.WriteFile(catPath, cat, 0o644)
	t.Setenv(localmodel.CatalogEnv, catPath)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.ServeContent(w, r, e.File, time.Time{}, bytes.NewReader(content))
	}))
	defer ts.Close()

	a, evs := welcomeApp(t)
	var mu sync.Mutex
	a.emitHook = func(name string, data any) { // welcomeApp's hook, under a lock of our own
		mu.Lock()
		defer mu.Unlock()
		*evs = append(*evs, recorded{name, data})
	}
	v, err := a.SettingsPage.LocalModels()
	if err != nil || len(v.Models) != 1 || v.Models[0].Installed || v.Models[0].RAM != 1<<30 || !v.Models[0].Default {
		t.Fatalf("LocalModels = %+v, %v", v, err)
	}
	if err := a.SettingsPage.SetModelDownloadURL(ts.URL); err != nil {
		t.Fatal(err)
	}
	if err := a.SettingsPage.DownloadLocalModel("nope"); err == nil || !strings.Contains(err.Error(), "not a model of the catalog") {
		t.Errorf("DownloadLocalModel(nope) = %v", err)
	}
	if err := a.SettingsPage.DownloadLocalModel("tiny"); err != nil {
		t.Fatal(err)
	}
	var downloads []ModelDownload
	mcptest.Until(t, "the download's end", func() bool {
		mu.Lock()
		defer mu.Unlock()
		downloads = nil
		for _, r := range *evs {
			if r.name == EventModelDownload {
				downloads = append(downloads, r.data.(ModelDownload))
			}
		}
		return len(downloads) > 0 && downloads[len(downloads)-1].State != DownloadRunning
	})
	end := downloads[len(downloads)-1]
	if end.State != DownloadReady || end.Done != e.Size || end.Total != e.Size {
		t.Fatalf("last event %+v, want ready with %d bytes", end, e.Size)
	}
	for i := 1; i < len(downloads); i++ {
		if downloads[i].Seq <= downloads[i-1].Seq {
			t.Errorf("event %d: seq %d after %d: the window could not order them", i, downloads[i].Seq, downloads[i-1].Seq)
		}
	}
	if downloads[0].State != DownloadRunning || downloads[0].Total != e.Size {
		t.Errorf("events %+v: want progress events first", downloads)
	}
	v, _ = a.SettingsPage.LocalModels()
	if !v.Models[0].Installed || v.DownloadURL != ts.URL {
		t.Errorf("after the download: %+v", v)
	}
	cs, _ := a.h.Settings.Chat()
	if p, err := cs.Provider(""); err != nil || p.Name != host.LocalProviderName || p.Kind != chat.KindLocal || p.DefaultModel != "tiny" {
		t.Errorf("default provider %+v, %v", p, err)
	}

	// A chosen file is listed beside the catalog, and Remove forgets it.
	mine := filepath.Join(t.TempDir(), "Mine.gguf")
	os.WriteFile(mine, b.Bytes(), 0o644)
	if mv, err := a.SettingsPage.AddLocalModelFile(mine); err != nil || mv.Name != "Mine" || !mv.Chosen {
		t.Fatalf("AddLocalModelFile = %+v, %v", mv, err)
	}
	if v, _ = a.SettingsPage.LocalModels(); len(v.Models) != 2 || v.Models[1].Name != "Mine" || v.Models[1].File != "Mine.gguf" {
		t.Errorf("LocalModels with a chosen file = %+v", v.Models)
	}
	if err := a.SettingsPage.RemoveLocalModel("Mine"); err != nil {
		t.Fatal(err)
	}
	if v, _ = a.SettingsPage.LocalModels(); len(v.Models) != 1 {
		t.Errorf("after Remove: %+v", v.Models)
	}
}

// Progress events go out when the whole percent moves or progressEvery
// passed, not for every 256 KiB that arrives.
func TestProgressGate(t *testing.T) {
	t0 := time.Unix(1000, 0)
	g := progressGate{pct: -1}
	for i, step := range []struct {
		done, total int64
		at          time.Duration
		want        bool
	}{
		{0, 1000, 0, true},                                   // the first one
		{5, 1000, time.Millisecond, false},                   // 0% still, just after
		{10, 1000, 2 * time.Millisecond, true},               // 1%
		{15, 1000, 3 * time.Millisecond, false},              // 1% still
		{19, 1000, progressEvery + 3*time.Millisecond, true}, // 1%, but a while later
		{1000, 1000, progressEvery + 4*time.Millisecond, true},
		{1000, 0, progressEvery + 5*time.Millisecond, true}, // total unknown: 0%, moved back
	} {
		if got := g.due(step.done, step.total, t0.Add(step.at)); got != step.want {
			t.Errorf("step %d (%d of %d at %v): due = %v, want %v", i, step.done, step.total, step.at, got, step.want)
		}
	}
}

// Choosing a GGUF file and the download URL are one use case behind both
// front doors: the same steps give byte-identical config.json, and each
// door lists what the other did.
func TestLocalModelFrontDoorsAgree(t *testing.T) {
	var b bytes.Buffer
	f := &gguf.File{}
	f.Set("general.name", gguf.TypeString, "mine")
	if err := testmodel.Encode(&b, f); err != nil {
		t.Fatal(err)
	}
	model := filepath.Join(t.TempDir(), "Mine-Q4.gguf")
	os.WriteFile(model, b.Bytes(), 0o644)
	mirror := t.TempDir()

	a, wdir := window(t)
	if _, err := a.SettingsPage.AddLocalModelFile(model); err != nil {
		t.Fatal(err)
	}
	if err := a.SettingsPage.SetModelDownloadURL(mirror); err != nil {
		t.Fatal(err)
	}
	cdir := datadir.Dir(t.TempDir())
	terminal(t, cdir, "", "models", "add", model)
	terminal(t, cdir, "", "models", "url", mirror)
	w, _ := os.ReadFile(wdir.Config())
	c, _ := os.ReadFile(cdir.Config())
	if !bytes.Equal(sameIDs(w), sameIDs(c)) {
		t.Fatalf("config.json differs:\nwindow:\n%s\ncli:\n%s", w, c)
	}
	if out := terminal(t, wdir, "", "models", "list", "--json"); !strings.Contains(out, `"path": "`+model+`"`) {
		t.Errorf("the CLI does not list the file the window chose:\n%s", out)
	}
	terminal(t, wdir, "", "models", "remove", "Mine-Q4")
	if v, err := a.SettingsPage.LocalModels(); err != nil || slices.ContainsFunc(v.Models, func(m LocalModelView) bool { return m.Chosen }) {
		t.Errorf("the window still lists the file the CLI removed: %+v, %v", v.Models, err)
	}
}
