package localskills

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// Claude Code's plugins, found as Claude Code 2.1 finds them (its cli.js:
// the plugin list, xEK; the manifest, IEK; a marketplace's entry, uEK; a
// skills path, UNK):
//
//   - a plugin is loaded only when settings.json's enabledPlugins sets it
//     to true ("name@marketplace": true); one set to false, or not named,
//     is not;
//   - installed_plugins.json (version 2) lists each plugin's installs: one
//     of scope "user" (or "managed") is everyone's; one of scope "project"
//     or "local" is its projectPath's only, loaded here when that project
//     is the workspace or a project folder the user added, where that
//     project's .claude/settings.json (then settings.local.json) may switch
//     it on or off. One install of a plugin is loaded (Claude Code takes
//     the first listed; here the first that is everyone's or one of those
//     projects');
//   - the plugin's manifest (.claude-plugin/plugin.json) may list its
//     skills ("skills": a path or a list, each a skill folder or a folder
//     of them, within the plugin): then those are its skills, not every
//     folder in its skills/. Its marketplace's entry for it
//     (marketplace.json's plugins[]) may list more, which are added.
//
// One difference, on purpose: a plugin whose marketplace entry lists its
// skills but whose manifest does not (Anthropic's document-skills, a
// "strict": false entry) gets those skills only. Claude Code 2.1 loads
// every folder in its skills/ as well, a known fault (anthropics/skills
// #1087, claude-code #21148) that offers all 17 skills of that repository
// under each of its plugins.

// plugin is one Claude Code plugin to look in.
type plugin struct {
	name string // "pdf-kit", of "pdf-kit@acme-market"
	dir  string // its install folder
	// skills are the skill folders its manifest or marketplace entry
	// lists; nil: every folder in dir/skills.
	skills []string
}

// install is one entry of installed_plugins.json.
type install struct {
	Scope       string `json:"scope"`
	ProjectPath string `json:"projectPath"`
	InstallPath string `json:"installPath"`
}

// plugins are the Claude Code plugins in claude (~/.claude) that Claude
// Code loads, for the projects Switchboard knows (the workspace, the
// folders added), each once.
func plugins(claude string, projects []string) []plugin {
	dir := filepath.Join(claude, "plugins")
	installs, ok := installed(dir)
	if !ok {
		installs = cached(dir)
	}
	user := enabled(filepath.Join(claude, "settings.json"))
	ids := make([]string, 0, len(installs))
	for id := range installs {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var out []plugin
	for _, id := range ids {
		for _, in := range installs[id] {
			on, known := user[id]
			switch in.Scope {
			case "project", "local":
				root := projectOf(in.ProjectPath, projects)
				if root == "" {
					continue // another project's plugin
				}
				for _, f := range []string{"settings.json", "settings.local.json"} {
					if v, ok := enabled(filepath.Join(root, ".claude", f))[id]; ok {
						on, known = v, true
					}
				}
			}
			if !known || !on || in.InstallPath == "" || slices.ContainsFunc(out, func(p plugin) bool { return p.dir == in.InstallPath }) {
				continue
			}
			name, market, _ := strings.Cut(id, "@")
			out = append(out, plugin{name: name, dir: in.InstallPath, skills: listedSkills(claude, in.InstallPath, name, market)})
			break // one install of a plugin, as Claude Code loads one
		}
	}
	return out
}

// installed reads installed_plugins.json: version 2 ({"plugins": {id:
// [installs]}}) or an older map of one install each; false without it.
func installed(dir string) (map[string][]install, bool) {
	b, err := os.ReadFile(filepath.Join(dir, "installed_plugins.json"))
	if err != nil {
		return nil, false
	}
	var v2 struct {
		Plugins map[string]json.RawMessage `json:"plugins"`
	}
	entries := map[string]json.RawMessage{}
	if json.Unmarshal(b, &v2) == nil && v2.Plugins != nil {
		entries = v2.Plugins
	} else {
		_ = json.Unmarshal(b, &entries)
	}
	out := map[string][]install{}
	for id, raw := range entries {
		var list []install
		if json.Unmarshal(raw, &list) != nil {
			var one install
			if json.Unmarshal(raw, &one) != nil {
				continue
			}
			list = []install{one}
		}
		out[id] = list
	}
	return out, true
}

// cached are the plugins in dir/cache/<marketplace>/<plugin>/<version>
// when there is no installed_plugins.json: the version changed last of
// each, everyone's.
func cached(dir string) map[string][]install {
	found, _ := filepath.Glob(filepath.Join(dir, "cache", "*", "*", "*"))
	out := map[string][]install{}
	newest := map[string]int64{}
	for _, v := range found {
		info, err := os.Stat(v)
		if err != nil || !info.IsDir() {
			continue
		}
		id := filepath.Base(filepath.Dir(v)) + "@" + filepath.Base(filepath.Dir(filepath.Dir(v)))
		if t := info.ModTime().UnixNano(); out[id] == nil || t >= newest[id] {
			out[id], newest[id] = []install{{Scope: "user", InstallPath: v}}, t
		}
	}
	return out
}

// enabled is the enabledPlugins of a Claude Code settings file: true for
// a plugin set to true, false for one set to anything else.
func enabled(settings string) map[string]bool {
	var s struct {
		EnabledPlugins map[string]any `json:"enabledPlugins"`
	}
	b, err := os.ReadFile(settings)
	if err != nil || json.Unmarshal(b, &s) != nil {
		return nil
	}
	out := make(map[string]bool, len(s.EnabledPlugins))
	for id, v := range s.EnabledPlugins {
		out[id] = v == true
	}
	return out
}

// projectOf is the one of projects that path is (links resolved), or "".
func projectOf(path string, projects []string) string {
	if path == "" {
		return ""
	}
	real := func(p string) string {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return r
		}
		return filepath.Clean(p)
	}
	want := real(path)
	for _, p := range projects {
		if real(p) == want {
			return p
		}
	}
	return ""
}

