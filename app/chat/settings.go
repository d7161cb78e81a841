package chat

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/secrets"
	"github.com/switchboard-app/switchboard/mcpmanager/codemode"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// Settings is the "chat" section of config.json's settings.
type Settings struct {
	Providers []ProviderSettings `json:"providers,omitempty"`
	// DefaultProvider names the provider new chats use.
	DefaultProvider string `json:"defaultProvider,omitempty"`
	// Policies are the approval policies per tool ("server__tool") or server
	// ("server__*"): ask, allow or deny.
	Policies Policies `json:"policies,omitempty"`
	// Rules allow or deny calls by their arguments (see Rule); deny wins.
	Rules Rules `json:"rules,omitempty"`
	// MaxSteps limits tool steps per message (0: MaxSteps).
	MaxSteps int `json:"maxSteps,omitempty"`
	// System is the system prompt new chats use.
	System string `json:"system,omitempty"`
	// Agents are the named set-ups chats can start from.
	Agents []Agent `json:"agents,omitempty"`
	// ToolSearchAbove, when positive, turns tool search on above that many
	// active tools instead of by size; 0 leaves it to ToolSearchShare, below
	// 0 turns tool search off (toolsearch.Rule).
	ToolSearchAbove int `json:"toolSearchAbove,omitempty"`
	// ToolSearchShare is the percent of the model's context window the
	// active tools' definitions may take before the model searches them
	// (0: toolsearch.DefaultShare).
	ToolSearchShare int `json:"toolSearchShare,omitempty"`
	// Pinned tools are always offered when tool search is on.
	Pinned []string `json:"pinned,omitempty"`
	// OffSkills are the servers' skills ("server/name") the user switched
	// off; every other skill is on (skills.go).
	OffSkills []string `json:"offSkills,omitempty"`
	// Sampling says what servers' requests to use the model may do
	// (see DecideSampling).
	Sampling SamplingSettings `json:"sampling,omitzero"`
	// CompactAt is the percent of the model's context window past which
	// a chat's earlier messages are summarised (0: DefaultCompactAt).
	CompactAt int `json:"compactAt,omitempty"`
	// ResultShare is the percent of the context window one tool result
	// may take before the model gets its head and a handle to the rest
	// (0: DefaultResultShare).
	ResultShare int `json:"resultShare,omitempty"`
	// ResultBudgets set that budget in characters per tool
	// ("server__tool") or server ("server__*").
	ResultBudgets map[string]int `json:"resultBudgets,omitempty"`
	// KeepMB is how many megabytes of one capped result are kept for the
	// model to read on (0: DefaultKeepLimit); the rest is dropped.
	KeepMB int `json:"keepMB,omitempty"`
	// Local is the model on this computer (the provider of kind KindLocal).
	Local LocalSettings `json:"local,omitzero"`
	// Tools is how chats offer the servers' tools: ToolsDirect, ToolsCode
	// or ToolsBoth; "" chooses by the model's context window
	// (Turn.ToolMode). A chat's or an agent's own choice wins.
	Tools string `json:"tools,omitempty"`
	// CodeMode limits each script code mode runs (codemode.Limits).
	CodeMode codemode.Limits `json:"codeMode,omitzero"`
}

// KindLocal is the provider "On this computer": a model the app runs
// itself (llama.cpp's llama-server, package localmodel), spoken to over
// the OpenAI wire. It has no base URL or key in the settings: the host
// starts the runtime when a chat needs it and opens the provider then.
const KindLocal provider.Kind = "local"

// LocalSettings say which models run on this computer and how.
type LocalSettings struct {
	// DownloadURL is where models are downloaded from, in place of each
	// model's own URL: an http(s) base URL the file names are appended to
	// (a mirror), or a directory on disk (file:// or a path).
	DownloadURL string `json:"downloadUrl,omitempty"`
	// Files are GGUF files the user chose, by model name (the file's name
	// without .gguf), beside the downloaded ones.
	Files map[string]string `json:"files,omitempty"`
	// Context is the context size in tokens (0: fitted to free memory).
	Context int `json:"context,omitempty"`
	// Threads (0: fitted to the CPU's cores).
	Threads int `json:"threads,omitempty"`
}

