package host

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/fetch"
)

// Fetch are the use cases of the packages npx, uvx and docker servers
// download before their first start: the time limit of a download (a
// setting) and fetching a newly added server's package at once, in the
// background, so that its first start is warm.
type Fetch struct{ h *Host }

// serversSettings is the "servers" section of config.json's settings.
type serversSettings struct {
	// DownloadTimeoutSeconds limits one package download (0: fetch.Timeout).
	DownloadTimeoutSeconds int `json:"downloadTimeoutSeconds,omitempty"`
}

// MaxDownloadTimeout is the longest download limit a user may set.
const MaxDownloadTimeout = 2 * time.Hour

// serversSection is settings.servers.
var serversSection = config.Section[serversSettings]{Key: "servers"}

// downloadTimeoutIn is cfg's download limit (fetch.Timeout when none is
// saved, or when the section is malformed: then with the error).
func downloadTimeoutIn(cfg *config.Config) (time.Duration, error) {
	s, err := serversSection.Get(cfg)
	if s.DownloadTimeoutSeconds > 0 && err == nil {
		return time.Duration(s.DownloadTimeoutSeconds) * time.Second, nil
	}
	return fetch.Timeout, err
}

// withDownloadTimeout gives every spec cfg's download limit.
func withDownloadTimeout(specs []mcpmanager.ServerConfig, cfg *config.Config) {
	d, err := downloadTimeoutIn(cfg)
	if err != nil {
		slog.Warn("settings", "err", err) // the Settings page shows it
	}
	for i := range specs {
		specs[i].FetchTimeout = d
	}
}

// Timeout is the saved download limit (fetch.Timeout when none is saved).
func (d *Fetch) Timeout() (time.Duration, error) {
	cfg, err := d.h.readConfig()
	if err != nil {
		return 0, err
	}
	return downloadTimeoutIn(cfg)
}

// SetTimeout saves the download limit; it applies to the next download
// (running servers do not restart for it).
func (d *Fetch) SetTimeout(t time.Duration) error {
	if t < 10*time.Second || t > MaxDownloadTimeout {
		return fmt.Errorf("download time limit %s: choose between 10 seconds and %s", t, MaxDownloadTimeout)
	}
	return d.h.edit(func(cfg *config.Config) error {
		return serversSection.Put(cfg, serversSettings{DownloadTimeoutSeconds: int(t / time.Second)})
	})
}

// prefetch starts downloading the packages of the named servers of cfg in
// the background (npx, uvx and docker servers only) and returns at once.
// A server starting meanwhile shares the download; a failure is left for
// the server's own start to show.
func (d *Fetch) prefetch(cfg *config.Config, names ...string) {
	h := d.h
	for _, name := range names {
		s, ok := cfg.Lookup(name)
		if !ok {
			continue
		}
		c := h.Servers.prepared(cfg, s)
		c.FetchTimeout, _ = downloadTimeoutIn(cfg) // a malformed section is reported at apply
		h.wg.Add(1)
		go func() {
			defer h.wg.Done()
			_ = h.mgr.Prefetch(h.ctx, c)
		}()
	}
}

// added is the names of after's servers that before lacks.
func added(before, after []Server) []string {
	had := map[string]bool{}
	for _, s := range before {
		had[s.Name] = true
	}
	var out []string
	for _, s := range after {
		if !had[s.Name] {
			out = append(out, s.Name)
		}
	}
	return out
}
