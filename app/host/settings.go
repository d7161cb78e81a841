package host

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/toolsearch"
	"github.com/switchboard-app/switchboard/app/secrets"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/gateway"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// Settings are config.json's settings sections: chat, providers, rules.
type Settings struct{ h *Host }

// Chat reads the chat settings of config.json.
func (st *Settings) Chat() (ChatSettings, error) {
	h := st.h
	cfg, err := h.readConfig()
	if err != nil {
		return ChatSettings{}, err
	}
	return chat.LoadSettings(cfg.Settings)
}

// EditChat changes the chat settings in config.json (see Edit).
func (st *Settings) EditChat(fn func(s *ChatSettings) error) error {
	h := st.h
	return h.edit(func(cfg *config.Config) error { return editChat(cfg, fn) })
}

// editChat lets fn change the chat settings inside cfg.
func editChat(cfg *config.Config, fn func(s *ChatSettings) error) error {
	s, err := chat.LoadSettings(cfg.Settings)
	if err != nil {
		return err
	}
	if err := fn(&s); err != nil {
		return err
	}
	raw, err := s.Into(cfg.Settings)
	if err != nil {
		return err
	}
	cfg.Settings = raw
	return nil
}

// SaveProvider adds or updates a model provider. A new key (apiKey not
// empty) goes to the keyring first and the provider refers to it as
// ${secret:...}; an empty apiKey keeps the key stored before.
func (st *Settings) SaveProvider(ps ProviderSettings, apiKey string) error {
	h := st.h
	if old, err := h.Settings.Chat(); err == nil {
		if p, err := old.Provider(ps.Name); err == nil && strings.EqualFold(p.Name, ps.Name) {
			ps.APIKey = p.APIKey
		}
	}
	if err := ps.Validate(); err != nil {
		return err
	}
	var keyName string
	if k := strings.TrimSpace(apiKey); k != "" {
		keyName = secrets.ProviderName(ps.Name)
		if err := h.store.Set(keyName, k); err != nil {
			return err
		}
		h.red.Add(k)
		ps.APIKey = "${secret:" + keyName + "}"
	}
	return h.edit(func(cfg *config.Config) error {
		if keyName != "" {
			if err := secrets.Index(cfg, true, keyName); err != nil {
				return err
			}
		}
		return editChat(cfg, func(s *ChatSettings) error { return s.Put(ps) })
	})
}

