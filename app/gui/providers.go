package gui

import "github.com/switchboard-app/switchboard/app/host"

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
	Sampling host.Sampling `json:"sampling"`
	// CompactAt, ResultShare and KeepMB are the long-chat settings with
	// their defaults filled in; ResultBudgets ("server__tool=chars") and
	// ContextWindows ("provider/model=tokens") are lines as the form
	// edits them.
	CompactAt      int      `json:"compactAt"`
	ResultShare    int      `json:"resultShare"`
	KeepMB         int      `json:"keepMB"`
	ResultBudgets  []string `json:"resultBudgets"`
	ContextWindows []string `json:"contextWindows"`
	// Tools is settings.chat.tools: "direct", "code", "both", or "" for
	// code mode up to CodeModeWindow tokens of context, direct above.
	Tools          string `json:"tools"`
	CodeModeWindow int    `json:"codeModeWindow"`
}
