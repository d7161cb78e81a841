package app

import (
	"context"
	"runtime"
	"time"

	"github.com/switchboard-app/switchboard/app/host"
)

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
}

func localRuntimeView(s host.LocalStatus) LocalRuntimeView {
	return LocalRuntimeView{State: s.State, Model: s.Model, Err: s.Err, Restarts: s.Restarts, Context: s.Context,
		Threads: s.Threads, QuantizedKV: s.QuantizedKV, MemoryMB: s.Memory >> 20, KVMemoryMB: s.KVMemory >> 20,
		Why: s.Why, LogPath: s.LogPath, NoRuntime: s.NoRuntime}
}

// onLocal forwards the local model's status to the window.
func (a *core) onLocal(s host.LocalStatus) { a.emitEvent(EventLocalModel, localRuntimeView(s)) }

// LocalModelStatus is what the model on this computer is doing now.
func (a *SettingsPage) LocalModelStatus() LocalRuntimeView {
	return localRuntimeView(a.h.Local.Status())
}

// StopLocalModel stops the model on this computer, freeing its memory;
// the next message to it starts it again.
func (a *SettingsPage) StopLocalModel() error {
	ctx, cancel := context.WithTimeout(a.bg(), 15*time.Second)
	defer cancel()
	return a.h.Local.Stop(ctx)
}

// LocalModelLog is the last lines of the local model's log.
func (a *SettingsPage) LocalModelLog(lines int) ([]string, error) { return a.h.Local.LogTail(lines) }

// LocalRunView is how the model on this computer is set to run: 0 for
// fitted to the machine.
type LocalRunView struct {
	Context int `json:"context"`
	Threads int `json:"threads"`
	// CPUs is the machine's, the most threads worth choosing.
	CPUs int `json:"cpus"`
}

// LocalModelRun is how the model on this computer is set to run.
func (a *SettingsPage) LocalModelRun() (LocalRunView, error) {
	s, err := a.h.Settings.Chat()
	if err != nil {
		return LocalRunView{}, err
	}
	return LocalRunView{Context: s.Local.Context, Threads: s.Local.Threads, CPUs: runtime.NumCPU()}, nil
}

// SetLocalModelRun sets its context size and threads (0: fitted) and
// stops it, so the next message starts it with them.
func (a *SettingsPage) SetLocalModelRun(contextSize, threads int) error {
	ctx, cancel := context.WithTimeout(a.bg(), 15*time.Second)
	defer cancel()
	return a.h.Local.SetRun(ctx, contextSize, threads)
}
