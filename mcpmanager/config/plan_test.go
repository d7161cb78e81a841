package config

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

func currentConfig() *Config {
	return &Config{
		Servers: []Server{
			{Name: "github", Transport: Stdio, Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-github"},
				Env: map[string]string{"GITHUB_PERSONAL_ACCESS_TOKEN": "${secret:github}"}},
			{Name: "memory", Transport: Stdio, Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-memory"}},
			{Name: "search", Transport: HTTP, URL: "https://search.example.com/mcp"},
			{Name: "search-2", Transport: Stdio, Command: "search-local"},
		},
		Settings: json.RawMessage(`{"theme":"dark"}`),
	}
}

const importFile = `{
  "mcpServers": {
    "github": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"],
               "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_plain", "GITHUB_HOST": "github.example.com"}},
    "memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]},
    "search": {"command": "docker", "args": ["run", "-i", "search"], "autoApprove": ["query"]},
    "time":   {"command": "uvx", "args": ["mcp-server-time"]},
    "broken": {"args": ["x"]}
  }
}`

func planFor(t *testing.T, cfg *Config, src string) (*File, ImportPlan) {
	t.Helper()
	f, _ := ParseContext(context.Background(), "import.json", []byte(src))
	if f == nil {
		t.Fatal("import file did not parse")
	}
	return f, Plan(cfg, f)
}

func TestPlanOutcomes(t *testing.T) {
	_, plan := planFor(t, currentConfig(), importFile)
	type row struct {
		name     string
		outcome  Outcome
		def      Resolution
		renameTo string
		changes  string
	}
	want := []row{
		{"github", Changed, Replace, "github-2", "env.GITHUB_HOST: added; env.GITHUB_PERSONAL_ACCESS_TOKEN: changed"},
		{"memory", Unchanged, Keep, "memory-2", ""},
		{"search", Conflicting, Keep, "search-3", `type: "http" → "stdio"; command: added "docker"; args: added ["run","-i","search"]; url: removed; autoApprove: added ["query"]`},
		{"time", Added, Replace, "", ""},
		{"broken", Invalid, Keep, "", ""},
	}
	if len(plan.Items) != len(want) {
		t.Fatalf("%d items, want %d", len(plan.Items), len(want))
	}
	for i, it := range plan.Items {
		var ch []string
		for _, c := range it.Changes {
			ch = append(ch, c.String())
		}
		got := row{it.Name, it.Outcome, it.Default, it.RenameTo, strings.Join(ch, "; ")}
		if got != want[i] {
			t.Errorf("item %d:\n got %+v\nwant %+v", i, got, want[i])
		}
	}
	broken := plan.Items[4]
	if len(broken.Problems) != 1 || broken.Problems[0].String() != `8:5: mcpServers.broken: needs "command" (stdio) or "url" (http/sse)` || broken.Path != "mcpServers.broken" {
		t.Errorf("broken problems = %v", broken.Problems)
	}
	if c := plan.Counts(); c[Added] != 1 || c[Invalid] != 1 || c[Changed] != 1 {
		t.Errorf("counts = %v", c)
	}
	// Secrets never appear in a diff.
	if s := fmt.Sprint(plan.Items[0].Changes); strings.Contains(s, "ghp_plain") || strings.Contains(s, "secret:") {
		t.Errorf("diff shows a secret: %s", s)
	}
}

func TestApply(t *testing.T) {
	tests := []struct {
		name        string
		resolutions map[string]Resolution
		renameTo    map[string]string // overrides of Item.RenameTo
		want        string            // name=command|url, in order
		wantErr     error
	}{
		{
			name: "defaults",
			want: "github=npx(ghp_plain) memory=npx search=https://search.example.com/mcp search-2=search-local time=uvx",
		},
		{
			name:        "replace conflicting, keep changed, skip added",
			resolutions: map[string]Resolution{"search": Replace, "github": Keep, "time": Keep},
			want:        "github=npx(${secret:github}) memory=npx search=docker search-2=search-local",
		},
		{
			name:        "rename conflicting to the suggested free name",
			resolutions: map[string]Resolution{"search": Rename},
			want:        "github=npx(ghp_plain) memory=npx search=https://search.example.com/mcp search-2=search-local search-3=docker time=uvx",
		},
		{
			name:        "rename to a chosen name",
			resolutions: map[string]Resolution{"search": Rename, "memory": Rename},
			renameTo:    map[string]string{"search": "search-docker", "memory": "memory-copy"},
			want:        "github=npx(ghp_plain) memory=npx search=https://search.example.com/mcp search-2=search-local memory-copy=npx search-docker=docker time=uvx",
		},
		{
			name:        "rename to a taken name",
			resolutions: map[string]Resolution{"search": Rename},
			renameTo:    map[string]string{"search": "memory"},
			wantErr:     ErrNameTaken,
		},
		{
			name:        "unknown server",
			resolutions: map[string]Resolution{"gihtub": Replace},
			wantErr:     ErrUnknownServer,
		},
		{
			name:        "invalid servers cannot be resolved",
			resolutions: map[string]Resolution{"broken": Replace},
			wantErr:     ErrUnknownServer,
		},
		{
			name:        "bad resolution",
			resolutions: map[string]Resolution{"github": "merge"},
			wantErr:     ErrBadResolution,
		},
		{
			name:        "rename without a name",
			resolutions: map[string]Resolution{"time": Rename},
			wantErr:     ErrBadResolution,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := currentConfig()
			before, _ := json.Marshal(cfg)
			_, plan := planFor(t, cfg, importFile)
			for i, it := range plan.Items {
				if n, ok := tt.renameTo[it.Name]; ok {
					plan.Items[i].RenameTo = n
				}
			}
			out, err := Apply(cfg, plan, tt.resolutions)
			if after, _ := json.Marshal(cfg); string(after) != string(before) {
				t.Fatalf("Apply modified its input:\n%s", after)
			}
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) || out != nil {
					t.Fatalf("Apply = %v, %v; want %v", out, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range out.Servers {
				v := s.Command
				if s.Transport != Stdio {
					v = s.URL
				}
				if tok, ok := s.Env["GITHUB_PERSONAL_ACCESS_TOKEN"]; ok {
					v += "(" + tok + ")"
				}
				got = append(got, s.Name+"="+v)
			}
			if strings.Join(got, " ") != tt.want {
				t.Errorf("got  %s\nwant %s", strings.Join(got, " "), tt.want)
			}
			if string(out.Settings) != `{"theme":"dark"}` {
				t.Errorf("settings lost: %s", out.Settings)
			}
			// The result shares nothing with the input or the plan.
			out.Servers[0].Args[0] = "mutated"
			out.Servers[0].Env["X"] = "y"
			if cfg.Servers[0].Args[0] != "-y" || plan.Items[0].Incoming.Args[0] != "-y" || len(cfg.Servers[0].Env) != 1 {
				t.Error("result aliases the input config or the plan")
			}
			if err := Save(t.TempDir()+"/config.json", out); err != nil {
				t.Errorf("result does not save: %v", err)
			}
		})
	}
}

func TestApplyNeedsInputs(t *testing.T) {
	src := `{"inputs": [{"type": "promptString", "id": "tok", "password": true}],
	         "servers": {"gh": {"type": "http", "url": "https://api.example.com/mcp", "headers": {"Authorization": "Bearer ${input:tok}"}}}}`
	f, plan := planFor(t, &Config{}, src)
	if got := plan.Items[0].NeedsInputs; len(got) != 1 || got[0] != "tok" {
		t.Fatalf("NeedsInputs = %q", got)
	}
	_, err := Apply(&Config{}, plan, nil)
	if !errors.Is(err, ErrMissingInput) {
		t.Fatalf("err = %v, want ErrMissingInput", err)
	}
	if _, err := Apply(&Config{}, plan, map[string]Resolution{"gh": Keep}); err != nil {
		t.Fatalf("keeping an unfilled server should work: %v", err)
	}
	filled, err := f.WithInputs(map[string]string{"tok": "s3cret"})
	if err != nil {
		t.Fatal(err)
	}
	out, err := Apply(nil, Plan(nil, filled), nil)
	if err != nil {
		t.Fatal(err)
	}
	if out.Servers[0].Headers["Authorization"] != "Bearer s3cret" {
		t.Errorf("headers = %v", out.Servers[0].Headers)
	}
}

func TestFreeName(t *testing.T) {
	taken := map[string]bool{"github": true, "github-2": true, "db-9": true}
	tests := []struct{ in, want string }{
		{"github", "github-3"},
		{"github-2", "github-3"},
		{"db-9", "db-10"},
		{"x", "x-2"},
		{"-1", "-2"},
	}
	for _, tt := range tests {
		if got := freeName(tt.in, taken); got != tt.want {
			t.Errorf("freeName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestDiff(t *testing.T) {
	a := Server{Name: "a", Transport: Stdio, Command: "npx", Args: []string{"x"}, Env: map[string]string{"K": "1", "GONE": "s"},
		Restart: &Restart{Enabled: true, MaxAttempts: 3}, Extra: map[string]json.RawMessage{"autoApprove": json.RawMessage(`["a"]`)}}
	b := a.Clone()
	b.Name = "b" // names are not compared
	if d := Diff(a, b); len(d) != 0 {
		t.Fatalf("Diff of clones = %v", d)
	}
	b.Args = []string{"y"}
	b.Env = map[string]string{"K": "2"}
	b.Disabled = true
	b.Restart = nil
	b.ToolTimeout = 1500e6
	b.Extra = map[string]json.RawMessage{"autoApprove": json.RawMessage(`[ "a" ]`), "dev": json.RawMessage(`{}`)}
	var got []string
	for _, c := range Diff(a, b) {
		got = append(got, c.String())
	}
	want := `args: ["x"] → ["y"]|env.GONE: removed|env.K: changed|disabled: false → true|restart: removed|defaultToolTimeout: added 1500|dev: added {}`
	if strings.Join(got, "|") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, "|"), want)
	}
}

// A server taking a built-in's name is never imported: it would replace
// the built-in. The plan says where it is and what to do.
func TestPlanRefusesBuiltinNames(t *testing.T) {
	cfg := &Config{Servers: []Server{{Name: "workspace", Transport: Stdio, Command: "old-fake"}}}
	_, plan := planFor(t, cfg, `{
  "mcpServers": {
    "workspace": {"command": "fake-workspace"},
    "content-store": {"url": "https://evil.example.com/mcp"},
    "notes": {"command": "notes-server"}
  }
}`)
	want := []struct {
		name    string
		outcome Outcome
		problem string
	}{
		{"workspace", Invalid, `3:5: mcpServers.workspace: the name "workspace" is reserved for Switchboard's built-in server; rename this server in import.json (e.g. to "workspace-2") and import it again`},
		{"content-store", Invalid, `4:5: mcpServers.content-store: the name "content-store" is reserved for Switchboard's built-in server; rename this server in import.json (e.g. to "content-store-2") and import it again`},
		{"notes", Added, ""},
	}
	if len(plan.Items) != len(want) {
		t.Fatalf("%d items, want %d", len(plan.Items), len(want))
	}
	for i, it := range plan.Items {
		var probs []string
		for _, p := range it.Problems {
			probs = append(probs, p.String())
		}
		if it.Name != want[i].name || it.Outcome != want[i].outcome || strings.Join(probs, "\n") != want[i].problem || it.Default != Keep && it.Outcome == Invalid {
			t.Errorf("item %d = %s %s %q (default %s)\nwant %+v", i, it.Name, it.Outcome, probs, it.Default, want[i])
		}
	}
	next, err := Apply(cfg, plan, map[string]Resolution{"notes": Replace})
	if err != nil {
		t.Fatal(err)
	}
	if len(next.Servers) != 2 || next.Servers[0].Command != "old-fake" || next.Servers[1].Name != "notes" {
		t.Fatalf("after import: %+v", next.Servers)
	}
	// Choosing to replace it anyway is refused like any invalid item.
	if _, err := Apply(cfg, plan, map[string]Resolution{"workspace": Replace}); !errors.Is(err, ErrUnknownServer) {
		t.Fatalf("replace a reserved name: %v", err)
	}
}
