package library_test

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/library"
)

func TestCatalogue(t *testing.T) {
	want := []string{"everything", "fetch", "filesystem", "git", "github", "memory"}
	var got []string
	for _, tm := range library.Catalogue() {
		got = append(got, tm.ID)
		if tm.Title == "" || tm.Description == "" || tm.DocsURL == "" || len(tm.Tags) == 0 {
			t.Errorf("%s: title, description, docs URL and tags are all needed: %+v", tm.ID, tm)
		}
		ps, err := tm.Params()
		if err != nil {
			t.Errorf("%s: %v", tm.ID, err)
		}
		// Every placeholder is declared (Params fails otherwise), and every
		// declared parameter is used somewhere.
		for _, p := range ps {
			if !slices.Contains(tm.Placeholders(), p.Name) {
				t.Errorf("%s: parameter %s is declared but no field uses it", tm.ID, p.Name)
			}
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Fatalf("catalogue = %v, want %v", got, want)
	}
}

func TestInstantiate(t *testing.T) {
	fs, _ := library.FindIn(nil, "filesystem")
	s, err := fs.Instantiate("docs", library.Values{"path": "/home/me/docs"}, library.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"-y", "@modelcontextprotocol/server-filesystem", "/home/me/docs"}; s.Name != "docs" || s.Command != "npx" || !slices.Equal(s.Args, want) {
		t.Fatalf("filesystem = %s %s %v", s.Name, s.Command, s.Args)
	}
	m, _ := library.MetaOf(s)
	if m.Template != "filesystem" || !slices.Contains(m.Tags, "files") || m.DocsURL == "" {
		t.Fatalf("metadata from the template: %+v", m)
	}
	if _, ok := s.Extra[library.ParamsKey]; ok {
		t.Fatal("an instantiated server still declares parameters")
	}

	// Optional parameters left empty take their argument / env var away;
	// a boolean default is written as text.
	fetch, _ := library.FindIn(nil, "fetch")
	s, err = fetch.Instantiate("fetch", library.Values{"userAgent": " "}, library.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"mcp-server-fetch", "--ignore-robots-txt=false"}; !slices.Equal(s.Args, want) {
		t.Fatalf("fetch args = %q, want %q", s.Args, want)
	}
	mem, _ := library.FindIn(nil, "memory")
	s, err = mem.Instantiate("memory", nil, library.Options{})
	if err != nil || len(s.Env) != 0 {
		t.Fatalf("memory without a file: env %v, err %v", s.Env, err)
	}

	// Secrets go through Options.Secret and never into the server.
	gh, _ := library.FindIn(nil, "github")
	var stored []string
	s, err = gh.Instantiate("gh", library.Values{"token": "ghp_abc123"}, library.Options{Secret: func(param, value string) (string, error) {
		stored = append(stored, param+"="+value)
		return "${secret:gh." + param + "}", nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	if s.Headers["Authorization"] != "Bearer ${secret:gh.token}" || s.URL != "https://api.githubcopilot.com/mcp/" || s.Transport != config.HTTP {
		t.Fatalf("github server = %+v", s)
	}
	if _, ok := s.Headers["X-MCP-Toolsets"]; ok {
		t.Fatal("an empty optional header was kept")
	}
	if !slices.Equal(stored, []string{"token=ghp_abc123"}) {
		t.Fatalf("secrets stored: %v", stored)
	}
	raw, _ := json.Marshal(s)
	if strings.Contains(string(raw), "ghp_abc123") {
		t.Fatalf("the token reached the config: %s", raw)
	}
}

func TestInstantiateErrors(t *testing.T) {
	custom := library.Template{ID: "db", Server: config.Server{Command: "db-mcp", Args: []string{"--port", "{{port}}", "--mode={{mode}}"}},
		Parameters: json.RawMessage(`{"type":"object","properties":{
			"port":{"type":"integer","minimum":1,"maximum":65535,"title":"Port"},
			"mode":{"type":"string","enum":["ro","rw"],"default":"ro"}},"required":["port"]}`)}
	undeclared := library.Template{ID: "bad", Server: config.Server{Command: "x", Args: []string{"{{nope}}"}}, Parameters: json.RawMessage(`{"type":"object","properties":{}}`)}
	notObject := library.Template{ID: "arr", Server: config.Server{Command: "x"}, Parameters: json.RawMessage(`{"type":"array"}`)}
	fs, _ := library.FindIn(nil, "filesystem")
	gh, _ := library.FindIn(nil, "github")
	tests := []struct {
		name   string
		tmpl   library.Template
		values library.Values
		is     error
		says   []string
	}{
		{"missing required", fs, nil, library.ErrMissingParam, []string{`"path"`, "Folder is required", "absolute path"}},
		{"blank required", fs, library.Values{"path": "  "}, library.ErrMissingParam, []string{"Folder is required"}},
		{"relative path", fs, library.Values{"path": "docs"}, library.ErrInvalidParam, []string{`"docs"`, "it must be the folder the server may read and write, as an absolute path"}},
		{"unknown param", fs, library.Values{"path": "/x", "root": "/y"}, library.ErrUnknownParam, []string{`"root"`, "takes path"}},
		{"not an integer", custom, library.Values{"port": "eighty"}, library.ErrInvalidParam, []string{`"port"`, `"eighty"`}},
		{"out of range", custom, library.Values{"port": "70000"}, library.ErrInvalidParam, []string{`"port"`, "70000"}},
		{"not in enum", custom, library.Values{"port": 5432, "mode": "admin"}, library.ErrInvalidParam, []string{`"mode"`, "one of: ro, rw"}},
		{"bad token hides the value", gh, library.Values{"token": "hunter2"}, library.ErrInvalidParam, []string{`"token"`, "(hidden)", "starting with ghp_"}},
		{"placeholder not declared", undeclared, nil, library.ErrBadTemplate, []string{"{{nope}}", "not declared"}},
		{"schema not an object", notObject, nil, library.ErrBadTemplate, []string{"object schema"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.tmpl.Instantiate("s", tc.values, library.Options{})
			if !errors.Is(err, tc.is) {
				t.Fatalf("err = %v, want %v", err, tc.is)
			}
			for _, s := range tc.says {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not say %q", err, s)
				}
			}
			if strings.Contains(err.Error(), "hunter2") {
				t.Errorf("a secret value is in the error: %v", err)
			}
		})
	}
	s, err := custom.Instantiate("db", library.Values{"port": "5432"}, library.Options{})
	if err != nil || !slices.Equal(s.Args, []string{"--port", "5432", "--mode=ro"}) {
		t.Fatalf("valid values: %v %v", s.Args, err)
	}
}

func TestTemplateEntryIsNotRun(t *testing.T) {
	cfg := parse(t, `{"mcpServers": {
		"team-db": {"command": "db-mcp", "args": ["{{dsn}}"], "parameters": {"type":"object","properties":{"dsn":{"type":"string"}},"required":["dsn"]}},
		"plain": {"command": "echo"},
		"other-meaning": {"command": "echo", "parameters": {"verbose": true}}}}`)
	run, problems := library.Prepare(cfg.Servers, "")
	if len(run) != 2 || run[0].Name != "plain" || run[1].Name != "other-meaning" || problems != nil {
		t.Fatalf("Prepare ran %v (problems %v)", run, problems)
	}
	tm, ok := library.TemplateOf(cfg.Servers[0])
	if !ok {
		t.Fatal("the entry with parameters is not a template")
	}
	s, err := tm.Instantiate("prod-db", library.Values{"dsn": "postgres://db"}, library.Options{})
	if err != nil || s.Args[0] != "postgres://db" || s.Name != "prod-db" {
		t.Fatalf("from a config template: %+v %v", s, err)
	}
}

func TestProfiles(t *testing.T) {
	cfg := parse(t, `{"mcpServers": {
		"api": {"url": "http://127.0.0.1:1/mcp", "headers": {"X-Env": "home", "X-Keep": "1"},
			"profiles": {"work": {"url": "http://127.0.0.1:2/mcp", "headers": {"X-Env": "work", "X-Keep": ""}}}},
		"cli": {"command": "tool", "args": ["--home"], "env": {"A": "1"}, "profiles": {"work": {"args": ["--work"], "env": {"B": "2"}}, "lab": {}}},
		"bad": {"command": "tool", "profiles": {"work": {"url": "http://127.0.0.1:3/mcp"}}}}}`)
	if got := library.Profiles(cfg.Servers); !slices.Equal(got, []string{"lab", "work"}) {
		t.Fatalf("profiles = %v", got)
	}
	run, problems := library.Prepare(cfg.Servers, "work")
	byName := map[string]config.Server{}
	for _, s := range run {
		byName[s.Name] = s
	}
	if s := byName["api"]; s.URL != "http://127.0.0.1:2/mcp" || s.Headers["X-Env"] != "work" || len(s.Headers) != 1 {
		t.Fatalf("api under work: %s %v", s.URL, s.Headers)
	}
	if s := byName["cli"]; !slices.Equal(s.Args, []string{"--work"}) || s.Env["A"] != "1" || s.Env["B"] != "2" {
		t.Fatalf("cli under work: %v %v", s.Args, s.Env)
	}
	if err := problems["bad"]; !errors.Is(err, library.ErrBadMetadata) || !strings.Contains(err.Error(), "mcpServers.bad.profiles.work.url") {
		t.Fatalf("bad profile: %v", err)
	}
	home, _ := library.Prepare(cfg.Servers, "")
	if home[0].URL != "http://127.0.0.1:1/mcp" {
		t.Fatalf("no profile: %s", home[0].URL)
	}
	// SetProfile refuses what would not run.
	api := cfg.Servers[0]
	if err := library.SetProfile(&api, "home", library.Override{URL: "ftp://x"}); err == nil {
		t.Fatal("an ftp URL was accepted")
	}
	if err := library.SetProfile(&api, "home", library.Override{URL: "http://127.0.0.1:9/mcp"}); err != nil {
		t.Fatal(err)
	}
	if got := library.Profiles([]config.Server{api}); !slices.Equal(got, []string{"home", "work"}) {
		t.Fatalf("after SetProfile: %v", got)
	}
}

func TestMeta(t *testing.T) {
	s := config.Server{Name: "x", Command: "echo"}
	if err := library.SetMeta(&s, library.Meta{Description: " Notes ", Tags: []string{"Work", "work", "Team Tools", ""}, Color: "#1a2b3c", DocsURL: "https://example.com"}); err != nil {
		t.Fatal(err)
	}
	m, _ := library.MetaOf(s)
	if m.Description != "Notes" || !slices.Equal(m.Tags, []string{"work", "team-tools"}) {
		t.Fatalf("meta = %+v", m)
	}
	for _, bad := range []library.Meta{{Color: "red"}, {DocsURL: "javascript:alert(1)"}, {Icon: "a very long icon"}} {
		err := library.SetMeta(&s, bad)
		if !errors.Is(err, library.ErrBadMetadata) || !strings.Contains(err.Error(), "mcpServers.x.metadata.") {
			t.Errorf("%+v: err = %v", bad, err)
		}
	}
	if got := library.Describe(library.Meta{}, library.Info{Title: "Everything", Instructions: "Test server. It does a lot."}); got != "Everything: Test server." {
		t.Fatalf("Describe = %q", got)
	}
	if err := library.SetMeta(&s, library.Meta{}); err != nil || s.Extra[library.MetaKey] != nil {
		t.Fatalf("zero meta kept: %v %s", err, s.Extra[library.MetaKey])
	}
	// A host's own "description" key is used when there is no metadata.
	s.Extra = map[string]json.RawMessage{"description": json.RawMessage(`"Team wiki search"`)}
	if m, _ := library.MetaOf(s); m.Description != "Team wiki search" {
		t.Fatalf("description key: %+v", m)
	}
}

func parse(t *testing.T, doc string) *config.Config {
	t.Helper()
	var cfg config.Config
	if err := json.Unmarshal([]byte(doc), &cfg); err != nil {
		t.Fatal(err)
	}
	return &cfg
}

func TestActiveProfileSetting(t *testing.T) {
	cfg := parse(t, `{"mcpServers": {"api": {"url": "http://127.0.0.1:1/mcp", "profiles": {"work": {"url": "http://127.0.0.1:2/mcp"}}}},
		"settings": {"chat": {"maxSteps": 3}}}`)
	if got, _ := library.ActiveProfile(cfg.Settings); got != "" {
		t.Fatalf("active = %q", got)
	}
	raw, err := library.WithProfile(cfg.Settings, cfg.Servers, "work")
	if p, _ := library.ActiveProfile(raw); err != nil || p != "work" || !strings.Contains(string(raw), `"maxSteps":3`) {
		t.Fatalf("WithProfile = %s, %v", raw, err)
	}
	if _, err := library.WithProfile(cfg.Settings, cfg.Servers, "wrok"); !errors.Is(err, library.ErrUnknownProfile) || !strings.Contains(err.Error(), "[work]") {
		t.Fatalf("a typo: %v", err)
	}
}
