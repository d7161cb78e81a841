package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/switchboard-app/switchboard/app/host"
)

// EventModelDownload carries a ModelDownload: how a model's download goes.
// It is sent when the percent done moves (or progressEvery passed) while
// bytes arrive, and once when the download ends.
const EventModelDownload = "models:download"

// progressEvery is the longest wait between progress events while bytes
// arrive (a download reports every 256 KiB).
const progressEvery = 250 * time.Millisecond

// Download states a ModelDownload reports.
const (
	DownloadRunning   = "downloading"
	DownloadReady     = "ready"
	DownloadFailed    = "failed"
	DownloadCancelled = "cancelled"
)

// ModelDownload is one step of a model's download.
type ModelDownload struct {
	Name  string `json:"name"`
	Done  int64  `json:"done"`
	Total int64  `json:"total"`
	// State is downloading, ready, failed or cancelled.
	State string `json:"state"`
	// Error says what went wrong and what to do (failed only).
	Error string `json:"error"`
	// Seq orders the events: Wails may deliver them out of order, so the
	// window drops one older than what it shows.
	Seq int64 `json:"seq"`
}

// LocalModelView is a model that runs on this computer: one of the
// catalog (with its facts and how much of it is here) or a GGUF file the
// user chose (Chosen).
type LocalModelView struct {
	Name    string `json:"name"`
	Title   string `json:"title"`
	File    string `json:"file"`
	Size    int64  `json:"size"` // bytes
	RAM     int64  `json:"ram"`  // bytes it needs at the default context (0: unknown)
	Licence string `json:"licence"`
	GoodFor string `json:"goodFor"`
	Default bool   `json:"default"`
	Chosen  bool   `json:"chosen"`
	// Installed: the file is here and verified (or chosen).
	Installed   bool   `json:"installed"`
	Path        string `json:"path"`
	Partial     int64  `json:"partial"` // bytes of an unfinished download
	Downloading bool   `json:"downloading"`
}

// LocalModelsView is the section "Download a model to run on this
// computer" of the welcome page and Settings → Providers.
type LocalModelsView struct {
	Models []LocalModelView `json:"models"`
	// DownloadURL is the download URL setting ("": each model's own URL).
	DownloadURL string `json:"downloadUrl"`
}

// LocalModels is the catalog, the chosen files and the download URL.
func (p *SettingsPage) LocalModels() (LocalModelsView, error) {
	v := LocalModelsView{Models: []LocalModelView{}}
	list, err := p.h.Models.List()
	if err != nil {
		return v, err
	}
	for _, c := range list {
		v.Models = append(v.Models, modelView(c))
	}
	v.DownloadURL, err = p.h.Models.DownloadURL()
	return v, err
}

// modelView is a model of the catalog, or a chosen file, as the window shows it.
func modelView(c host.CatalogModel) LocalModelView {
	return LocalModelView{Name: c.Name, Title: c.Title, File: c.File, Size: c.Size, RAM: c.RAM,
		Licence: c.Licence, GoodFor: c.GoodFor, Default: c.Default, Chosen: c.Chosen, Installed: c.Installed, Path: c.Path,
		Partial: c.Partial, Downloading: c.Downloading}
}

// DownloadLocalModel starts downloading a catalog model and returns at
// once; EventModelDownload reports its progress and its end. When it ends
// ready, the provider "On this computer" exists.
func (p *SettingsPage) DownloadLocalModel(name string) error {
	cat, err := p.h.Models.Catalog()
	if err != nil {
		return err
	}
	for _, c := range cat {
		if strings.EqualFold(c.Name, name) {
			if c.Downloading {
				return fmt.Errorf("%s %w", c.Title, host.ErrDownloadRunning)
			}
			go p.download(p.life, c.Name)
			return nil
		}
	}
	return fmt.Errorf("%q %w", name, host.ErrNotInCatalog)
}

