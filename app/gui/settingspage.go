package gui

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"time"

	"github.com/switchboard-app/switchboard/app/host"
	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"
)

// SettingsPage is providers, secrets and tool search.
type SettingsPage struct{ *core }

// DownloadTimeoutSeconds is how long an npx, uvx or docker server's package
// download may take before its first start (Settings → Servers).
func (a *SettingsPage) DownloadTimeoutSeconds() (int, error) {
	d, err := a.h.Fetch.Timeout()
	return int(d / time.Second), err
}

// SetDownloadTimeoutSeconds saves that limit; the next download uses it.
func (a *SettingsPage) SetDownloadTimeoutSeconds(seconds int) error {
	return a.h.Fetch.SetTimeout(time.Duration(seconds) * time.Second)
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

// FoundLocalModels is the GGUF models Ollama and LM Studio keep on this
// computer, each of which AddLocalModelFile can run as it is.
func (p *SettingsPage) FoundLocalModels() ([]FoundModelView, error) {
	found, err := p.h.Models.Found()
	out := make([]FoundModelView, 0, len(found))
	for _, f := range found {
		out = append(out, FoundModelView{Name: f.Name, App: f.App, Path: f.Path, Size: f.Size, Added: f.Added})
	}
	return out, err
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

// ChatSettings returns the providers and chat defaults.
func (a *SettingsPage) ChatSettings() (ChatSettingsView, error) {
	s, err := a.h.Settings.Chat()
	if err != nil {
		return ChatSettingsView{}, err
	}
	v := ChatSettingsView{DefaultProvider: s.DefaultProvider, MaxSteps: s.MaxSteps, System: s.System, Policies: map[string]string{}, Providers: []ProviderView{}}
	if v.MaxSteps == 0 {
		v.MaxSteps = host.DefaultMaxSteps()
	}
	v.Pinned = append([]string{}, s.Pinned...)
	v.Sampling = host.SamplingView(s.Sampling.Normal())
	v.CompactAt, v.ResultShare = cmp.Or(s.CompactAt, host.DefaultCompactAt), cmp.Or(s.ResultShare, host.DefaultResultShare)
	v.KeepMB = cmp.Or(s.KeepMB, host.DefaultKeepLimit>>20)
	v.ResultBudgets, v.ContextWindows = host.LongChatLines(s)
	v.Tools, v.CodeModeWindow = s.Tools, host.CodeModeWindow()
	ts := host.ToolSearchOf(s)
	v.ToolSearchBy, v.ToolSearchShare, v.ToolSearchAbove = ts.By, ts.Share, ts.Above
	for k, p := range s.Policies {
		v.Policies[k] = string(p)
	}
	for _, p := range s.Providers {
		pv := ProviderView{Name: p.Name, Kind: string(p.Kind), BaseURL: p.BaseURL, DefaultModel: p.DefaultModel,
			Default: strings.EqualFold(p.Name, s.DefaultProvider)}
		pv.KeyName, pv.HasKey = a.h.Secrets.ProviderKey(p)
		if pv.BaseURL == "" {
			pv.BaseURL = host.DefaultBaseURL(p.Kind)
		}
		pv.ImagesDefault = host.DefaultImages(p.Kind, p.BaseURL, p.DefaultModel)
		if p.Images != nil {
			pv.Images = map[bool]string{true: "on", false: "off"}[*p.Images]
		}
		pv.AudioDefault = host.DefaultAudio(p.Kind, p.BaseURL, p.DefaultModel)
		if p.Audio != nil && p.Kind == host.ProviderOpenAI {
			pv.Audio = map[bool]string{true: "on", false: "off"}[*p.Audio]
		}
		v.Providers = append(v.Providers, pv)
	}
	return v, nil
}

// SaveProvider adds or updates a provider; a new key goes to the keyring.
func (a *SettingsPage) SaveProvider(in ProviderInput) error {
	ps := host.ProviderSettings{Name: strings.TrimSpace(in.Name), Kind: host.ProviderKind(in.Kind), BaseURL: strings.TrimSpace(in.BaseURL), DefaultModel: strings.TrimSpace(in.DefaultModel)}
	if ps.BaseURL == host.DefaultBaseURL(ps.Kind) {
		ps.BaseURL = ""
	}
	switch in.Images {
	case "on", "off":
		on := in.Images == "on"
		ps.Images = &on
	case "":
	default:
		return fmt.Errorf("images %q: use on, off or empty for the default", in.Images)
	}
	switch in.Audio {
	case "on", "off":
		if ps.Kind == host.ProviderOpenAI { // the others take no audio
			on := in.Audio == "on"
			ps.Audio = &on
		}
	case "":
	default:
		return fmt.Errorf("audio %q: use on, off or empty for the default", in.Audio)
	}
	return a.h.Settings.SaveProvider(ps, in.APIKey)
}

// DeleteProvider removes a provider (its key stays in the keyring, listed
// under Secrets, until deleted there).
func (a *SettingsPage) DeleteProvider(name string) error {
	return a.h.Settings.EditChat(func(s *host.ChatSettings) error { return s.Remove(name) })
}

// SetDefaultProvider makes name the provider new chats use.
func (a *SettingsPage) SetDefaultProvider(name string) error {
	return a.h.Settings.EditChat(func(s *host.ChatSettings) error {
		p, err := s.Provider(name)
		if err != nil {
			return err
		}
		s.DefaultProvider = p.Name
		return nil
	})
}

// SetToolPolicy sets the approval policy of a tool or server ("server__*"):
// ask, allow, deny, or "" to go back to the default.
func (a *SettingsPage) SetToolPolicy(tool, policy string) error {
	return a.h.Settings.EditChat(func(s *host.ChatSettings) error {
		switch host.ToolPolicy(policy) {
		case host.PolicyAsk, host.PolicyAllow, host.PolicyDeny:
			if s.Policies == nil {
				s.Policies = host.ToolPolicies{}
			}
			s.Policies[tool] = host.ToolPolicy(policy)
		case "":
			delete(s.Policies, tool)
		default:
			return fmt.Errorf("policy %q: use ask, allow or deny", policy)
		}
		return nil
	})
}

// ProviderModels lists the models the provider offers.
func (a *SettingsPage) ProviderModels(name string) ([]host.ProviderModel, error) {
	ctx, cancel := context.WithTimeout(a.bg(), 15*time.Second)
	defer cancel()
	return a.h.Chats.Models(ctx, name)
}

// DetectOllama reports whether an Ollama server answers on this machine.
func (a *SettingsPage) DetectOllama() (bool, error) {
	ctx, cancel := context.WithTimeout(a.bg(), 3*time.Second)
	defer cancel()
	return a.h.Settings.DetectOllama(ctx), nil
}

// SetSampling sets what servers' requests to use the model may do: mode
// ask, allow (up to perChat per chat, then ask) or deny; at most perMinute
// per server and minute; outsideCalls lets a server ask while none of its
// tool calls runs.
func (a *SettingsPage) SetSampling(mode string, perChat, perMinute int, outsideCalls bool) error {
	return a.h.Settings.SetSampling(host.Sampling{Mode: mode, PerChat: perChat, PerMinute: perMinute, OutsideCalls: outsideCalls})
}

// SetLongChats sets how long chats stay within the model's window: the
// percent of the window past which earlier messages are summarised, the
// percent one tool result may take, the megabytes of a capped result kept
// for the model to read on, budgets per tool or server
// ("server__tool=chars", "server__*=chars") and context windows per model
// ("provider/model=tokens"), one per line.
func (a *SettingsPage) SetLongChats(compactAt, resultShare, keepMB int, budgets, windows []string) error {
	return a.h.Settings.SetLongChats(host.LongChats{CompactAt: compactAt, ResultShare: resultShare, KeepMB: keepMB, Budgets: budgets, Windows: windows})
}

// SetToolSearch sets when the model searches tools instead of seeing them
// all — by "size" (the definitions take more than share percent of the
// model's context window), by "count" (more than above active tools) or
// "off" — and the tools always offered (server__tool).
func (a *SettingsPage) SetToolSearch(by string, share, above int, pinned []string) error {
	return a.h.Settings.SetToolSearch(host.ToolSearchSetting{By: by, Share: share, Above: above, Pinned: pinned})
}

// SetToolMode sets how chats offer the tools when neither the chat nor
// its agent chose (settings.chat.tools): "direct", "code", "both", or ""
// for the default by the model's context window.
func (a *SettingsPage) SetToolMode(mode string) error {
	if err := host.ValidToolMode(mode); err != nil {
		return err
	}
	return a.h.Settings.EditChat(func(s *host.ChatSettings) error {
		s.Tools = mode
		return nil
	})
}

// ServeTools is how the apps that use Switchboard as their MCP server
// are offered the tools (settings.serve.tools): "" or "direct", "code",
// "both".
func (a *SettingsPage) ServeTools() (string, error) {
	v, err := a.h.Settings.Serve()
	return v.Tools, err
}

// SetServeTools sets it; the running Switchboard's attached apps follow
// at once.
func (a *SettingsPage) SetServeTools(mode string) error {
	return a.h.Settings.SetServe(host.ServeSettings{Tools: mode})
}

// KeyringStatus is "" when the OS keyring works, else one sentence on what to do.
func (a *SettingsPage) KeyringStatus() (string, error) {
	if err := a.h.Secrets.Available(); err != nil {
		return err.Error(), nil
	}
	return "", nil
}

// Secrets lists the secret names with masked values and what uses them.
func (a *SettingsPage) Secrets() ([]host.SecretRow, error) {
	return a.h.Secrets.InUse()
}

// SetSecret stores (or replaces) a secret and restarts the servers using it.
func (a *SettingsPage) SetSecret(name, value string) error {
	return a.h.Secrets.Set(name, value)
}

// DeleteSecret removes a secret from the keyring and the index.
func (a *SettingsPage) DeleteSecret(name string) error {
	return a.h.Secrets.Delete(name)
}

// TaskSettings returns the saved task settings.
func (a *SettingsPage) TaskSettings() (TaskSettingsView, error) {
	p, err := a.h.Tasks.Policy()
	return TaskSettingsView{OptionalAsTasks: p.Optional, LimitMinutes: int(p.Limit / time.Minute)}, err
}

// SetTaskSettings saves them; the next tool call follows them.
func (a *SettingsPage) SetTaskSettings(v TaskSettingsView) error {
	return a.h.Tasks.SetPolicy(host.TaskPolicy{Optional: v.OptionalAsTasks, Limit: time.Duration(v.LimitMinutes) * time.Minute})
}

// TaskSettingsView is how tool calls run as MCP tasks (Settings → Tasks).
type TaskSettingsView struct {
	// OptionalAsTasks: tools that allow tasks (taskSupport "optional") run
	// as tasks too; tools that require them always do.
	OptionalAsTasks bool `json:"optionalAsTasks"`
	// LimitMinutes bounds one task; the tool timeout does not apply to tasks.
	LimitMinutes int `json:"limitMinutes"`
}