// ProviderSettings is one configured model provider. APIKey is a
// ${secret:NAME} reference, never a key.
type ProviderSettings struct {
	Name         string        `json:"name"`
	Kind         provider.Kind `json:"kind"`
	BaseURL      string        `json:"baseUrl,omitempty"`
	APIKey       string        `json:"apiKey,omitempty"`
	DefaultModel string        `json:"defaultModel,omitempty"`
	// Images says whether the provider's models accept images (tools'
	// images then reach them as images); nil: DefaultImages decides.
	Images *bool `json:"images,omitempty"`
	// Audio says whether the provider's models accept audio (tools' WAV
	// and MP3 clips then reach them as audio); nil: DefaultAudio decides.
	// Only OpenAI-compatible providers can: AcceptsAudio ignores it for
	// the others, whose APIs take no audio.
	Audio *bool `json:"audio,omitempty"`
	// ContextWindows override the context window (tokens) per model, for
	// models the provider does not say it of, or says wrong.
	ContextWindows map[string]int `json:"contextWindows,omitempty"`
}

// AcceptsImages says whether model (of this provider) is sent images: the
// provider's Images setting, else DefaultImages.
func (p ProviderSettings) AcceptsImages(model string) bool {
	if p.Images != nil {
		return *p.Images
	}
	return DefaultImages(p.Kind, p.BaseURL, model)
}

// DefaultImages is the default of ProviderSettings.Images: Anthropic's
// models, OpenAI's own and Gemini's (generativelanguage.googleapis.com)
// take images, but for the text-only models among them (textOnlyModel); on
// other OpenAI-compatible servers and Ollama, only models whose name says
// vision (visionModel: llava, -vl, gemma3, gemini, …) are sent them, since
// a text-only model refuses the request.
func DefaultImages(kind provider.Kind, baseURL, model string) bool {
	m := strings.ToLower(strings.TrimSpace(model))
	if textOnlyModel.MatchString(m) {
		return false
	}
	if kind == provider.KindAnthropic || kind == provider.KindOpenAI && visionHost(baseURL) {
		return true
	}
	return visionModel.MatchString(m)
}

// visionHost says whether an OpenAI-compatible base URL is OpenAI's own
// API (also when none is given) or Gemini's, whose models take images.
func visionHost(baseURL string) bool {
	if baseURL == "" || provider.DialectFor(provider.KindOpenAI, baseURL) == provider.DialectGemini {
		return true
	}
	u, err := url.Parse(baseURL)
	return err == nil && strings.EqualFold(u.Hostname(), "api.openai.com")
}

// visionModel matches the names (lower case) of models that take images,
// as APIs, routers and Ollama's library write them ("qwen2.5vl:7b",
// "Qwen/Qwen2.5-VL-7B-Instruct", "google/gemma-3-12b-it",
// "openai/o4-mini"): LLaVA and Qwen-VL-like families, InternVL, QVQ,
// MiniCPM-V, Moondream, Pixtral, Molmo, Idefics, Gemma 3, Llama 4 and
// 3.2 Vision, Granite Vision, Phi-4 multimodal, Mistral Small 3.1/3.2 and
// Medium 3, GLM-4.xV, GPT-4o/4.1/4-turbo/5, o1/o3/o4, Claude, Gemini, Grok 4
// and Grok's vision models.
var visionModel = regexp.MustCompile(`llava|vision|-vl|vl:|vl$|vlm|internvl|qvq|minicpm-v|moondream|pixtral|molmo|idefics|` +
	`gemma-?3|llama-?4|multimodal|mistral-small-?3\.[12]|mistral-small-(2503|2506|latest)|mistral-medium-(3|2505|2508|latest)|` +
	`glm-4(\.\d+)?v|gpt-4o|gpt-4\.1|gpt-4-turbo|gpt-5|(^|/)o[134]\b|claude|gemini|grok-4`)

