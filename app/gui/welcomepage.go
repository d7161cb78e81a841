package gui

import (
	"fmt"
	"log/slog"
	"sync"
)

// WelcomePage is the first-run page: the configs of other apps found on this
// machine, a model running here (or a hosted provider's key), and where the
// data lives. It is shown while there are no servers and no providers, until
// it is finished or skipped (remembered in ui.json).
type WelcomePage struct{ *core }

// Welcome returns what the welcome page shows, and whether to show it.
func (p *WelcomePage) Welcome() (WelcomeView, error) {
	v := WelcomeView{DataDir: p.dir.String(), LogDir: p.dir.Logs(), Configs: []DiscoveredConfig{}, Local: []LocalModel{}}
	done, err := p.h.UIState.WelcomeDone()
	if err != nil {
		slog.Warn("ui state", "err", err)
	}
	cs, err := p.h.Settings.Chat()
	if err != nil {
		return v, err
	}
	v.Show = !done && len(p.h.Servers.List()) == 0 && len(cs.Providers) == 0
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for _, l := range p.h.Settings.DetectLocal(p.bg()) {
			v.Local = append(v.Local, LocalModel{Name: l.Name, Kind: string(l.Kind), BaseURL: l.BaseURL, Models: l.Models, Default: l.Default})
		}
	}()
	v.Configs = p.discoverConfigs(p.bg())
	wg.Wait()
	return v, nil
}

// FinishWelcome records that the welcome page was done or skipped: it is
// never shown again.
func (p *WelcomePage) FinishWelcome() error {
	if err := p.h.UIState.FinishWelcome(); err != nil {
		return fmt.Errorf("remember the welcome page as done: %w", err)
	}
	return nil
}

// WelcomeView is what the welcome page shows.
type WelcomeView struct {
	// Show says the window should open on the welcome page.
	Show    bool               `json:"show"`
	Configs []DiscoveredConfig `json:"configs"`
	// Local lists the model servers answering on this machine.
	Local   []LocalModel `json:"local"`
	DataDir string       `json:"dataDir"`
	LogDir  string       `json:"logDir"`
}

// LocalModel is a model server running on this machine, offered in one click.
type LocalModel struct {
	Name    string   `json:"name"` // "Ollama", "LM Studio"
	Kind    string   `json:"kind"` // provider kind to save: ollama, openai
	BaseURL string   `json:"baseUrl"`
	Models  []string `json:"models"`
	// Default is the model offered first: a chat model, not an embedding
	// one (host.DefaultChatModel).
	Default string `json:"default"`
}
