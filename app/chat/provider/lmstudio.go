package provider

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
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
	if p.base == nil || strings.EqualFold(p.base.Hostname(), "api.openai.com") {
		return
	}
	missing := false
	for _, m := range ms {
		missing = missing || m.ContextWindow == 0
	}
	if !missing {
		return
	}
	u := *p.base
	u.Path = strings.TrimSuffix(strings.TrimSuffix(u.Path, "/"), "/v1") + "/api/v0/models"
	ctx, cancel := context.WithTimeout(ctx, lmStudioTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return
	}
	c := p.httpc
	if c == nil {
		c = http.DefaultClient
	}
	res, err := c.Do(req)
	if err != nil {
		return
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return
	}
	var list struct {
		Data []struct {
			ID     string `json:"id"`
			Loaded int    `json:"loaded_context_length"`
			Max    int    `json:"max_context_length"`
		} `json:"data"`
	}
	if json.NewDecoder(io.LimitReader(res.Body, 4<<20)).Decode(&list) != nil {
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
