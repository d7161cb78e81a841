package gui

import (
	"errors"
	"fmt"
	"testing"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/history"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// A search hit opens its chat at the hit: the page around it, and whether
// older and newer messages remain.
func TestChatMessagesAround(t *testing.T) {
	a := newChatApp(t)
	c, err := a.ChatPage.NewChat("", "")
	if err != nil {
		t.Fatal(err)
	}
	h, err := history.Open(t.Context(), a.dir.History())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	ids := map[int]string{}
	for i := 1; i <= 20; i++ {
		m, err := h.AppendMessage(t.Context(), history.Message{ChatID: c.ID, Role: history.RoleUser, Text: fmt.Sprintf("m%d", i)})
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = m.ID
	}
	tests := []struct {
		name              string
		at, limit         int
		want              string
		hasMore, hasNewer bool
	}{
		{name: "middle", at: 10, limit: 6, want: "[m8 m9 m10 m11 m12 m13]", hasMore: true, hasNewer: true},
		{name: "near the start", at: 2, limit: 6, want: "[m1 m2 m3 m4 m5]", hasNewer: true},
		{name: "near the end", at: 19, limit: 6, want: "[m15 m16 m17 m18 m19 m20]", hasMore: true},
		{name: "the last", at: 20, limit: 6, want: "[m15 m16 m17 m18 m19 m20]", hasMore: true},
		{name: "the whole chat", at: 5, limit: 100, want: fmt.Sprint(texts(1, 20)), hasNewer: false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := a.ChatPage.ChatMessagesAround(c.ID, ids[tc.at], tc.limit)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range p.Messages {
				got = append(got, m.Text)
			}
			if fmt.Sprint(got) != tc.want || p.HasMore != tc.hasMore || p.HasNewer != tc.hasNewer {
				t.Errorf("around m%d = %v hasMore %v hasNewer %v, want %v %v %v", tc.at, got, p.HasMore, p.HasNewer, tc.want, tc.hasMore, tc.hasNewer)
			}
		})
	}
	// Paging on from the hit (newer pages read with ChatMessagesPage) says when the end is reached.
	p, err := a.ChatPage.ChatMessagesPage(c.ID, 21, 5)
	if err != nil || p.HasNewer || p.Messages[len(p.Messages)-1].Text != "m20" {
		t.Errorf("page up to the end: %+v, %v; want it to end at m20 with nothing newer", p, err)
	}
	if _, err := a.ChatPage.ChatMessagesAround(c.ID, "no-such-message", 6); !errors.Is(err, history.ErrNotFound) {
		t.Errorf("unknown message: %v, want ErrNotFound", err)
	}
}

func texts(from, to int) []string {
	var out []string
	for i := from; i <= to; i++ {
		out = append(out, fmt.Sprintf("m%d", i))
	}
	return out
}

// New chat goes on with the model in use (the window passes it), not the
// default provider's; a provider removed since gives way to the default.
func TestNewChatKeepsTheModelInUse(t *testing.T) {
	a := newChatApp(t)
	if _, err := config.Edit(t.Context(), a.dir.Config(), func(c *config.Config) error {
		s, err := chat.LoadSettings(c.Settings)
		if err != nil {
			return err
		}
		if err := s.Put(chat.ProviderSettings{Name: "Other", Kind: provider.KindOpenAI, BaseURL: a.llm.URL(provider.KindOpenAI), DefaultModel: "o1"}); err != nil {
			return err
		}
		c.Settings, err = s.Into(c.Settings)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, provider, model   string
		wantProvider, wantModel string
	}{
		{name: "defaults", wantProvider: "Fake", wantModel: "m1"},
		{name: "the model in use", provider: "Other", model: "picked-model", wantProvider: "Other", wantModel: "picked-model"},
		{name: "a provider without a model", provider: "Other", wantProvider: "Other", wantModel: "o1"},
		{name: "a provider removed since", provider: "Gone", model: "gone-model", wantProvider: "Fake", wantModel: "m1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := a.ChatPage.NewChat(tc.provider, tc.model)
			if err != nil {
				t.Fatal(err)
			}
			if c.Provider != tc.wantProvider || c.Model != tc.wantModel {
				t.Errorf("new chat uses %s/%s, want %s/%s", c.Provider, c.Model, tc.wantProvider, tc.wantModel)
			}
		})
	}
}
