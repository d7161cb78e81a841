package toolsearch_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/app/chat/toolsearch"
	"github.com/switchboard-app/switchboard/mcpmanager"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

// realTools starts 18 real MCP servers from npm (testdata/npm and the
// manager's own test servers) with placeholder credentials, and lists their
// tools. None is called: listing needs no network or account.
func realTools(t *testing.T) []toolsearch.Tool {
	t.Helper()
	lib, _ := filepath.Abs("testdata/npm/node_modules/.bin")
	base, _ := filepath.Abs("../../../mcpmanager/testdata/npm/node_modules/.bin")
	for _, dir := range []string{lib, base} {
		if _, err := os.Stat(dir); err != nil {
			t.Fatalf("%s is missing: run `make deps-test` (it runs npm ci there)", dir)
		}
	}
	home := t.TempDir() // desktop-commander and others write their settings under $HOME
	files := t.TempDir()
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
		servers[i].StartTimeout = 2 * time.Minute // 18 node processes start at once on 2 cores
	}
	m := mcpmanager.New(mcpmanager.Options{})
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = m.Close(ctx)
	})
	m.Apply(servers)
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	m.WaitSettled(ctx)
	tools, errs := m.Router().Tools(ctx)
	for _, e := range errs {
		t.Errorf("server %s: %s", e.Server, e.Err)
	}
	var out []toolsearch.Tool
	perServer := map[string]int{}
	for _, tl := range tools {
		schema := tl.Tool.RawInputSchema
		if len(schema) == 0 {
			schema, _ = json.Marshal(tl.Tool.InputSchema)
		}
		out = append(out, toolsearch.Tool{Name: tl.Name, Server: tl.Server, Title: tl.Tool.Title, Description: tl.Tool.Description, InputSchema: schema})
		perServer[tl.Server]++
	}
	for _, s := range servers {
		if perServer[s.Name] == 0 {
			t.Errorf("server %s listed no tools", s.Name)
		}
	}
	return out
}

func TestFindToolsAcrossRealServers(t *testing.T) {
	tools := realTools(t)
	if len(tools) < 300 {
		t.Fatalf("only %d tools from the real servers; the test needs 300+", len(tools))
	}
	checkFormCorpus(t, tools)
	// With all of them, tool search is on even for a 128k model; the
	// built-ins with the filesystem and memory servers leave an unknown
	// model (the smallest window assumed) every tool.
	perServer := map[string]int{}
	all := 0
	for _, tl := range tools {
		n := toolsearch.Tokens(tl.Name, tl.Description, tl.InputSchema)
		perServer[tl.Server] += n
		all += n
	}
	t.Logf("tokens per server: %v", perServer)
	if d := toolsearch.Decide(len(tools), all, 128_000, toolsearch.Rule{}); !d.On {
		t.Errorf("all real tools: %s", d.Reason)
	}
	two := tokensOf(builtinDefs(t)) + perServer["filesystem"] + perServer["memory"]
	if d := toolsearch.Decide(17+14+9, two, 0, toolsearch.Rule{}); d.On {
		t.Errorf("built-ins, filesystem and memory: %s", d.Reason)
	}

	ix, err := toolsearch.New(tools)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()

	// Each need names the tools that would do; one of them must be in the
	// top 5. Needs are phrased the way a model asks, not with tool names.
	needs := []struct {
		need string
		want []string
	}{
		{"open a pull request on GitHub", []string{"github__create_pull_request"}},
		{"file a bug report in a GitHub repository", []string{"github__create_issue"}},
		{"comment on an existing GitHub issue", []string{"github__add_issue_comment"}},
		{"create a merge request in GitLab", []string{"gitlab__create_merge_request"}},
		{"post a message to a Slack channel", []string{"slack__slack_post_message"}},
		{"reply in a Slack thread", []string{"slack__slack_reply_to_thread"}},
		{"driving directions between two addresses", []string{"maps__maps_directions"}},
		{"turn a street address into latitude and longitude", []string{"maps__maps_geocode"}},
		{"search Notion for a page", []string{"notion__API-post-search"}},
		{"take a screenshot of the web page", []string{"playwright__browser_take_screenshot", "chrome__take_screenshot"}},
		{"click a button in the browser", []string{"playwright__browser_click", "chrome__click"}},
		{"record a performance trace of the page load", []string{"chrome__performance_start_trace"}},
		{"show the logs of a kubernetes pod", []string{"k8s__kubectl_logs"}},
		{"scale a deployment to 3 replicas", []string{"k8s__kubectl_scale"}},
		{"install a helm chart", []string{"k8s__install_helm_chart"}},
		{"find documents in a MongoDB collection", []string{"mongodb__find"}},
		{"create an index on a mongo collection", []string{"mongodb__create-index"}},
		{"why did my CircleCI build fail", []string{"circleci__get_build_failure_logs"}},
		{"find flaky tests", []string{"circleci__find_flaky_tests"}},
		{"scrape a website and return markdown", []string{"firecrawl__firecrawl_scrape"}},
		{"crawl every page of a site", []string{"firecrawl__firecrawl_crawl", "tavily__tavily_crawl"}},
		{"search the web for recent news", []string{"tavily__tavily_search", "firecrawl__firecrawl_search"}},
		{"run a terminal command", []string{"desktop__start_process"}},
		{"kill a running process", []string{"desktop__kill_process", "desktop__force_terminate"}},
		{"create contacts in HubSpot", []string{"hubspot__hubspot-batch-create-objects"}},
		{"search Sentry for errors in production", []string{"sentry__search_issues", "sentry__search_events"}},
		{"remember a new fact about a person in the knowledge graph", []string{"memory__add_observations", "memory__create_entities"}},
		{"read the contents of a text file", []string{"filesystem__read_text_file", "filesystem__read_file", "desktop__read_file"}},
		{"echo back a message", []string{"everything__echo"}},
		{"add two numbers", []string{"everything__get-sum", "everything__add"}},
	}
	misses := 0
	for _, n := range needs {
		hits, err := ix.Search(n.need, 5)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, h := range hits {
			names = append(names, h.Name)
		}
		ok := slices.ContainsFunc(names, func(s string) bool { return slices.Contains(n.want, s) })
		if !ok {
			misses++
			t.Errorf("%q: top 5 = %v, want one of %v", n.need, names, n.want)
		}
		t.Logf("%-58s → %s", n.need, strings.Join(names, ", "))
	}
	t.Logf("%d tools, %d needs, %d misses", len(tools), len(needs), misses)
}

func TestSearchErrorsAndWords(t *testing.T) {
	ix, err := toolsearch.New([]toolsearch.Tool{
		{Name: "web__takeScreenshot", Server: "web", Description: "Capture the visible page."},
		{Name: "db__run_query", Server: "db", Description: "Run SQL.", InputSchema: json.RawMessage(`{"type":"object","properties":{"sql":{"type":"string","description":"a SELECT statement"}}}`)},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Search("  ", 5); err != toolsearch.ErrEmptyQuery {
		t.Fatalf("empty query: %v", err)
	}
	for q, want := range map[string]string{
		"screenshots":      "web__takeScreenshot", // camelCase split + stemming
		"select statement": "db__run_query",       // from the parameter description
		"run queries":      "db__run_query",
	} {
		hits, err := ix.Search(q, 1)
		if err != nil || len(hits) != 1 || hits[0].Name != want {
			t.Errorf("%q → %v %v, want %s", q, hits, err, want)
		}
	}
	if hits, _ := ix.Search("kubernetes", 5); len(hits) != 0 {
		t.Errorf("a need nothing fits found %v", hits)
	}
	_ = fmt.Sprint()
}
