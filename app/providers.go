package app

import (
	"cmp"
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/toolsearch"
	"github.com/switchboard-app/switchboard/app/host"
	"github.com/switchboard-app/switchboard/app/secrets"
	"github.com/switchboard-app/switchboard/mcpmanager/registry"
)

// ProviderView is a configured provider as Settings shows it; the key is
// never sent, only whether one is stored.
type ProviderView struct {
	Name         string `json:"name"`
	Kind         string `json:"kind"`
	BaseURL      string `json:"baseUrl"`
	DefaultModel string `json:"defaultModel"`
	HasKey       bool   `json:"hasKey"`
	KeyName      string `json:"keyName"` // the keyring secret holding the key
	Default      bool   `json:"default"`
	// Images: "on" or "off" when set, "" for the default, which
	// ImagesDefault says (for the default model).
	Images        string `json:"images"`
	ImagesDefault bool   `json:"imagesDefault"`
	// Audio: "on" or "off" when set, "" for the default, which
	// AudioDefault says (for the default model). Only OpenAI-compatible
	// providers take audio: for the others both stay empty/false.
	Audio        string `json:"audio"`
	AudioDefault bool   `json:"audioDefault"`
}

// ProviderInput is what the provider form sends. APIKey is a new key in
// plain text ("" keeps the stored one); it goes to the keyring only.
type ProviderInput struct {
	Name         string `json:"name"`
	Kind         string `json:"kind"`
	BaseURL      string `json:"baseUrl"`
	DefaultModel string `json:"defaultModel"`
	APIKey       string `json:"apiKey"`
	// Images: whether the models take images: "on", "off", or "" for the
	// default (by kind and model name).
	Images string `json:"images,omitempty"`
	// Audio: whether the models take audio: "on", "off", or "" for the
	// default (by model name). Ignored for kinds other than OpenAI, whose
	// APIs take no audio.
	Audio string `json:"audio,omitempty"`
}

// ChatSettingsView is the chat part of Settings.
type ChatSettingsView struct {
	Providers       []ProviderView    `json:"providers"`
	DefaultProvider string            `json:"defaultProvider"`
	Policies        map[string]string `json:"policies"`
	MaxSteps        int               `json:"maxSteps"`
	System          string            `json:"system"`
	// ToolSearchBy is when the model gets find_tools instead of every
	// tool: "size" (the definitions take more than ToolSearchShare percent
	// of the model's context window), "count" (more than ToolSearchAbove
	// active tools) or "off"; Pinned tools are always offered then.
	ToolSearchBy    string   `json:"toolSearchBy"`
	ToolSearchShare int      `json:"toolSearchShare"`
	ToolSearchAbove int      `json:"toolSearchAbove"`
	Pinned          []string `json:"pinned"`
	// Sampling is what servers' requests to use the model may do, with
	// its defaults filled in.
	Sampling chat.SamplingSettings `json:"sampling"`
	// CompactAt, ResultShare and KeepMB are the long-chat settings with
	// their defaults filled in; ResultBudgets ("server__tool=chars") and
	// ContextWindows ("provider/model=tokens") are lines as the form
	// edits them.
	CompactAt      int      `json:"compactAt"`
	ResultShare    int      `json:"resultShare"`
	KeepMB         int      `json:"keepMB"`
	ResultBudgets  []string `json:"resultBudgets"`
	ContextWindows []string `json:"contextWindows"`
}

// ChatSettings returns the providers and chat defaults.
func (a *SettingsPage) ChatSettings() (ChatSettingsView, error) {
	s, err := a.h.Settings.Chat()
	if err != nil {
		return ChatSettingsView{}, err
	}
	v := ChatSettingsView{DefaultProvider: s.DefaultProvider, MaxSteps: s.MaxSteps, System: s.System, Policies: map[string]string{}, Providers: []ProviderView{}}
	if v.MaxSteps == 0 {
		v.MaxSteps = chat.MaxSteps
	}
	v.Pinned = append([]string{}, s.Pinned...)
	v.Sampling = s.Sampling.Normal()
	v.CompactAt, v.ResultShare = cmp.Or(s.CompactAt, chat.DefaultCompactAt), cmp.Or(s.ResultShare, chat.DefaultResultShare)
	v.KeepMB = cmp.Or(s.KeepMB, chat.DefaultKeepLimit>>20)
	v.ResultBudgets, v.ContextWindows = host.LongChatLines(s)
	v.ToolSearchBy, v.ToolSearchShare, v.ToolSearchAbove = "size", cmp.Or(s.ToolSearchShare, toolsearch.DefaultShare), chat.ToolSearchThreshold
	switch {
	case s.ToolSearchAbove > 0:
		v.ToolSearchBy, v.ToolSearchAbove = "count", s.ToolSearchAbove
	case s.ToolSearchAbove < 0:
		v.ToolSearchBy = "off"
	}
	for k, p := range s.Policies {
		v.Policies[k] = string(p)
	}
	for _, p := range s.Providers {
		pv := ProviderView{Name: p.Name, Kind: string(p.Kind), BaseURL: p.BaseURL, DefaultModel: p.DefaultModel,
			Default: strings.EqualFold(p.Name, s.DefaultProvider)}
		if refs := secrets.Refs(p.APIKey); len(refs) > 0 {
			pv.KeyName = refs[0]
			_, err := a.h.Secrets.Get(refs[0])
			pv.HasKey = err == nil
		}
		if pv.BaseURL == "" {
			pv.BaseURL = chat.DefaultBaseURL(p.Kind)
		}
		pv.ImagesDefault = chat.DefaultImages(p.Kind, p.BaseURL, p.DefaultModel)
		if p.Images != nil {
			pv.Images = map[bool]string{true: "on", false: "off"}[*p.Images]
		}
		pv.AudioDefault = chat.DefaultAudio(p.Kind, p.BaseURL, p.DefaultModel)
		if p.Audio != nil && p.Kind == provider.KindOpenAI {
			pv.Audio = map[bool]string{true: "on", false: "off"}[*p.Audio]
		}
		v.Providers = append(v.Providers, pv)
	}
	return v, nil
}

