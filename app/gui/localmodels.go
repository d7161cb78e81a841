package gui

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

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
// computer" of the welcome page and Settings → Models.
type LocalModelsView struct {
	Models []LocalModelView `json:"models"`
	// DownloadURL is the download URL setting ("": each model's own URL).
	DownloadURL string `json:"downloadUrl"`
}

// FoundModelView is a GGUF model another app keeps on this computer
// (Ollama, LM Studio), which AddLocalModelFile runs as it is.
type FoundModelView struct {
	Name string `json:"name"` // what it is added as ("qwen3:0.6b")
	App  string `json:"app"`  // "Ollama", "LM Studio"
	Path string `json:"path"`
	Size int64  `json:"size"` // bytes, every part
	// Added is the name it is added under already ("": it is not).
	Added string `json:"added"`
}

// modelView is a model of the catalog, or a chosen file, as the window shows it.
func modelView(c host.CatalogModel) LocalModelView {
	return LocalModelView{Name: c.Name, Title: c.Title, File: c.File, Size: c.Size, RAM: c.RAM,
		Licence: c.Licence, GoodFor: c.GoodFor, Default: c.Default, Chosen: c.Chosen, Installed: c.Installed, Path: c.Path,
		Partial: c.Partial, Downloading: c.Downloading}
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
		ev.State, ev.Error = DownloadFailed, host.Plain(err) // the sentence, then the detail (behind a disclosure)
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

// EventLocalModel carries a LocalRuntimeView: the model on this computer
// started, became ready, crashed and restarts, or stopped.
const EventLocalModel = "local:status"

// LocalRuntimeView is what the model on this computer is doing, as Settings
// → Providers shows it.
type LocalRuntimeView struct {
	// State: stopped, starting, ready, restarting, failed.
	State    string `json:"state"`
	Model    string `json:"model"`
	Err      string `json:"err"`
	Restarts int    `json:"restarts"`
	Context  int    `json:"context"`
	Threads  int    `json:"threads"`
	// QuantizedKV: the KV cache is stored as q8_0 since memory is short.
	QuantizedKV bool `json:"quantizedKv"`
	// MemoryMB is what it takes in all; KVMemoryMB the KV cache's part.
	MemoryMB   int64  `json:"memoryMb"`
	KVMemoryMB int64  `json:"kvMemoryMb"`
	Why        string `json:"why"`
	LogPath    string `json:"logPath"`
	// NoRuntime says why llama-server cannot be found ("" when it is).
	NoRuntime string `json:"noRuntime"`
	// CPU is the CPU backend the runtime loaded for this processor
	// ("haswell", "sse42", ...), "" before it ran or when it has one built in.
	CPU string `json:"cpu"`
}

func localRuntimeView(s host.LocalStatus) LocalRuntimeView {
	return LocalRuntimeView{State: s.State, Model: s.Model, Err: s.Err, Restarts: s.Restarts, Context: s.Context,
		Threads: s.Threads, QuantizedKV: s.QuantizedKV, MemoryMB: s.Memory >> 20, KVMemoryMB: s.KVMemory >> 20,
		Why: s.Why, LogPath: s.LogPath, NoRuntime: s.NoRuntime, CPU: s.CPU}
}

// onLocal forwards the local model's status to the window.
func (a *core) onLocal(s host.LocalStatus) { a.emitEvent(EventLocalModel, localRuntimeView(s)) }

// LocalRunView is how the model on this computer is set to run: 0 for
// fitted to the machine.
type LocalRunView struct {
	Context int `json:"context"`
	Threads int `json:"threads"`
	// CPUs is the machine's, the most threads worth choosing.
	CPUs int `json:"cpus"`
}
