package apps

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// MaxPages bounds the proxy pages registered at once; the oldest goes first
// (a card still showing it keeps its already loaded frame).
var MaxPages = 512

// Proxy is the sandbox proxy the spec asks of web hosts: a page on
// 127.0.0.1 and a random port (an origin that is never the window's), in
// which the app's HTML runs in an inner frame sandboxed without
// allow-same-origin. The page's Content-Security-Policy header is built from
// the resource's _meta.ui.csp by the Go side, and the inner frame's
// document (srcdoc) inherits it, so nothing the window or the app sends can
// loosen it. Each page is reached by an unguessable token.
type Proxy struct {
	ln  net.Listener
	srv *http.Server

	mu    sync.Mutex
	pages map[string]page
	order []string
}

type page struct {
	csp, allow string
}

// Listen starts the proxy on 127.0.0.1 and a random port.
func Listen() (*Proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("apps: sandbox proxy: %w", err)
	}
	p := &Proxy{ln: ln, pages: map[string]page{}}
	p.srv = &http.Server{Handler: p, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = p.srv.Serve(ln) }()
	return p, nil
}

// Origin is the proxy's origin, http://127.0.0.1:PORT.
func (p *Proxy) Origin() string { return "http://" + p.ln.Addr().String() }

// Close stops the proxy.
func (p *Proxy) Close(ctx context.Context) error { return p.srv.Shutdown(ctx) }

// Register makes a proxy page for res and returns its URL.
func (p *Proxy) Register(res Resource) string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	tok := hex.EncodeToString(b[:])
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pages[tok] = page{csp: res.Meta.Header(), allow: res.Meta.Permissions.Allow()}
	p.order = append(p.order, tok)
	for len(p.order) > MaxPages {
		delete(p.pages, p.order[0])
		p.order = p.order[1:]
	}
	return p.Origin() + "/sandbox?t=" + tok
}

// ServeHTTP serves /sandbox?t=TOKEN and nothing else.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Host != p.ln.Addr().String() { // DNS rebinding: only our own origin
		http.Error(w, "wrong host", http.StatusMisdirectedRequest)
		return
	}
	p.mu.Lock()
	pg, ok := p.pages[r.URL.Query().Get("t")]
	p.mu.Unlock()
	if r.URL.Path != "/sandbox" || r.Method != http.MethodGet || !ok {
		http.NotFound(w, r)
		return
	}
	allow, _ := json.Marshal(pg.allow)
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", pg.csp)
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	_, _ = w.Write([]byte(strings.Replace(proxyPage, "__ALLOW__", string(allow), 1)))
}

// proxyPage relays JSON-RPC between the window (its parent) and the app
// (its inner frame), except the sandbox-* notifications it handles itself:
// it says sandbox-proxy-ready, and loads the HTML that sandbox-resource-ready
// carries once. The inner frame's sandbox and allow are fixed here; the
// message's own sandbox, csp and permissions fields are ignored.
const proxyPage = `<!doctype html>
<html><head><meta charset="utf-8"><title>app sandbox</title>
<style>html,body{margin:0;padding:0;height:100%;overflow:hidden;background:transparent}iframe{border:0;width:100%;height:100%;display:block}</style>
</head><body><script>
(function () {
  var ALLOW = __ALLOW__;
  var anc = window.location.ancestorOrigins;
  var host = (anc && anc.length && anc[0]) || '*';
  if (host === 'null') host = '*';
  var inner = document.createElement('iframe');
  inner.setAttribute('sandbox', 'allow-scripts allow-forms');
  if (ALLOW) inner.setAttribute('allow', ALLOW);
  inner.setAttribute('title', 'MCP app');
  document.body.appendChild(inner);
  var loaded = false;
  var PREFIX = 'ui/notifications/sandbox-';
  window.addEventListener('message', function (e) {
    var d = e.data;
    var method = d && typeof d === 'object' ? d.method : undefined;
    if (e.source === window.parent) {
      if (method === PREFIX + 'resource-ready') {
        if (!loaded && d.params && typeof d.params.html === 'string') {
          loaded = true;
          inner.srcdoc = d.params.html;
        }
        return;
      }
      if (typeof method === 'string' && method.indexOf(PREFIX) === 0) return;
      if (inner.contentWindow) inner.contentWindow.postMessage(d, '*');
    } else if (e.source === inner.contentWindow) {
      if (typeof method === 'string' && method.indexOf(PREFIX) === 0) return;
      window.parent.postMessage(d, host);
    }
  });
  window.parent.postMessage({ jsonrpc: '2.0', method: PREFIX + 'proxy-ready', params: {} }, host);
})();
</script></body></html>`