// textOnlyModel matches the names of text-only models of families that
// otherwise take images, or that a vision provider serves: Gemma 3's 1B
// and 270M and Gemma 3n (Ollama and the Gemini API take text from it),
// GPT-3.5, GPT-4 (not Turbo), o1-mini, o1-preview, o3-mini, the audio and
// search previews, Claude 2 and Instant.
var textOnlyModel = regexp.MustCompile(`gemma-?3n|gemma-?3[:-](1b|270m)|(^|/)(gpt-3\.5|o1-mini|o1-preview|o3-mini)|` +
	`(^|/)gpt-4(-0314|-0613|-32k[\w-]*)?(:|$)|-(audio|search)-preview|(^|/)claude-(2|instant)`)

// AcceptsAudio says whether model (of this provider) is sent audio: never
// unless the provider speaks OpenAI's wire (Anthropic's and Ollama's APIs
// take no audio, whatever the setting says), else the provider's Audio
// setting, else DefaultAudio.
func (p ProviderSettings) AcceptsAudio(model string) bool {
	if p.Kind != provider.KindOpenAI {
		return false
	}
	if p.Audio != nil {
		return *p.Audio
	}
	return DefaultAudio(p.Kind, p.BaseURL, model)
}

// audioModels are words in the names of models that take audio input:
// gpt-4o-audio-preview, gpt-audio, gemini-*, voxtral-*, qwen2.5-omni, ….
var audioModels = []string{"audio", "gemini", "voxtral", "omni"}

// DefaultAudio is the default of ProviderSettings.Audio: only
// OpenAI-compatible providers, and only for models whose name says they
// take audio (audioModels), since other models refuse a request with
// input_audio.
func DefaultAudio(kind provider.Kind, baseURL, model string) bool {
	if kind != provider.KindOpenAI {
		return false
	}
	m := strings.ToLower(model)
	for _, k := range audioModels {
		if strings.Contains(m, k) {
			return true
		}
	}
	return false
}

// Audio says whether a turn with this provider ("" for the default) and
// model sends tools' audio to the model as audio.
func (s Settings) Audio(providerName, model string) bool {
	p, err := s.Provider(providerName)
	if err != nil {
		return false
	}
	if model == "" {
		model = p.DefaultModel
	}
	return p.AcceptsAudio(model)
}

// Images says whether a turn with this provider ("" for the default) and
// model sends tools' images to the model as images.
func (s Settings) Images(providerName, model string) bool {
	p, err := s.Provider(providerName)
	if err != nil {
		return false
	}
	if model == "" {
		model = p.DefaultModel
	}
	return p.AcceptsImages(model)
}

// Sentinel errors.
var (
	ErrUnknownProvider = errors.New("no provider with that name: add it in Settings → Models")
	ErrNoProvider      = errors.New("no model provider is set up: add one in Settings → Models (OpenAI, Anthropic, Ollama, or any OpenAI-compatible URL)")
)

// Default base URLs per kind.
var defaultBaseURL = map[provider.Kind]string{
	provider.KindOpenAI:    "https://api.openai.com/v1",
	provider.KindAnthropic: "https://api.anthropic.com",
	provider.KindOllama:    "http://127.0.0.1:11434",
	KindLocal:              "", // the host opens it (package localmodel)
}

// DefaultBaseURL is the base URL a provider kind uses when none is given.
func DefaultBaseURL(k provider.Kind) string { return defaultBaseURL[k] }

// settingsSection is the chat settings inside config.json's settings.
var settingsSection = config.Section[Settings]{Key: "chat"}

// LoadSettings reads the chat section of raw settings (a missing section is
// the zero Settings).
func LoadSettings(raw json.RawMessage) (Settings, error) {
	s, err := settingsSection.From(raw)
	if err != nil {
		return s, err
	}
	var problems []config.Problem
	if err := ValidToolMode(s.Tools); err != nil {
		problems = append(problems, config.Problem{Path: "settings.chat.tools", Severity: config.SeverityError,
			Message: err.Error() + "; set it to direct, code or both, or remove it to choose by the model's context window"})
	}
	// Every agent's problem at once, each at its JSON path (agent.go).
	problems = append(problems, agentProblems(s.Agents)...)
	if len(problems) > 0 {
		return s, &config.ValidationError{Kind: config.ErrSettings, Problems: problems}
	}
	return s, nil
}

