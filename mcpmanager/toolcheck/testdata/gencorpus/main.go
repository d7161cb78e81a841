// Command gencorpus writes ../clean.json: the tool definitions of the 18
// real servers the find_tools test lists (app/chat/toolsearch/testdata/npm
// and mcpmanager/testdata/npm, installed by 'make deps-test'), started with
// placeholder credentials as that test starts them. toolcheck's test runs
// the checker over them and expects no finding. Run it from the repository
// root when the pinned servers change:
//
//	go run ./mcpmanager/toolcheck/testdata/gencorpus
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

// Entry is one tool of the corpus.
type Entry struct {
	Server      string          `json:"server"`
	Name        string          `json:"name"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "gencorpus:", err)
		os.Exit(1)
	}
}

func run() error {
	lib, _ := filepath.Abs("app/chat/toolsearch/testdata/npm/node_modules/.bin")
	base, _ := filepath.Abs("mcpmanager/testdata/npm/node_modules/.bin")
	for _, dir := range []string{lib, base} {
		if _, err := os.Stat(dir); err != nil {
			return fmt.Errorf("%s is missing: run 'make deps-test' from the repository root", dir)
		}
	}
	home, _ := os.MkdirTemp("", "gencorpus-home-")
	files, _ := os.MkdirTemp("", "gencorpus-files-")
	defer os.RemoveAll(home)
	defer os.RemoveAll(files)
	servers := []mcpmanager.ServerConfig{
		{Name: "github", Command: filepath.Join(lib, "mcp-server-github"), Env: map[string]string{"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_test"}},
		{Name: "gitlab", Command: filepath.Join(lib, "mcp-server-gitlab"), Env: map[string]string{"GITLAB_PERSONAL_ACCESS_TOKEN": "test"}},
		{Name: "slack", Command: filepath.Join(lib, "mcp-server-slack"), Env: map[string]string{"SLACK_BOT_TOKEN": "xoxb-test", "SLACK_TEAM_ID": "T1"}},
		{Name: "maps", Command: filepath.Join(lib, "mcp-server-google-maps"), Env: map[string]string{"GOOGLE_MAPS_API_KEY": "test"}},
		{Name: "notion", Command: filepath.Join(lib, "notion-mcp-server")},
		{Name: "playwright", Command: filepath.Join(lib, "playwright-mcp")},
		{Name: "chrome", Command: filepath.Join(lib, "chrome-devtools-mcp")},
		{Name: "k8s", Command: filepath.Join(lib, "mcp-server-kubernetes")},
		{Name: "mongodb", Command: filepath.Join(lib, "mongodb-mcp-server")},
		{Name: "circleci", Command: filepath.Join(lib, "mcp-server-circleci"), Env: map[string]string{"CIRCLECI_TOKEN": "test"}},
		{Name: "firecrawl", Command: filepath.Join(lib, "firecrawl-mcp"), Env: map[string]string{"FIRECRAWL_API_KEY": "fc-test"}},
		{Name: "desktop", Command: filepath.Join(lib, "desktop-commander")},
		{Name: "hubspot", Command: filepath.Join(lib, "mcp-hubspot"), Env: map[string]string{"PRIVATE_APP_ACCESS_TOKEN": "test"}},
		{Name: "sentry", Command: filepath.Join(lib, "sentry-mcp"), Args: []string{"--access-token=test"}},
		{Name: "tavily", Command: filepath.Join(lib, "tavily-mcp"), Env: map[string]string{"TAVILY_API_KEY": "test"}},
		{Name: "everything", Command: filepath.Join(base, "mcp-server-everything")},
		{Name: "memory", Command: filepath.Join(base, "mcp-server-memory"), Env: map[string]string{"MEMORY_FILE_PATH": filepath.Join(files, "memory.json")}},
		{Name: "filesystem", Command: filepath.Join(base, "mcp-server-filesystem"), Args: []string{files}},
	}
	for i := range servers {
		if servers[i].Env == nil {
			servers[i].Env = map[string]string{}
		}
		servers[i].Env["HOME"] = home
		servers[i].Restart = supervisor.Restart{Disabled: true}
		servers[i].StartTimeout = 3 * time.Minute
	}
	m := mcpmanager.New(mcpmanager.Options{})
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = m.Close(ctx)
	}()
	m.Apply(servers)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	m.WaitSettled(ctx)
	tools, errs := m.Router().Tools(ctx)
	for _, e := range errs {
		fmt.Fprintf(os.Stderr, "server %s: %s\n", e.Server, e.Err)
	}
	out := make([]Entry, 0, len(tools))
	for _, t := range tools {
		schema, err := t.Schema()
		if err != nil {
			return err
		}
		out = append(out, Entry{Server: t.Server, Name: t.Tool.Name, Title: t.Tool.Title, Description: t.Tool.Description, InputSchema: schema})
	}
	raw, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "%d tools from %d servers\n", len(out), len(servers)-len(errs))
	return os.WriteFile("mcpmanager/toolcheck/testdata/clean.json", append(raw, '\n'), 0o644)
}
