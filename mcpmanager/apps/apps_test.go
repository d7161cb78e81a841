package apps

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

func toolWith(meta map[string]any) mcp.Tool {
	t := mcp.NewTool("t")
	if meta != nil {
		t.Meta = &mcp.Meta{AdditionalFields: meta}
	}
	return t
}

func TestVisibility(t *testing.T) {
	for _, tc := range []struct {
		name       string
		meta       map[string]any
		uri        string
		model, app bool
	}{
		{"no _meta", nil, "", true, true},
		{"ui without visibility", map[string]any{"ui": map[string]any{"resourceUri": "ui://a/b"}}, "ui://a/b", true, true},
		{"app only", map[string]any{"ui": map[string]any{"resourceUri": "ui://a/b", "visibility": []any{"app"}}}, "ui://a/b", false, true},
		{"model only", map[string]any{"ui": map[string]any{"visibility": []any{"model"}}}, "", true, false},
		{"empty list", map[string]any{"ui": map[string]any{"visibility": []any{}}}, "", false, false},
		{"deprecated flat key", map[string]any{"ui/resourceUri": "ui://x/y"}, "ui://x/y", true, true},
		{"not ui scheme", map[string]any{"ui": map[string]any{"resourceUri": "https://evil/x"}}, "", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tool := toolWith(tc.meta)
			if got := ToolUI(tool).ResourceURI; got != tc.uri {
				t.Errorf("resourceUri %q, want %q", got, tc.uri)
			}
			if got := ModelVisible(tool); got != tc.model {
				t.Errorf("ModelVisible %v, want %v", got, tc.model)
			}
			if got := AppVisible(tool); got != tc.app {
				t.Errorf("AppVisible %v, want %v", got, tc.app)
			}
		})
	}
}

func TestCSP(t *testing.T) {
	for _, tc := range []struct {
		name      string
		meta      map[string]any
		want      []string // directives that must appear
		wantNot   []string // substrings that must not
		wantAllow string
	}{
		{"no _meta.ui: the spec's default", nil, []string{"default-src 'none'", "connect-src 'none'", "frame-src 'none'"}, []string{"http"}, ""},
		{"declared domains map to their directives", map[string]any{"ui": map[string]any{"csp": map[string]any{
			"connectDomains": []any{"https://api.example.com"}, "resourceDomains": []any{"https://*.cdn.net"},
			"frameDomains": []any{"https://www.youtube.com"}, "baseUriDomains": []any{"https://base.example"}}}},
			[]string{"connect-src https://api.example.com", "script-src 'self' 'unsafe-inline' https://*.cdn.net", "frame-src https://www.youtube.com", "base-uri https://base.example", "object-src 'none'"}, nil, ""},
		{"smuggled keywords and directives are dropped", map[string]any{"ui": map[string]any{"csp": map[string]any{
			"connectDomains": []any{"*", "https:", "'unsafe-eval'", "https://a.com; script-src *", "file:///etc", "http://127.0.0.1:9"}}}},
			[]string{"connect-src http://127.0.0.1:9;"}, []string{"unsafe-eval", "file:", "script-src *", "https:;"}, ""},
		{"permissions map to allow, only the four", map[string]any{"ui": map[string]any{"permissions": map[string]any{
			"camera": map[string]any{}, "clipboardWrite": map[string]any{}, "usb": map[string]any{}}}},
			[]string{"connect-src 'none'"}, nil, "camera; clipboard-write"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := ParseMeta(tc.meta)
			h := m.Header()
			for _, w := range tc.want {
				if !strings.Contains(h+";", w) {
					t.Errorf("policy %q lacks %q", h, w)
				}
			}
			for _, w := range tc.wantNot {
				if strings.Contains(h, w) {
					t.Errorf("policy %q has %q", h, w)
				}
			}
			if got := m.Permissions.Allow(); got != tc.wantAllow {
				t.Errorf("allow %q, want %q", got, tc.wantAllow)
			}
		})
	}
}

type reader struct {
	n    atomic.Int32
	html string
	mime string
}

func (r *reader) ReadResource(_ context.Context, _, uri string) (*mcp.ReadResourceResult, error) {
	r.n.Add(1)
	return &mcp.ReadResourceResult{Contents: []mcp.ResourceContents{mcp.TextResourceContents{
		URI: uri, MIMEType: r.mime, Text: r.html,
		Meta: map[string]any{"ui": map[string]any{"csp": map[string]any{"connectDomains": []any{"https://api.example.com"}}}}}}}, nil
}

type changes chan struct{}

func (c changes) Subscribe() (<-chan struct{}, func()) { return c, func() {} }

func TestCache(t *testing.T) {
	r := &reader{html: "<p>v1</p>", mime: MIMEType}
	c := NewCache(r)
	for range 3 {
		res, err := c.Read(t.Context(), "s", "ui://s/app.html")
		if err != nil || res.HTML != "<p>v1</p>" || res.Meta.CSP == nil || res.Meta.CSP.ConnectDomains[0] != "https://api.example.com" {
			t.Fatalf("read: %+v %v", res, err)
		}
	}
	if n := r.n.Load(); n != 1 {
		t.Errorf("read %d times, want once (cached)", n)
	}
	// A list change drops the cache: the next read asks the server again.
	ch := make(changes)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { c.Follow(ctx, ch); close(done) }()
	r.html = "<p>v2</p>"
	ch <- struct{}{}
	ch <- struct{}{} // the first was taken before this send: Drop ran
	cancel()
	<-done
	if res, err := c.Read(t.Context(), "s", "ui://s/app.html"); err != nil || res.HTML != "<p>v2</p>" || r.n.Load() != 2 {
		t.Errorf("after a change: %q %v, %d reads", res.HTML, err, r.n.Load())
	}
	// Not a ui:// URI, or not an app's MIME type: refused, not cached.
	if _, err := c.Read(t.Context(), "s", "file:///etc/passwd"); !errors.Is(err, ErrNotUI) {
		t.Errorf("file URI: %v", err)
	}
	r.mime = "text/plain"
	if _, err := c.Read(t.Context(), "s", "ui://s/other.html"); !errors.Is(err, ErrNoContent) {
		t.Errorf("text/plain: %v", err)
	}
}

func TestProxy(t *testing.T) {
	p, err := Listen()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close(context.Background()) })
	url := p.Register(Resource{Meta: ParseMeta(map[string]any{"ui": map[string]any{"permissions": map[string]any{"microphone": map[string]any{}}}})})
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("url %q is not loopback", url)
	}
	get := func(u string) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, u, nil)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res, string(b)
	}
	res, body := get(url)
	if res.StatusCode != 200 || res.Header.Get("Content-Security-Policy") != DefaultCSP {
		t.Errorf("page: %d, CSP %q", res.StatusCode, res.Header.Get("Content-Security-Policy"))
	}
	if !strings.Contains(body, `var ALLOW = "microphone"`) || !strings.Contains(body, "allow-scripts allow-forms'") || strings.Contains(body, "allow-same-origin") {
		t.Errorf("page does not sandbox the inner frame as expected:\n%s", body)
	}
	if res, _ := get(p.Origin() + "/sandbox?t=guess"); res.StatusCode != http.StatusNotFound {
		t.Errorf("unknown token: %d", res.StatusCode)
	}
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, url, nil)
	req.Host = "evil.example:80"
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("rebound host: %v %v", res, err)
	}
}