// listedSkills are the skill folders plugin name of market, installed in
// dir, lists in its manifest and its marketplace's entry; nil when neither
// lists any (then every folder in dir/skills is one).
func listedSkills(claude, dir, name, market string) []string {
	var paths []string
	listed := false
	for _, m := range []map[string]any{readObject(filepath.Join(dir, ".claude-plugin", "plugin.json")), marketEntry(claude, dir, name, market)} {
		if v, in := m["skills"]; in && v != nil {
			listed = true
			paths = append(paths, texts(v)...)
		}
	}
	if !listed {
		return nil
	}
	out := []string{}
	for _, p := range paths {
		full := filepath.Join(dir, p)
		if rel, err := filepath.Rel(dir, full); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue // a path out of the plugin is no skill of it
		}
		if _, err := os.Stat(filepath.Join(full, "SKILL.md")); err == nil {
			out = appendNew(out, full)
			continue
		}
		ents, _ := os.ReadDir(full)
		for _, e := range ents {
			if _, err := os.Stat(filepath.Join(full, e.Name(), "SKILL.md")); err == nil {
				out = appendNew(out, filepath.Join(full, e.Name()))
			}
		}
	}
	return out
}

func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// marketEntry is market's marketplace.json entry for plugin name: the
// marketplace's folder as known_marketplaces.json names it, else Claude
// Code's plugins/marketplaces/<market>, else the one the plugin's own
// folder carries when it is that marketplace's (a plugin whose source is
// its marketplace's folder, "./").
func marketEntry(claude, dir, name, market string) map[string]any {
	plugins := filepath.Join(claude, "plugins")
	var places []string
	var known map[string]struct {
		InstallLocation string `json:"installLocation"`
	}
	if b, err := os.ReadFile(filepath.Join(plugins, "known_marketplaces.json")); err == nil && json.Unmarshal(b, &known) == nil {
		if loc := known[market].InstallLocation; loc != "" {
			places = append(places, filepath.Join(loc, ".claude-plugin", "marketplace.json"), loc)
		}
	}
	places = append(places, filepath.Join(plugins, "marketplaces", market, ".claude-plugin", "marketplace.json"),
		filepath.Join(dir, ".claude-plugin", "marketplace.json"))
	for _, p := range places {
		m := readObject(p)
		if m == nil || p == places[len(places)-1] && m["name"] != market {
			continue
		}
		list, _ := m["plugins"].([]any)
		for _, e := range list {
			if e, ok := e.(map[string]any); ok && e["name"] == name {
				return e
			}
		}
		return nil
	}
	return nil
}

// readObject is the JSON object in file path (nil when it is not one).
func readObject(path string) map[string]any {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var m map[string]any
	if json.Unmarshal(b, &m) != nil {
		return nil
	}
	return m
}

// texts is a manifest's path or list of paths (anything else in the list
// is not one).
func texts(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, e := range v {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}
