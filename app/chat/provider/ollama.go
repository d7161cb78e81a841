package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// DetectTimeout bounds DetectOllama; a local server answers in
// milliseconds, and the check runs while a settings page waits.
var DetectTimeout = 2 * time.Second

// newOllama chats through Ollama's OpenAI-compatible API at base/v1 and
// lists the pulled models from base/api/tags, which every Ollama version
// serves (its /v1/models came later).
func newOllama(cfg Config, base *url.URL) *openAIProvider {
	v1 := *base
	v1.Path = strings.TrimSuffix(base.Path, "/") + "/v1"
	tags := strings.TrimSuffix(base.String(), "/") + "/api/tags"
	hc, name, key := cfg.HTTPClient, cfg.Name, cfg.APIKey
	return newOpenAI(cfg, &v1, func(ctx context.Context) ([]Model, error) {
		list, err := ollamaTags(ctx, hc, tags, key)
		if err != nil {
			return nil, classify(ctx, name, opModels, "", err)
		}
		out := make([]Model, 0, len(list))
		for _, m := range list {
			out = append(out, Model{ID: m, Name: m})
		}
		sortModels(out)
		return out, nil
	})
}

// ollamaTags returns the model names GET url (…/api/tags) lists. A
// response that is not Ollama's shape is an error.
func ollamaTags(ctx context.Context, hc *http.Client, tagsURL, key string) ([]string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, tagsURL, nil)
	if err != nil {
		return nil, err
	}
	if key != "" {
		// Ollama ignores it; a reverse proxy in front may want it.
		req.Header.Set("Authorization", "Bearer "+key)
	}
	res, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	if res.StatusCode >= 400 {
		body, _ := io.ReadAll(io.LimitReader(res.Body, maxErrorBody))
		return nil, &statusError{status: res.StatusCode, header: res.Header, message: errorMessage(body, res.StatusCode, key)}
	}
	var v struct {
		Models *[]struct {
			Name  string `json:"name"`
			Model string `json:"model"`
		} `json:"models"`
	}
	if err := json.NewDecoder(io.LimitReader(res.Body, 16<<20)).Decode(&v); err != nil || v.Models == nil {
		return nil, errNotOllama
	}
	out := make([]string, 0, len(*v.Models))
	for _, m := range *v.Models {
		n := m.Name
		if n == "" {
			n = m.Model
		}
		out = append(out, n)
	}
	return out, nil
}

// errNotOllama is an /api/tags answer that is not Ollama's.
var errNotOllama = errors.New("the server answered, but not like Ollama (no model list at /api/tags); check the base URL")

// DetectOllama says whether an Ollama server answers at baseURL ("" means
// DefaultOllamaURL), by asking for its model list within DetectTimeout.
// Nothing answering, or something else answering, is (false, nil); the
// error is for a base URL that cannot be used or a done ctx.
func DetectOllama(ctx context.Context, baseURL string) (bool, error) {
	if baseURL == "" {
		baseURL = DefaultOllamaURL
	}
	base, err := checkBaseURL(baseURL)
	if err != nil {
		return false, &Error{Provider: string(KindOllama), Op: "detect", Err: err}
	}
	base.Path = strings.TrimSuffix(strings.TrimSuffix(base.Path, "/"), "/v1")
	dctx, cancel := context.WithTimeout(ctx, DetectTimeout)
	defer cancel()
	_, err = ollamaTags(dctx, defaultHTTPClient(), strings.TrimSuffix(base.String(), "/")+"/api/tags", "")
	switch {
	case err == nil:
		return true, nil
	case ctx.Err() != nil:
		return false, fmt.Errorf("detect Ollama: %w", ctx.Err())
	default:
		return false, nil
	}
}
