package localmodel

import (
	"crypto/subtle"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"
	"sync"
	"time"
)

// guard is the app's door to llama-server where it listens on a loopback
// TCP port rather than a Unix socket (Windows, endpoint_windows.go): a
// reverse proxy on a loopback port of its own that passes on only what
// the app itself sends. llama-server answers any Origin with credentials
// allowed (its --cors-origins changes the headers, and the request still
// runs) and takes any Host, so without it a web page in the user's browser
// could send it requests, directly or through a name of its own rebound to
// 127.0.0.1. The guard refuses, before llama-server sees anything:
//   - a Host other than 127.0.0.1:PORT or localhost:PORT, its own address
//     (after DNS rebinding the browser still sends the page's own name);
//   - an Origin or Sec-Fetch-Site header, of any value: browsers send
//     them (Origin on every cross-origin request and every POST), the
//     app's client never does;
//   - a request without the key (Authorization: Bearer KEY).
//
// It is plain Go, built and tested on every system, though only Windows
// runs it.
type guard struct {
	key   string
	ln    net.Listener
	srv   *http.Server
	proxy *httputil.ReverseProxy
	hosts [2]string // the Host values it answers

	mu      sync.Mutex
	backend string // llama-server's host:port; "" before it is started
}

// newGuard listens on a free loopback port.
func newGuard(key string) (*guard, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	g := &guard{key: key, ln: ln, hosts: [2]string{"127.0.0.1:" + port, "localhost:" + port}}
	g.proxy = &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(&url.URL{Scheme: "http", Host: g.target()})
		},
		FlushInterval: -1, // a streamed answer's events as they come
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			refuse(w, http.StatusBadGateway, "the model on this computer is not answering (it may be restarting): "+err.Error())
		},
	}
	// Requests' headers within a bound; no write timeout, since an answer
	// streams for minutes.
	g.srv = &http.Server{Handler: g, ReadHeaderTimeout: 30 * time.Second}
	go func() { _ = g.srv.Serve(ln) }()
	return g, nil
}

// addr is the guard's own host:port, the one the app asks.
func (g *guard) addr() string { return g.hosts[0] }

// setBackend points the guard at llama-server's host:port (each run gets
// a port of its own).
func (g *guard) setBackend(hostport string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.backend = hostport
}

func (g *guard) target() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.backend
}

// refusedBy starts the message of each refusal.
const refusedBy = "refused by the local model's guard"

func (g *guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Host != g.hosts[0] && r.Host != g.hosts[1]:
		refuse(w, http.StatusMisdirectedRequest, refusedBy+": Host "+strconv.Quote(r.Host)+" is not this server's")
	case r.Header.Values("Origin") != nil || r.Header.Values("Sec-Fetch-Site") != nil:
		refuse(w, http.StatusForbidden, refusedBy+": a browser's request (it has an Origin or Sec-Fetch-Site header)")
	case !g.authorized(r.Header.Get("Authorization")):
		refuse(w, http.StatusUnauthorized, refusedBy+": the API key is missing or wrong")
	case g.target() == "":
		refuse(w, http.StatusServiceUnavailable, "the model on this computer is starting")
	default:
		g.proxy.ServeHTTP(w, r)
	}
}

// authorized compares the key in constant time.
func (g *guard) authorized(h string) bool {
	const prefix = "Bearer "
	if len(h) < len(prefix) || h[:len(prefix)] != prefix {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(h[len(prefix):]), []byte(g.key)) == 1
}

// refuse answers in the OpenAI error shape the app's provider reads.
func refuse(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": msg, "code": status}})
}

// close stops listening and ends the connections.
func (g *guard) close() error { return g.srv.Close() }
