package gui

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/switchboard-app/switchboard/app/chat/provider"
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
		v.Local = detectLocalModels(p.bg())
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
	// one (DefaultChatModel).
	Default string `json:"default"`
}

// Where local model servers listen. Package vars so tests can point them
// at fakes; OLLAMA_HOST (Ollama's own variable) moves Ollama too.
var (
	lmStudioURL   = "http://127.0.0.1:1234/v1"
	detectTimeout = 2 * time.Second
)

// ollamaURL is where Ollama listens: $OLLAMA_HOST when set (host:port or a
// URL, as Ollama itself reads it), else the default port on this machine.
func ollamaURL() string {
	h := strings.TrimSpace(os.Getenv("OLLAMA_HOST"))
	if h == "" {
		return provider.DefaultOllamaURL
	}
	if !strings.Contains(h, "://") {
		h = "http://" + h
	}
	u, err := url.Parse(h)
	if err != nil || u.Host == "" {
		return provider.DefaultOllamaURL
	}
	if host, port, err := net.SplitHostPort(u.Host); err == nil && (host == "0.0.0.0" || host == "") {
		u.Host = net.JoinHostPort("127.0.0.1", port) // a listen address; connect to this machine
	}
	return strings.TrimSuffix(u.String(), "/")
}

// detectLocalModels asks Ollama and LM Studio, at once, for their models.
func detectLocalModels(ctx context.Context) []LocalModel {
	cands := []LocalModel{
		{Name: "Ollama", Kind: string(provider.KindOllama), BaseURL: ollamaURL()},
		{Name: "LM Studio", Kind: string(provider.KindOpenAI), BaseURL: lmStudioURL},
	}
	found := make([]bool, len(cands))
	var wg sync.WaitGroup
	for i := range cands {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(ctx, detectTimeout)
			defer cancel()
			c := &cands[i]
			if c.Kind == string(provider.KindOllama) {
				if ok, _ := provider.DetectOllama(ctx, c.BaseURL); !ok {
					return
				}
			}
			pr, err := provider.New(provider.Config{Kind: provider.Kind(c.Kind), Name: c.Name, BaseURL: c.BaseURL})
			if err != nil {
				return
			}
			ms, err := pr.Models(ctx)
			if err != nil {
				return
			}
			for _, m := range ms {
				c.Models = append(c.Models, m.ID)
			}
			found[i] = true
		})
	}
	wg.Wait()
	out := []LocalModel{}
	for i, c := range cands {
		if found[i] {
			if c.Models == nil {
				c.Models = []string{}
			}
			c.Default = DefaultChatModel(c.Models)
			out = append(out, c)
		}
	}
	return out
}

// DefaultChatModel picks the model a local server's chats start with: the
// first (in the server's order) that can chat — embedding models
// ("nomic-embed-text", "text-embedding-3-small") answer no chat request,
// and a person who has one installed beside a chat model did not mean it.
// It is "" when there are no models, the first when all look like embeddings.
func DefaultChatModel(models []string) string {
	for _, m := range models {
		if !strings.Contains(strings.ToLower(m), "embed") {
			return m
		}
	}
	if len(models) > 0 {
		return models[0]
	}
	return ""
}
