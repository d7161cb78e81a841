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
// VS Code's own settings ("sandboxEnabled": true and its "sandbox" of
// "filesystem" and "network") are read into this too: see vscodeSandbox.
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

// isVSCodeSandbox says whether a "sandbox" value is VS Code's settings
// (Anthropic's sandbox-runtime's: "filesystem" and "network" objects)
// rather than Switchboard's.
func isVSCodeSandbox(n *node) bool {
	if n == nil || n.kind != kindObject {
		return false
	}
	net := n.get("network")
	return n.get("filesystem") != nil || net != nil && net.kind == kindObject
}

// vscodeSandbox reads VS Code's sandbox settings, on a server of an
// mcp.json it wrote:
//
//	"sandboxEnabled": true,
//	"sandbox": {"filesystem": {"allowWrite": ["${workspaceFolder}"], "denyRead": ["~/.ssh"]},
//	            "network": {"allowedDomains": ["api.example.com"]}}
//
// as Switchboard's sandbox, which VS Code's allows less than or about
// the same: written folders carry over, an allowed domain lets the server
// onto the network (Switchboard's sandbox has no per-domain filter, which
// a warning says), and the rest is reported as ignored. Without
// "sandboxEnabled": true VS Code runs the server unsandboxed, and so does
// this.
func (c *checker) vscodeSandbox(path string, on, n *node) *Sandbox {
	onPath, p := pathKey(path, "sandboxEnabled"), pathKey(path, "sandbox")
	if on != nil && on.kind != kindBool {
		c.add(SeverityError, onPath, on, "must be true or false, got %s", on.kind.article())
		return nil
	}
	if on == nil || on.text != "true" {
		if n != nil {
			c.add(SeverityWarning, p, n, `is ignored: VS Code's sandbox settings apply only with "sandboxEnabled": true, as in VS Code; add it to run the server in a sandbox`)
		}
		return nil
	}
	s := &Sandbox{}
	if n == nil {
		return s
	}
	if n.kind != kindObject {
		c.add(SeverityError, p, n, `must be an object like {"filesystem": {"allowWrite": [...]}, "network": {"allowedDomains": [...]}} with "sandboxEnabled", got %s`, n.kind.article())
		return nil
	}
	ignored := func(p string, off int, why string) {
		c.addAt(SeverityWarning, p, off, "is ignored: %s", why)
	}
	for _, m := range n.members {
		mp, v := pathKey(p, m.key), m.val
		if v.kind != kindObject {
			c.add(SeverityError, mp, v, "must be an object, got %s", v.kind.article())
			continue
		}
		for _, o := range v.members {
			op := pathKey(mp, o.key)
			switch m.key + "." + o.key {
			case "filesystem.allowWrite":
				s.AllowWrite = c.sandboxPaths(op, o.val)
			case "filesystem.denyRead", "filesystem.denyWrite":
				ignored(op, o.off, "Switchboard's sandbox shows the server nothing of yours but its roots and what allowRead names, and lets it write only where allowWrite says")
			case "network.allowedDomains":
				if len(o.val.elems) > 0 {
					s.Network = true
					c.addAt(SeverityWarning, op, o.off, "lets the server onto the whole network: Switchboard's sandbox does not filter by domain; remove the domains to keep it off the network")
				}
			default:
				ignored(op, o.off, `Switchboard reads "filesystem.allowWrite" and "network.allowedDomains" of VS Code's sandbox settings`)
			}
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
