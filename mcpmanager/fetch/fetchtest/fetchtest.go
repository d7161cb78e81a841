// Package fetchtest serves a local npm registry on 127.0.0.1 with one tiny
// stdio MCP server package, so tests can run "npx -y PACKAGE@VERSION" on an
// empty npm cache without the internet, with the download as slow as they
// need (Registry.Delay) to show that it is not counted against a server's
// startup timeout.
//
//	reg := fetchtest.Start(t.Context(), "127.0.0.1:0")
//	env := reg.Env(t.TempDir()) // npm_config_registry + an empty npm_config_cache
//	// run "npx -y " + reg.Spec() with env
package fetchtest

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha1"
	"crypto/sha512"
	_ "embed"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"time"
)

//go:embed server.js
var serverJS []byte

// Package and Version are what the registry publishes.
const (
	Package = "switchboard-tiny-mcp"
	Version = "1.0.0"
)

// Registry is a running local npm registry.
type Registry struct {
	URL string // http://127.0.0.1:PORT/
	// Delay holds back every tarball download (nanoseconds; set with
	// SetDelay): a slow first download.
	delay     atomic.Int64
	Downloads atomic.Int64 // tarballs served
	tgz       []byte
	srv       *http.Server
}

// Start listens on addr ("127.0.0.1:0") until ctx ends.
func Start(ctx context.Context, addr string) (*Registry, error) {
	tgz, err := tarball()
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	r := &Registry{URL: "http://" + ln.Addr().String() + "/", tgz: tgz}
	r.srv = &http.Server{Handler: r}
	go func() { _ = r.srv.Serve(ln) }()
	go func() {
		<-ctx.Done()
		_ = r.srv.Close()
	}()
	return r, nil
}

// SetDelay makes every tarball download take at least d.
func (r *Registry) SetDelay(d time.Duration) { r.delay.Store(int64(d)) }

// Spec is what npx is given: "switchboard-tiny-mcp@1.0.0".
func (r *Registry) Spec() string { return Package + "@" + Version }

// Env points npm at this registry with cache as its (empty) cache.
func (r *Registry) Env(cache string) map[string]string {
	return map[string]string{
		"npm_config_registry":        r.URL,
		"npm_config_cache":           cache,
		"npm_config_update_notifier": "false",
		"npm_config_audit":           "false",
		"npm_config_fund":            "false",
	}
}

func (r *Registry) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	path := strings.TrimPrefix(req.URL.Path, "/")
	switch path {
	case Package:
		sum := sha1.Sum(r.tgz)
		integrity := sha512.Sum512(r.tgz)
		doc := map[string]any{
			"name":      Package,
			"dist-tags": map[string]string{"latest": Version},
			"versions": map[string]any{Version: map[string]any{
				"name": Package, "version": Version,
				"bin": map[string]string{Package: "server.js"},
				"dist": map[string]string{
					"tarball":   r.URL + Package + "/-/" + Package + "-" + Version + ".tgz",
					"shasum":    hex.EncodeToString(sum[:]),
					"integrity": "sha512-" + base64.StdEncoding.EncodeToString(integrity[:]),
				},
			}},
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(doc)
	case Package + "/-/" + Package + "-" + Version + ".tgz":
		if d := time.Duration(r.delay.Load()); d > 0 {
			select {
			case <-time.After(d):
			case <-req.Context().Done():
				return
			}
		}
		r.Downloads.Add(1)
		w.Header().Set("Content-Type", "application/octet-stream")
		_, _ = w.Write(r.tgz)
	default:
		http.NotFound(w, req)
	}
}

// tarball is the package as npm publishes it: package/ at the root.
func tarball() ([]byte, error) {
	pkg, err := json.Marshal(map[string]any{
		"name": Package, "version": Version, "bin": map[string]string{Package: "server.js"},
	})
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, f := range []struct {
		name string
		mode int64
		data []byte
	}{{"package/package.json", 0o644, pkg}, {"package/server.js", 0o755, serverJS}} {
		if err := tw.WriteHeader(&tar.Header{Name: f.name, Mode: f.mode, Size: int64(len(f.data)), ModTime: time.Unix(0, 0), Typeflag: tar.TypeReg}); err != nil {
			return nil, fmt.Errorf("tarball: %w", err)
		}
		if _, err := tw.Write(f.data); err != nil {
			return nil, fmt.Errorf("tarball: %w", err)
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := gz.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
