package bundle_test

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/bundle"
	"github.com/switchboard-app/switchboard/mcpmanager/bundle/bundletest"
)

// FuzzParseManifest parses any manifest.json: it never panics, a manifest
// it accepts validates again and names a server the way tool names need,
// and the entry made from its defaults holds no ${secret:…} or ${env:…}
// reference of its own. Under plain 'go test' only the seeds run.
func FuzzParseManifest(f *testing.F) {
	echo, err := os.ReadFile(filepath.Join(bundletest.Dir(), "echo-env", "manifest.json"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(echo))
	f.Add(`{"manifest_version": "0.4", "name": "u", "version": "1.0.0", "description": "d", "author": {"name": "a"},
		"server": {"type": "uv", "entry_point": "main.py"}}`)
	f.Add(`{"manifest_version": "0.3", "name": "x", "version": "1.0.0", "description": "d", "author": {"name": "a"},
		"server": {"type": "node", "entry_point": "i.js", "mcp_config": {"command": "node", "args": ["${user_config.k}"], "env": {"E": "$${user_config.k}"}}},
		"user_config": {"k": {"type": "string", "title": "K", "default": "{secret:OTHER}"}}}`)
	f.Add(`{"manifest_version": "0.3", "user_config": {"a": {"type": "string", "title": "A"}, "a": {"type": "string", "title": "A", "sensitive": true}}}`)
	f.Add(`{"dxt_version": "0.2", "name": "../x", "server": {"type": "binary", "entry_point": "/etc/passwd"}}`)
	f.Fuzz(func(t *testing.T, raw string) {
		m, err := bundle.ParseManifest([]byte(raw))
		if err != nil {
			return
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("accepted, then invalid: %v", err)
		}
		if m.Name == "" || strings.ContainsAny(m.Name, `/\ `) {
			t.Fatalf("server name %q", m.Name)
		}
		vars := bundle.UserVars("/tmp/bundle")
		values := bundle.Values{}
		for _, o := range m.UserConfig {
			if d := o.Defaults(vars); len(d) > 0 {
				values[o.Key] = d
			} else if o.Required {
				values[o.Key] = []string{"1"}
			}
		}
		checked, err := m.Check(values, vars)
		if err != nil {
			return
		}
		e, err := m.Entry(vars, checked)
		if err != nil {
			return
		}
		all := append([]string{e.Command, e.Cwd}, e.Args...)
		for _, k := range slices.Sorted(maps.Keys(e.Env)) {
			all = append(all, e.Env[k])
		}
		if s := strings.Join(all, "\n"); strings.Contains(s, "${secret:") || strings.Contains(s, "${env:") {
			t.Fatalf("the entry holds a reference from the manifest:\n%s\n%s", raw, s)
		}
	})
}
