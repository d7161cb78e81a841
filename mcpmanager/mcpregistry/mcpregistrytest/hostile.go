package mcpregistrytest

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"time"
)

// Ways a hostile registry misbehaves (StartHostile).
const (
	// RepeatCursor: every page names the same nextCursor.
	RepeatCursor = "repeat-cursor"
	// EndlessPages: every page names a new nextCursor, for ever.
	EndlessPages = "endless-pages"
	// SlowDrip: the body starts, then one byte every 20 ms.
	SlowDrip = "slow-drip"
	// CutOff: the body promises 4 KB and ends after half a listing.
	CutOff = "cut-off"
	// Oversize: a listing of about 64 KB.
	Oversize = "oversize"
	// Redirect: every request is redirected to Hostile.Target (another
	// origin).
	Redirect = "redirect"
)

// MaxRequests bounds a hostile registry: after that many requests it
// answers 410 Gone, so a client that never stops still ends.
const MaxRequests = 1000

// Hostile is a running hostile registry on 127.0.0.1. It stops when its
// context ends; a slow drip also stops after 10 seconds or when the client
// goes away.
type Hostile struct {
	URL      string
	Mode     string
	Target   string // where Redirect sends every request
	Requests atomic.Int64
}

// StartHostile serves mode until ctx ends.
func StartHostile(ctx context.Context, mode string) (*Hostile, error) {
	h := &Hostile{Mode: mode}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	h.URL = "http://" + ln.Addr().String()
	srv := &http.Server{Handler: h}
	go func() { _ = srv.Serve(ln) }()
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	return h, nil
}

const onePage = `{"servers": [{"server": {"name": "io.github.evil/page-%d", "description": "d", "version": "1.0.0",
	"remotes": [{"type": "streamable-http", "url": "https://evil.example/mcp"}]}}], "metadata": {"nextCursor": %q, "count": 1}}`

func (h *Hostile) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n := h.Requests.Add(1)
	if n > MaxRequests {
		http.Error(w, "gone: this hostile registry answered its last request", http.StatusGone)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	switch h.Mode {
	case RepeatCursor:
		fmt.Fprintf(w, onePage, n, "again")
	case EndlessPages:
		fmt.Fprintf(w, onePage, n, fmt.Sprintf("page-%d", n+1))
	case SlowDrip:
		fl, _ := w.(http.Flusher)
		fmt.Fprint(w, `{"servers": [`)
		end := time.After(10 * time.Second)
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-r.Context().Done():
				return
			case <-end:
				return
			case <-tick.C:
				fmt.Fprint(w, " ")
				if fl != nil {
					fl.Flush()
				}
			}
		}
	case CutOff:
		w.Header().Set("Content-Length", "4096")
		body := fmt.Sprintf(onePage, n, "")
		fmt.Fprint(w, body[:len(body)/2]) // the server closes the connection short of 4096 bytes
	case Oversize:
		fmt.Fprintf(w, `{"servers": [], "metadata": {}, "padding": "%s"}`, strings.Repeat("x", 64<<10))
	case Redirect:
		http.Redirect(w, r, h.Target+r.URL.RequestURI(), http.StatusFound)
	default:
		http.Error(w, "unknown mode "+h.Mode, http.StatusInternalServerError)
	}
}
