package gui

import (
	"slices"
	"testing"
)

// TestProviderImagesSetting: whether a provider's models get tools'
// images is saved from the form ("on", "off", "" for automatic), shown
// with the automatic answer, and what a chat turn uses.
func TestProviderImagesSetting(t *testing.T) {
	a := newChatApp(t)
	for _, tc := range []struct {
		in           ProviderInput
		wantImages   string
		wantDefault  bool
		turnGetsThem bool
	}{
		{ProviderInput{Name: "Claude", Kind: "anthropic", DefaultModel: "claude-x"}, "", true, true},
		{ProviderInput{Name: "Local", Kind: "openai", BaseURL: "http://127.0.0.1:1234/v1", DefaultModel: "qwen2.5-coder"}, "", false, false},
		{ProviderInput{Name: "Vision", Kind: "ollama", DefaultModel: "llava:13b"}, "", true, true},
		{ProviderInput{Name: "Forced", Kind: "openai", BaseURL: "http://127.0.0.1:1234/v1", DefaultModel: "qwen2.5-coder", Images: "on"}, "on", false, true},
		{ProviderInput{Name: "Off", Kind: "anthropic", DefaultModel: "claude-x", Images: "off"}, "off", true, false},
	} {
		if err := a.SettingsPage.SaveProvider(tc.in); err != nil {
			t.Fatal(err)
		}
		v, err := a.SettingsPage.ChatSettings()
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(v.Providers, func(p ProviderView) bool { return p.Name == tc.in.Name })
		if i < 0 || v.Providers[i].Images != tc.wantImages || v.Providers[i].ImagesDefault != tc.wantDefault {
			t.Errorf("%s: view %+v", tc.in.Name, v.Providers)
		}
		s, err := a.h.Settings.Chat()
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Images(tc.in.Name, ""); got != tc.turnGetsThem {
			t.Errorf("%s: a turn gets images %v, want %v", tc.in.Name, got, tc.turnGetsThem)
		}
	}
	if err := a.SettingsPage.SaveProvider(ProviderInput{Name: "Bad", Kind: "openai", Images: "maybe"}); err == nil {
		t.Error("images \"maybe\" was accepted")
	}
}

// TestProviderAudioSetting: whether a provider's models get tools' audio
// is saved from the form, shown with the automatic answer, and what a chat
// turn uses — and Anthropic and Ollama never get audio, whatever was sent.
func TestProviderAudioSetting(t *testing.T) {
	a := newChatApp(t)
	for _, tc := range []struct {
		in          ProviderInput
		wantAudio   string
		wantDefault bool
		turnGets    bool
	}{
		{ProviderInput{Name: "GPT", Kind: "openai", DefaultModel: "gpt-4o-audio-preview"}, "", true, true},
		{ProviderInput{Name: "Local", Kind: "openai", BaseURL: "http://127.0.0.1:1234/v1", DefaultModel: "qwen2.5-coder"}, "", false, false},
		{ProviderInput{Name: "Forced", Kind: "openai", BaseURL: "http://127.0.0.1:1234/v1", DefaultModel: "qwen2.5-coder", Audio: "on"}, "on", false, true},
		{ProviderInput{Name: "Muted", Kind: "openai", DefaultModel: "gpt-audio", Audio: "off"}, "off", true, false},
		{ProviderInput{Name: "Claude", Kind: "anthropic", DefaultModel: "claude-audio", Audio: "on"}, "", false, false},
		{ProviderInput{Name: "Llama", Kind: "ollama", DefaultModel: "qwen2.5-omni", Audio: "on"}, "", false, false},
	} {
		if err := a.SettingsPage.SaveProvider(tc.in); err != nil {
			t.Fatal(err)
		}
		v, err := a.SettingsPage.ChatSettings()
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(v.Providers, func(p ProviderView) bool { return p.Name == tc.in.Name })
		if i < 0 || v.Providers[i].Audio != tc.wantAudio || v.Providers[i].AudioDefault != tc.wantDefault {
			t.Errorf("%s: view %+v", tc.in.Name, v.Providers)
		}
		s, err := a.h.Settings.Chat()
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Audio(tc.in.Name, ""); got != tc.turnGets {
			t.Errorf("%s: a turn gets audio %v, want %v", tc.in.Name, got, tc.turnGets)
		}
	}
	if err := a.SettingsPage.SaveProvider(ProviderInput{Name: "Bad", Kind: "openai", Audio: "loud"}); err == nil {
		t.Error("audio \"loud\" was accepted")
	}
}
