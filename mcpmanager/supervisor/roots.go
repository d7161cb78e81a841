package supervisor

import (
	"context"
	"net/url"
	"path/filepath"
	"slices"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// Roots are offered to every server (the client advertises roots with
// listChanged): the folders it may work in, as file:// URIs. A server asks
// with roots/list; SetRoots tells a running one the list changed.

// Roots is what the server is told its roots are.
func (s *Server) Roots() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.roots)
}

// SetRoots replaces the server's roots and says whether they changed; a
// server already running learns of it by RootsChanged.
func (s *Server) SetRoots(roots []string) (changed bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if slices.Equal(s.roots, roots) {
		return false
	}
	s.roots = slices.Clone(roots)
	return true
}

// RootsChanged sends a ready server notifications/roots/list_changed, so it
// asks for its roots again; a server not ready asks when it starts.
func (s *Server) RootsChanged(ctx context.Context) error {
	s.mu.Lock()
	cl := s.cl
	s.mu.Unlock()
	if cl == nil {
		return nil
	}
	return cl.RootListChanges(ctx)
}

// rootsOption answers roots/list with the server's current roots; its
// presence advertises the capability.
func (s *Server) rootsOption() client.ClientOption {
	return client.WithRootsHandler(rootLister{s})
}

type rootLister struct{ s *Server }

func (r rootLister) ListRoots(context.Context, mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	res := &mcp.ListRootsResult{Roots: []mcp.Root{}}
	for _, p := range r.s.Roots() {
		res.Roots = append(res.Roots, root(p))
	}
	return res, nil
}

// root is the root offered for the folder p, in roots/list answers and
// in the answers to a 2026-07-28 server's roots input requests alike.
func root(p string) mcp.Root { return mcp.Root{URI: FileURI(p), Name: filepath.Base(p)} }

// FileURI is the file:// URI of an absolute path.
func FileURI(path string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}