// Into returns raw settings with the chat section replaced by s; other
// sections are kept byte for byte.
func (s Settings) Into(raw json.RawMessage) (json.RawMessage, error) {
	cfg := config.Config{Settings: raw}
	err := settingsSection.Put(&cfg, s)
	return cfg.Settings, err
}

// Provider returns the named provider's settings ("" = the default one).
func (s Settings) Provider(name string) (ProviderSettings, error) {
	if len(s.Providers) == 0 {
		return ProviderSettings{}, ErrNoProvider
	}
	if name == "" {
		name = s.DefaultProvider
	}
	if name == "" {
		return s.Providers[0], nil
	}
	i := slices.IndexFunc(s.Providers, func(p ProviderSettings) bool { return strings.EqualFold(p.Name, name) })
	if i < 0 {
		return ProviderSettings{}, fmt.Errorf("%q: %w", name, ErrUnknownProvider)
	}
	return s.Providers[i], nil
}

// Put adds p or replaces the provider of the same name.
func (s *Settings) Put(p ProviderSettings) error {
	if err := p.Validate(); err != nil {
		return err
	}
	if i := slices.IndexFunc(s.Providers, func(q ProviderSettings) bool { return strings.EqualFold(q.Name, p.Name) }); i >= 0 {
		s.Providers[i] = p
	} else {
		s.Providers = append(s.Providers, p)
	}
	if s.DefaultProvider == "" {
		s.DefaultProvider = p.Name
	}
	return nil
}

// Remove deletes the named provider.
func (s *Settings) Remove(name string) error {
	i := slices.IndexFunc(s.Providers, func(q ProviderSettings) bool { return strings.EqualFold(q.Name, name) })
	if i < 0 {
		return fmt.Errorf("%q: %w", name, ErrUnknownProvider)
	}
	s.Providers = slices.Delete(s.Providers, i, i+1)
	if strings.EqualFold(s.DefaultProvider, name) {
		s.DefaultProvider = ""
		if len(s.Providers) > 0 {
			s.DefaultProvider = s.Providers[0].Name
		}
	}
	return nil
}

// Validate checks one provider's settings and says what to fix.
func (p ProviderSettings) Validate() error {
	if strings.TrimSpace(p.Name) == "" {
		return errors.New("provider name is empty: give it a name such as \"OpenAI\" or \"Local Ollama\"")
	}
	if _, ok := defaultBaseURL[p.Kind]; !ok {
		return fmt.Errorf("provider %q: kind %q is not one of openai, anthropic, ollama, local", p.Name, p.Kind)
	}
	if p.BaseURL != "" {
		u, err := url.Parse(p.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("provider %q: base URL %q must be an http:// or https:// URL", p.Name, p.BaseURL)
		}
	}
	if p.APIKey != "" && !strings.HasPrefix(p.APIKey, "${") {
		return fmt.Errorf("provider %q: the API key must be stored as a secret and referenced as ${secret:NAME}, not written in the config", p.Name)
	}
	return nil
}

// Open builds the provider, resolving its key reference with lookup
// (secrets.Store.Lookup).
func (p ProviderSettings) Open(lookup func(kind, name string) (string, error)) (provider.Provider, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	key := p.APIKey
	if key != "" {
		var err error
		if key, err = secrets.Expand(key, lookup); err != nil {
			return nil, fmt.Errorf("provider %q key: %w", p.Name, err)
		}
	}
	if p.Kind == KindLocal {
		return nil, fmt.Errorf("provider %q runs on this computer: open it through the host, which starts its runtime", p.Name)
	}
	base := p.BaseURL
	if base == "" {
		base = defaultBaseURL[p.Kind]
	}
	return provider.New(provider.Config{Kind: p.Kind, Name: p.Name, BaseURL: base, APIKey: key})
}