// progressGate spaces progress events: one when the whole percent moves
// or progressEvery passed, so a bar moves smoothly without an event per
// 256 KiB.
type progressGate struct {
	pct int64 // the percent last sent (-1: none yet)
	at  time.Time
}

func (g *progressGate) due(done, total int64, now time.Time) bool {
	pct := int64(0)
	if total > 0 {
		pct = done * 100 / total
	}
	if pct == g.pct && now.Sub(g.at) < progressEvery {
		return false
	}
	g.pct, g.at = pct, now
	return true
}

// download runs one download, sending its progress as events (spaced by
// progressGate) and its end.
func (c *core) download(ctx context.Context, name string) {
	var mu sync.Mutex
	gate := progressGate{pct: -1}
	err := c.h.Models.Download(ctx, name, func(done, total int64) {
		mu.Lock()
		defer mu.Unlock()
		if gate.due(done, total, time.Now()) {
			c.emitEvent(EventModelDownload, ModelDownload{Name: name, Done: done, Total: total, State: DownloadRunning, Seq: c.seq.Add(1)})
		}
	})
	ev := ModelDownload{Name: name, State: DownloadReady}
	switch {
	case errors.Is(err, context.Canceled):
		ev.State = DownloadCancelled
	case err != nil:
		ev.State, ev.Error = DownloadFailed, err.Error()
	}
	if cat, cerr := c.h.Models.Catalog(); cerr == nil {
		for _, m := range cat {
			if strings.EqualFold(m.Name, name) {
				ev.Total = m.Size
				ev.Done = m.Partial
				if m.Installed {
					ev.Done = m.Size
				}
			}
		}
	}
	ev.Seq = c.seq.Add(1)
	c.emitEvent(EventModelDownload, ev)
	if err == nil {
		c.emitEvent(EventConfigChanged, nil) // the provider "On this computer" may be new
	}
}

// CancelLocalModelDownload stops a download, keeping what arrived so the
// next download resumes it.
func (p *SettingsPage) CancelLocalModelDownload(name string) { p.h.Models.Cancel(name) }

// DiscardLocalModelDownload stops a download and deletes what arrived.
func (p *SettingsPage) DiscardLocalModelDownload(name string) error { return p.h.Models.Discard(name) }

// ChooseLocalModelFile asks for a GGUF file with the system dialog and
// adds it as a model; the view is empty when the user cancels.
func (p *SettingsPage) ChooseLocalModelFile() (LocalModelView, error) {
	ctx := p.wailsContext()
	if ctx == nil {
		return LocalModelView{}, errors.New("no window to show the dialog in: use 'switchboard models add FILE.gguf' instead")
	}
	f, err := wruntime.OpenFileDialog(ctx, wruntime.OpenDialogOptions{Title: "Choose a GGUF model file",
		Filters: []wruntime.FileFilter{{DisplayName: "GGUF models (*.gguf)", Pattern: "*.gguf"}}})
	if err != nil || f == "" {
		return LocalModelView{}, err
	}
	return p.AddLocalModelFile(f)
}

// AddLocalModelFile adds a GGUF file (a path) as a model that runs on
// this computer; the file stays where it is.
func (p *SettingsPage) AddLocalModelFile(path string) (LocalModelView, error) {
	m, err := p.h.Models.Choose(path)
	if err != nil {
		return LocalModelView{}, err
	}
	p.emitEvent(EventConfigChanged, nil)
	return modelView(m.Listed()), nil
}

// RemoveLocalModel deletes a downloaded model's file, or forgets a chosen
// file (which stays on disk); the window asks first.
func (p *SettingsPage) RemoveLocalModel(name string) error {
	if err := p.h.Models.Remove(name); err != nil {
		return err
	}
	p.emitEvent(EventConfigChanged, nil)
	return nil
}

// SetModelDownloadURL saves where models are downloaded from: a mirror's
// https:// URL or a folder; "" for each model's own URL.
func (p *SettingsPage) SetModelDownloadURL(u string) error { return p.h.Models.SetDownloadURL(u) }
