package host

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
)

// How long a provider's model list is trusted for context windows, and
// how long one that could not be listed is not asked again (a turn must
// not wait for a provider that is down at every step).
var (
	modelListTTL     = 10 * time.Minute
	modelListRetry   = time.Minute
	modelListTimeout = 2 * time.Second
	// modelListMiss: a model the list did not have is asked for again
	// after this long, not after modelListTTL.
	modelListMiss = 5 * time.Second
)

type modelList struct {
	at      time.Time
	windows map[string]int // model ID → context window (0: not said)
	failed  bool
}

var modelLists sync.Map // provider name + base URL → modelList

// ContextWindow is the context window of model at the provider named
// providerName ("" for the default), in tokens: what the provider's model
// list says (OpenRouter, LM Studio, vLLM, Anthropic say it), else what is
// known of the model's family (provider.KnownContextWindow), else 0 — the
// caller assumes a conservative window then.
func (c *Chats) ContextWindow(ctx context.Context, s chat.Settings, providerName, model string) int {
	h := c.h
	ps, err := s.Provider(providerName)
	if err != nil {
		return provider.KnownContextWindow(model)
	}
	if model == "" {
		model = ps.DefaultModel
	}
	if w := ps.ContextWindows[model]; w > 0 {
		return w
	}
	if ps.Kind == chat.KindLocal { // the context it runs (or would run) with
		if plan, _, err := h.Local.Plan(s, model); err == nil {
			return plan.Context
		}
		return 0
	}
	key := ps.Name + "\x00" + ps.BaseURL
	l, _ := modelLists.Load(key)
	ml, ok := l.(modelList)
	_, listed := ml.windows[model]
	if !ok || time.Since(ml.at) > modelListTTL || ml.failed && time.Since(ml.at) > modelListRetry ||
		!listed && !ml.failed && time.Since(ml.at) > modelListMiss { // a model loaded since (LM Studio, Ollama pull)
		ml = modelList{at: time.Now(), windows: map[string]int{}}
		p, err := ps.Open(h.store.Lookup)
		if err == nil {
			lctx, cancel := context.WithTimeout(ctx, modelListTimeout)
			var ms []provider.Model
			ms, err = p.Models(lctx)
			cancel()
			for _, m := range ms {
				ml.windows[m.ID] = m.ContextWindow
			}
		}
		ml.failed = err != nil
		modelLists.Store(key, ml)
	}
	if w := ml.windows[model]; w > 0 {
		return w
	}
	for id, w := range ml.windows { // "claude-sonnet-4-5" listed as "claude-sonnet-4-5-20250929"
		if w > 0 && strings.HasPrefix(id, model+"-") {
			return w
		}
	}
	return provider.KnownContextWindow(model)
}