// AddRule validates an approval rule, gives it an ID and saves it in the
// chat settings; the error names the field that is wrong.
func (st *Settings) AddRule(r Rule) (Rule, error) {
	h := st.h
	if err := r.Validate(); err != nil {
		return Rule{}, err
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	r.ID = hex.EncodeToString(b[:])
	err := h.Settings.EditChat(func(s *ChatSettings) error {
		s.Rules = append(s.Rules, r)
		return nil
	})
	return r, err
}

// RemoveRule deletes the approval rule with id.
func (st *Settings) RemoveRule(id string) error {
	h := st.h
	return h.Settings.EditChat(func(s *ChatSettings) error {
		n := len(s.Rules)
		s.Rules = slices.DeleteFunc(s.Rules, func(r Rule) bool { return r.ID == id })
		if len(s.Rules) == n {
			return fmt.Errorf("no approval rule %q: it was removed already (reload the Tools page)", id)
		}
		return nil
	})
}

// SetLongChats saves how long chats stay within the model's window
// (Settings → Chat → Long chats): compactAt percent of the window past
// which earlier messages are summarised (10–95), resultShare percent one
// tool result may take (1–50), keepMB megabytes of a capped result kept
// for the model to read on (1–MaxKeepMB), budgets per tool or server
// ("server__tool=chars" or "server__*=chars") and context windows per
// model ("provider/model=tokens"), one per line; blank lines are skipped.
// A bad line is refused with its number and what to write; nothing is
// saved then.
func (st *Settings) SetLongChats(r LongChats) error {
	compactAt, resultShare, keepMB, budgets, windows := r.CompactAt, r.ResultShare, r.KeepMB, r.Budgets, r.Windows
	switch {
	case keepMB < 1 || keepMB > MaxKeepMB:
		return fmt.Errorf("keep %d MB of a long tool result: choose 1 to %d MB", keepMB, MaxKeepMB)
	case compactAt < 10 || compactAt > 95:
		return fmt.Errorf("summarise at %d%%: choose 10 to 95 percent of the context window", compactAt)
	case resultShare < 1 || resultShare > 50:
		return fmt.Errorf("one tool result may take %d%%: choose 1 to 50 percent of the context window", resultShare)
	}
	perTool := map[string]int{}
	for i, l := range budgets {
		k, n, ok, err := pair(l, 200)
		if err != nil || ok && !strings.Contains(k, router.Separator) {
			return fmt.Errorf("tool result budget, line %d %q: write server__tool=characters or server__*=characters (at least 200)", i+1, strings.TrimSpace(l))
		}
		if ok {
			perTool[k] = n
		}
	}
	s, err := st.Chat()
	if err != nil {
		return err
	}
	perModel := map[string]map[string]int{}
	for i, l := range windows {
		k, n, ok, err := pair(l, 1024)
		prov, model, cut := strings.Cut(k, "/")
		if err == nil && ok && cut {
			if _, perr := s.Provider(prov); perr != nil {
				return fmt.Errorf("context window, line %d %q: there is no provider %q; use a name from Model providers above", i+1, strings.TrimSpace(l), prov)
			}
		}
		if err != nil || ok && (!cut || model == "") {
			return fmt.Errorf("context window, line %d %q: write provider/model=tokens (at least 1024), e.g. Ollama/qwen3:8b=32768", i+1, strings.TrimSpace(l))
		}
		if ok {
			if perModel[strings.ToLower(prov)] == nil {
				perModel[strings.ToLower(prov)] = map[string]int{}
			}
			perModel[strings.ToLower(prov)][model] = n
		}
	}
	return st.EditChat(func(c *ChatSettings) error {
		c.CompactAt, c.ResultShare = compactAt, resultShare
		if compactAt == chat.DefaultCompactAt {
			c.CompactAt = 0
		}
		if resultShare == chat.DefaultResultShare {
			c.ResultShare = 0
		}
		c.KeepMB = keepMB
		if keepMB == chat.DefaultKeepLimit>>20 {
			c.KeepMB = 0
		}
		c.ResultBudgets = perTool
		if len(perTool) == 0 {
			c.ResultBudgets = nil
		}
		for i := range c.Providers {
			c.Providers[i].ContextWindows = perModel[strings.ToLower(c.Providers[i].Name)]
		}
		return nil
	})
}

// SetSampling saves the user's sampling settings (Settings → Chat →
// Sampling) after checking them; the next sampling request follows them.
func (st *Settings) SetSampling(v Sampling) error {
	s := chat.SamplingSettings(v)
	if err := s.Validate(); err != nil {
		return err
	}
	return st.EditChat(func(c *ChatSettings) error {
		c.Sampling = s
		return nil
	})
}

// ToolSearchSetting is when the model searches tools instead of seeing
// them all: By "size" (the definitions take more than Share percent of
// the model's context window), "count" (more than Above active tools) or
// "off"; Pinned are the tools always offered (server__tool).
type ToolSearchSetting struct {
	By     string
	Share  int
	Above  int
	Pinned []string
}

// ToolSearchOf is s's tool search as the Settings form shows it: the
// share and the count filled with their defaults when s leaves them
// unset.
func ToolSearchOf(s ChatSettings) ToolSearchSetting {
	t := ToolSearchSetting{By: "size", Share: cmp.Or(s.ToolSearchShare, toolsearch.DefaultShare), Above: chat.ToolSearchThreshold, Pinned: s.Pinned}
	switch {
	case s.ToolSearchAbove > 0:
		t.By, t.Above = "count", s.ToolSearchAbove
	case s.ToolSearchAbove < 0:
		t.By = "off"
	}
	return t
}

// SetToolSearch saves t (settings.chat): its By, Share and Above are
// checked, its Pinned names written server__tool, and a Share equal to
// the default is stored as unset.
func (st *Settings) SetToolSearch(t ToolSearchSetting) error {
	by, share, above := t.By, t.Share, t.Above
	switch {
	case by != "size" && by != "count" && by != "off":
		return fmt.Errorf("tool search %q: choose size, count or off", by)
	case by == "size" && (share < 1 || share > 100):
		return fmt.Errorf("the share of the context window must be 1 to 100 percent, not %d", share)
	case by == "count" && above < 1:
		return fmt.Errorf("the tool count must be 1 or more, not %d", above)
	}
	var clean []string
	for _, p := range t.Pinned {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		if !strings.Contains(p, router.Separator) {
			return fmt.Errorf("pinned tool %q: write it as server__tool, as the Tools page lists it", p)
		}
		clean = append(clean, p)
	}
	return st.EditChat(func(s *ChatSettings) error {
		switch by {
		case "off":
			s.ToolSearchAbove = -1
		case "count":
			s.ToolSearchAbove = above
		default:
			s.ToolSearchAbove, s.ToolSearchShare = 0, share
			if share == toolsearch.DefaultShare {
				s.ToolSearchShare = 0
			}
		}
		s.Pinned = clean
		return nil
	})
}

// Serve reads settings.serve of config.json.
func (st *Settings) Serve() (ServeSettings, error) {
	cfg, err := st.h.readConfig()
	if err != nil {
		return ServeSettings{}, err
	}
	return serveSection.Get(cfg)
}

// SetServe writes settings.serve (see Edit); a tool mode that is not
// one of direct, code or both is refused with nothing written.
func (st *Settings) SetServe(v ServeSettings) error {
	if err := chat.ValidToolMode(v.Tools); err != nil {
		return fmt.Errorf("settings.serve.tools: %w", err)
	}
	return st.h.edit(func(cfg *config.Config) error { return serveSection.Put(cfg, v) })
}

// serveCode is the code mode 'serve' offers by config.json's settings
// (a --code flag wins over it): settings.serve.tools, each script
// bounded by settings.chat.codeMode and each of its calls decided by the
// chat's rules and policies (scriptDecision).
func (st *Settings) serveCode() (gateway.CodeMode, error) {
	cfg, err := st.h.readConfig()
	if err != nil {
		return gateway.CodeMode{}, err
	}
	return serveCode(cfg, st.h.Tools.DefaultPolicy)
}

// ProviderKind is the wire format a model provider speaks (provider.Kind),
// as ProviderSettings.Kind holds it.
type ProviderKind = provider.Kind

// The kinds of provider a door offers besides the model on this computer
// (chat.KindLocal).
const (
	ProviderOpenAI    = provider.KindOpenAI    // any OpenAI-compatible server (LM Studio, vLLM, …)
	ProviderAnthropic = provider.KindAnthropic // the Anthropic Messages API
	ProviderOllama    = provider.KindOllama    // an Ollama server, in its own API
)

// LocalServer is a model server answering on this computer (Ollama, LM
// Studio), offered as a provider in one click.
type LocalServer struct {
	Name    string       // "Ollama", "LM Studio"
	Kind    ProviderKind // the provider kind to save: ollama, openai
	BaseURL string
	Models  []string // never nil
	// Default is the model offered first: a chat model, not an embedding
	// one (DefaultChatModel).
	Default string
}

// Where DetectLocal looks, and for how long. Package vars so tests can
// point them at fakes; OLLAMA_HOST (Ollama's own variable) moves Ollama
// too.
var (
	LMStudioURL   = "http://127.0.0.1:1234/v1"
	DetectTimeout = 2 * time.Second
)

// DetectLocal asks Ollama and LM Studio, at once, for their models: the
// ones that answer within DetectTimeout (never nil).
func (st *Settings) DetectLocal(ctx context.Context) []LocalServer {
	cands := []LocalServer{
		{Name: "Ollama", Kind: ProviderOllama, BaseURL: ollamaURL()},
		{Name: "LM Studio", Kind: ProviderOpenAI, BaseURL: LMStudioURL},
	}
	found := make([]bool, len(cands))
	var wg sync.WaitGroup
	for i := range cands {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(ctx, DetectTimeout)
			defer cancel()
			c := &cands[i]
			if c.Kind == ProviderOllama {
				if ok, _ := provider.DetectOllama(ctx, c.BaseURL); !ok {
					return
				}
			}
			pr, err := provider.New(provider.Config{Kind: c.Kind, Name: c.Name, BaseURL: c.BaseURL})
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
	out := []LocalServer{}
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

// DetectOllama says whether an Ollama server answers on this computer at
// its default address.
func (st *Settings) DetectOllama(ctx context.Context) bool {
	ok, _ := provider.DetectOllama(ctx, "")
	return ok
}

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
