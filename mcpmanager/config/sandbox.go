package config

import (
	"path/filepath"
	"slices"
	"strings"
)

// Sandbox is a stdio server's "sandbox" entry: `"sandbox": true` runs it
// with the defaults (no network, nothing of the user's but its roots), an
// object adds to them:
//
//	"sandbox": {"network": true, "allowRead": ["~/notes"], "allowWrite": ["/srv/data"], "roots": "read"}
//
// Paths are absolute or start with "~/" (the user's home); ${env:...} and
// ${secret:...} placeholders are expanded at start like every other value.
// What the sandbox allows is described in package mcpmanager/sandbox.
type Sandbox struct {
	Network    bool
	AllowRead  []string
	AllowWrite []string
	// Roots says how the server's roots (its workspace folders) are
	// reachable: "read" (the default, written as ""), "write" or "none".
	// Read by default: what a sandboxed server writes into the workspace
	// (a git hook, a package script) the workspace shell, which runs
	// outside any sandbox, could later run.
	Roots string
}

// SandboxRoots are the values of "sandbox.roots".
var SandboxRoots = []string{"read", "write", "none"}

// IsDefault reports whether s is `"sandbox": true`: nothing added to the
// defaults.
func (s Sandbox) IsDefault() bool {
	return !s.Network && len(s.AllowRead) == 0 && len(s.AllowWrite) == 0 && (s.Roots == "" || s.Roots == "read")
}

// Clone returns a deep copy.
func (s *Sandbox) Clone() *Sandbox {
	if s == nil {
		return nil
	}
	c := *s
	c.AllowRead = slices.Clone(s.AllowRead)
	c.AllowWrite = slices.Clone(s.AllowWrite)
	return &c
}

// MarshalJSON writes true when nothing differs from the defaults, else the
// object with the keys that are set.
func (s Sandbox) MarshalJSON() ([]byte, error) {
	if s.IsDefault() {
		return []byte("true"), nil
	}
	return marshalObject([]objectKey{
		{"network", s.Network, true},
		{"allowRead", len(s.AllowRead) > 0, s.AllowRead},
		{"allowWrite", len(s.AllowWrite) > 0, s.AllowWrite},
		{"roots", s.Roots != "" && s.Roots != "read", s.Roots},
	}, nil, nil)
}

// sandbox reads a server's "sandbox": true, false or an object.
func (c *checker) sandbox(path string, n *node) *Sandbox {
	switch n.kind {
	case kindBool:
		if n.text == "true" {
			return &Sandbox{}
		}
		return nil
	case kindObject:
	default:
		c.add(SeverityError, path, n, `must be true, false or an object like {"network": false, "allowRead": ["~/notes"], "allowWrite": ["/srv/data"]}, got %s`, n.kind.article())
		return nil
	}
	s := &Sandbox{}
	for _, m := range n.members {
		p, v := pathKey(path, m.key), m.val
		switch m.key {
		case "network":
			if v.kind != kindBool {
				c.add(SeverityError, p, v, "must be true or false, got %s", v.kind.article())
			}
			s.Network = v.text == "true"
		case "allowRead":
			s.AllowRead = c.sandboxPaths(p, v)
		case "allowWrite":
			s.AllowWrite = c.sandboxPaths(p, v)
		case "roots":
			s.Roots = c.str(p, v)
			if s.Roots != "" && !slices.Contains(SandboxRoots, s.Roots) {
				c.add(SeverityError, p, v, `%q is not a roots mode; use "read", "write" or "none"`, s.Roots)
			}
		default:
			c.addAt(SeverityWarning, p, m.off, `unknown sandbox option is ignored; the options are "network", "allowRead", "allowWrite" and "roots"`)
		}
	}
	return s
}

// sandboxPaths reads a list of folders or files the sandbox lets through.
func (c *checker) sandboxPaths(path string, n *node) []string {
	out := c.strList(path, n)
	for i, e := range n.elems {
		if e.kind != kindString || strings.Contains(e.text, "${") {
			continue
		}
		switch t := e.text; {
		case t == "" || strings.TrimSpace(t) == "":
			c.add(SeverityError, pathIndex(path, i), e, "must not be empty; give a folder's full path, e.g. /home/me/notes or ~/notes")
		case wholeHome(t):
			c.add(SeverityError, pathIndex(path, i), e, "%q would open everything the sandbox hides; name the folders the server needs, e.g. ~/notes", t)
		case !filepath.IsAbs(t) && !strings.HasPrefix(t, "~/"):
			c.add(SeverityError, pathIndex(path, i), e, "%q is not an absolute path; write the folder's full path, e.g. /home/me/notes or ~/notes", t)
		}
	}
	return out
}

// sandboxJSON shows a sandbox entry in a diff; "" when there is none.
func sandboxJSON(s *Sandbox) string {
	if s == nil {
		return ""
	}
	b, _ := s.MarshalJSON()
	return string(b)
}

// wholeHome reports whether a sandbox path is the home or "/" whatever the
// spelling: "~", "~/", "~/.", "~/notes/..", "/..". A "~/.." climbs above
// the home, which holds it.
func wholeHome(p string) bool {
	if p == "~" || p == "/" {
		return true
	}
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		return filepath.Clean("/"+rest) == "/" // the home, or a climb above it
	}
	return filepath.IsAbs(p) && filepath.Clean(p) == "/"
}
