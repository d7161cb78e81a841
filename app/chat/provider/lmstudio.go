package provider

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"
)

// lmStudioTimeout bounds the extra request for LM Studio's model list.
var lmStudioTimeout = 1500 * time.Millisecond

// lmStudioWindows fills the context windows of models no window is known
// of from LM Studio's own REST API (GET /api/v0/models, beside its
// OpenAI-compatible /v1): its /v1/models says nothing of them, and a
// loaded model refuses or cuts a request longer than the context it was
// loaded with (loaded_context_length), whatever its maximum. Other servers
// answer 404 and nothing changes; api.openai.com is not asked.
func (p *openAIProvider) lmStudioWindows(ctx context.Context, ms []Model) {
	var list struct {
		Data []struct {
			ID     string `json:"id"`
			Loaded int    `json:"loaded_context_length"`
			Max    int    `json:"max_context_length"`
		} `json:"data"`
	}
	if !p.windowsFrom(ctx, ms, "/api/v0/models", &list) {
		return
	}
	for i := range ms {
		for _, d := range list.Data {
			if d.ID != ms[i].ID || ms[i].ContextWindow != 0 {
				continue
			}
			if d.Loaded > 0 {
				ms[i].ContextWindow = d.Loaded
			} else {
				ms[i].ContextWindow = d.Max
			}
		}
	}
}

// windowsFrom decodes into v the JSON a local server answers at path
// (beside its OpenAI-compatible /v1) when some model of ms has no known
// window; false when none is missing, the server is api.openai.com, or the
// request or its answer fails (other servers answer 404). LM Studio's
// /api/v0/models and llama.cpp's /props are read through it.
func (p *openAIProvider) windowsFrom(ctx context.Context, ms []Model, path string, v any) bool {
	if p.base == nil || strings.EqualFold(p.base.Hostname(), "api.openai.com") {
		return false
	}
	if !slices.ContainsFunc(ms, func(m Model) bool { return m.ContextWindow == 0 }) {
		return false
	}
	u := *p.base
	u.Path = strings.TrimSuffix(strings.TrimSuffix(u.Path, "/"), "/v1") + path
	ctx, cancel := context.WithTimeout(ctx, lmStudioTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return false
	}
	c := p.httpc
	if c == nil {
		c = http.DefaultClient
	}
	res, err := c.Do(req)
	if err != nil {
		return false
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return false
	}
	return json.NewDecoder(io.LimitReader(res.Body, 4<<20)).Decode(v) == nil
}