// SaveProvider adds or updates a provider; a new key goes to the keyring.
func (a *SettingsPage) SaveProvider(in ProviderInput) error {
	ps := chat.ProviderSettings{Name: strings.TrimSpace(in.Name), Kind: provider.Kind(in.Kind), BaseURL: strings.TrimSpace(in.BaseURL), DefaultModel: strings.TrimSpace(in.DefaultModel)}
	if ps.BaseURL == chat.DefaultBaseURL(ps.Kind) {
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
		if ps.Kind == provider.KindOpenAI { // the others take no audio
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
	return a.h.Settings.EditChat(func(s *chat.Settings) error { return s.Remove(name) })
}

// SetDefaultProvider makes name the provider new chats use.
func (a *SettingsPage) SetDefaultProvider(name string) error {
	return a.h.Settings.EditChat(func(s *chat.Settings) error {
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
	return a.h.Settings.EditChat(func(s *chat.Settings) error {
		switch chat.Policy(policy) {
		case chat.PolicyAsk, chat.PolicyAllow, chat.PolicyDeny:
			if s.Policies == nil {
				s.Policies = chat.Policies{}
			}
			s.Policies[tool] = chat.Policy(policy)
		case "":
			delete(s.Policies, tool)
		default:
			return fmt.Errorf("policy %q: use ask, allow or deny", policy)
		}
		return nil
	})
}

// ProviderModels lists the models the provider offers.
func (a *SettingsPage) ProviderModels(name string) ([]provider.Model, error) {
	ctx, cancel := context.WithTimeout(a.bg(), 15*time.Second)
	defer cancel()
	return a.h.Chats.Models(ctx, name)
}

// DetectOllama reports whether an Ollama server answers on this machine.
func (a *SettingsPage) DetectOllama() (bool, error) {
	ctx, cancel := context.WithTimeout(a.bg(), 3*time.Second)
	defer cancel()
	ok, _ := provider.DetectOllama(ctx, "")
	return ok, nil
}

// SetSampling sets what servers' requests to use the model may do: mode
// ask, allow (up to perChat per chat, then ask) or deny; at most perMinute
// per server and minute; outsideCalls lets a server ask while none of its
// tool calls runs.
func (a *SettingsPage) SetSampling(mode string, perChat, perMinute int, outsideCalls bool) error {
	return a.h.Settings.SetSampling(chat.SamplingSettings{Mode: mode, PerChat: perChat, PerMinute: perMinute, OutsideCalls: outsideCalls})
}

// SetLongChats sets how long chats stay within the model's window: the
// percent of the window past which earlier messages are summarised, the
// percent one tool result may take, the megabytes of a capped result kept
// for the model to read on, budgets per tool or server
// ("server__tool=chars", "server__*=chars") and context windows per model
// ("provider/model=tokens"), one per line.
func (a *SettingsPage) SetLongChats(compactAt, resultShare, keepMB int, budgets, windows []string) error {
	return a.h.Settings.SetLongChats(compactAt, resultShare, keepMB, budgets, windows)
}

// SetToolSearch sets when the model searches tools instead of seeing them
// all — by "size" (the definitions take more than share percent of the
// model's context window), by "count" (more than above active tools) or
// "off" — and the tools always offered (server__tool).
func (a *SettingsPage) SetToolSearch(by string, share, above int, pinned []string) error {
	switch {
	case by != "size" && by != "count" && by != "off":
		return fmt.Errorf("tool search %q: choose size, count or off", by)
	case by == "size" && (share < 1 || share > 100):
		return fmt.Errorf("the share of the context window must be 1 to 100 percent, not %d", share)
	case by == "count" && above < 1:
		return fmt.Errorf("the tool count must be 1 or more, not %d", above)
	}
	var clean []string
	for _, p := range pinned {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		if !strings.Contains(p, registry.Separator) {
			return fmt.Errorf("pinned tool %q: write it as server__tool, as the Tools page lists it", p)
		}
		clean = append(clean, p)
	}
	return a.h.Settings.EditChat(func(s *chat.Settings) error {
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
