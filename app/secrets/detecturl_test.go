package secrets

import (
	"maps"
	"slices"
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// expandMoves is s's URL, args, env and headers with every reference of
// moves put back: what the server gets when it starts.
func expandMoves(t *testing.T, s config.Server, moves []Move) config.Server {
	t.Helper()
	vals := map[string]string{}
	for _, m := range moves {
		vals[m.Name] = m.Value()
	}
	lookup := func(kind, name string) (string, error) {
		if v, ok := vals[name]; ok && kind == "secret" {
			return v, nil
		}
		t.Fatalf("no value for ${%s:%s}", kind, name)
		return "", nil
	}
	exp := func(v string) string {
		out, err := Expand(v, lookup)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	out := s.Clone()
	out.URL = exp(out.URL)
	for i := range out.Args {
		out.Args[i] = exp(out.Args[i])
	}
	for k := range out.Env {
		out.Env[k] = exp(out.Env[k])
	}
	for k := range out.Headers {
		out.Headers[k] = exp(out.Headers[k])
	}
	return out
}

// A credential in a URL moves to the keyring wherever the URL is written
// (a remote server's url, mcp-remote's argument, after --url= or NAME=,
// in a header given as an argument, in an env value): a secret query
// parameter (camelCase too), a key in the path, a URL's password. Only
// that part becomes the reference, kept as written, so the URL is the
// same once expanded. The URLs are the ones the servers' READMEs give,
// with fake keys.
func TestURLCredentialsMove(t *testing.T) {
	const (
		tavily    = "https://mcp.tavily.com/mcp/?tavilyApiKey=tvly-dev-FAKE0000FAKE0000FAKE0000"
		exa       = "https://mcp.exa.ai/mcp?exaApiKey=0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"
		firecrawl = "https://mcp.firecrawl.dev/fc-fa4efa4efa4efa4efa4efa4efa4efa4e/v2/mcp"
		zapier    = "https://mcp.zapier.com/api/mcp/s/RkFLRS1mYWtlLUZBS0UtZmFrZS1GQUtFLWZha2UtRkFLRTox/mcp"
		smithery  = "https://server.smithery.ai/@upstash/context7-mcp/mcp?api_key=5d6e7f80-1a2b-3c4d-5e6f-708192a3b4c5&profile=quiet-bat-x1"
	)
	remote := func(args ...string) config.Server {
		return config.Server{Name: "x", Transport: config.Stdio, Command: "npx", Args: append([]string{"-y", "mcp-remote"}, args...)}
	}
	url := func(u string) config.Server { return config.Server{Name: "x", Transport: config.HTTP, URL: u} }
	cases := []struct {
		name  string
		in    config.Server
		get   func(config.Server) string // the value that holds the reference
		want  string
		moved map[string]string // field: value moved
	}{
		{"Tavily's url", url(tavily), func(s config.Server) string { return s.URL },
			"https://mcp.tavily.com/mcp/?tavilyApiKey=${secret:x_url_tavilyApiKey}", map[string]string{"url.tavilyApiKey": "tvly-dev-FAKE0000FAKE0000FAKE0000"}},
		{"Tavily's mcp-remote argument", remote(tavily), func(s config.Server) string { return s.Args[2] },
			"https://mcp.tavily.com/mcp/?tavilyApiKey=${secret:x_args_2_tavilyApiKey}", map[string]string{"args.2.tavilyApiKey": "tvly-dev-FAKE0000FAKE0000FAKE0000"}},
		{"Exa's camelCase key", url(exa), func(s config.Server) string { return s.URL },
			"https://mcp.exa.ai/mcp?exaApiKey=${secret:x_url_exaApiKey}", map[string]string{"url.exaApiKey": "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"}},
		{"Firecrawl's key in the path", url(firecrawl), func(s config.Server) string { return s.URL },
			"https://mcp.firecrawl.dev/${secret:x_url_path}/v2/mcp", map[string]string{"url.path": "fc-fa4efa4efa4efa4efa4efa4efa4efa4e"}},
		{"Zapier's secret in the path", url(zapier), func(s config.Server) string { return s.URL },
			"https://mcp.zapier.com/api/mcp/s/${secret:x_url_path}/mcp", map[string]string{"url.path": "RkFLRS1mYWtlLUZBS0UtZmFrZS1GQUtFLWZha2UtRkFLRTox"}},
		{"Smithery's api_key as an argument", remote(smithery), func(s config.Server) string { return s.Args[2] },
			"https://server.smithery.ai/@upstash/context7-mcp/mcp?api_key=${secret:x_args_2_api_key}&profile=quiet-bat-x1", map[string]string{"args.2.api_key": "5d6e7f80-1a2b-3c4d-5e6f-708192a3b4c5"}},
		{"after --url=", remote("--url=" + exa), func(s config.Server) string { return s.Args[2] },
			"--url=https://mcp.exa.ai/mcp?exaApiKey=${secret:x_args_2_exaApiKey}", map[string]string{"args.2.exaApiKey": "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"}},
		{"after NAME= (docker -e)", remote("-e", "MCP_URL="+zapier), func(s config.Server) string { return s.Args[3] },
			"MCP_URL=https://mcp.zapier.com/api/mcp/s/${secret:x_args_3_path}/mcp", map[string]string{"args.3.path": "RkFLRS1mYWtlLUZBS0UtZmFrZS1GQUtFLWZha2UtRkFLRTox"}},
		{"NAME=URL holding a known token moves whole", remote("-e", "MCP_URL="+firecrawl), func(s config.Server) string { return s.Args[3] },
			"MCP_URL=${secret:x_args_MCP_URL}", map[string]string{"args.MCP_URL": firecrawl}},
		{"in a header argument", remote("--header", "X-Upstream: "+exa), func(s config.Server) string { return s.Args[3] },
			"X-Upstream: https://mcp.exa.ai/mcp?exaApiKey=${secret:x_args_3_exaApiKey}", map[string]string{"args.3.exaApiKey": "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"}},
		{"an env value", config.Server{Name: "x", Transport: config.Stdio, Command: "node", Env: map[string]string{"UPSTREAM_URL": exa}},
			func(s config.Server) string { return s.Env["UPSTREAM_URL"] },
			"https://mcp.exa.ai/mcp?exaApiKey=${secret:x_env_UPSTREAM_URL_exaApiKey}", map[string]string{"env.UPSTREAM_URL.exaApiKey": "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"}},
		{"an env value holding a known token moves whole", config.Server{Name: "x", Transport: config.Stdio, Command: "node", Env: map[string]string{"TAVILY_URL": tavily}},
			func(s config.Server) string { return s.Env["TAVILY_URL"] }, "${secret:x_TAVILY_URL}", map[string]string{"env.TAVILY_URL": tavily}},
		{"escaped, kept as written", url("https://api.example.com/mcp?access_token=ab%2Bcd%2F1234xyz&x=1#top"), func(s config.Server) string { return s.URL },
			"https://api.example.com/mcp?access_token=${secret:x_url_access_token}&x=1#top", map[string]string{"url.access_token": "ab%2Bcd%2F1234xyz"}},
		{"a password and a signature", url("https://me:p%40ss1234@files.example.com/mcp?sig=0a1b2c3d4e5f&v=2"), func(s config.Server) string { return s.URL },
			"https://me:${secret:x_url_password}@files.example.com/mcp?sig=${secret:x_url_sig}&v=2", map[string]string{"url.password": "p%40ss1234", "url.sig": "0a1b2c3d4e5f"}},
		{"a password in an https argument", remote("https://me:hunter2hunter2@mcp.example.com/mcp"), func(s config.Server) string { return s.Args[2] },
			"https://me:${secret:x_args_2}@mcp.example.com/mcp", map[string]string{"args.2": "hunter2hunter2"}},
		{"the value after a key segment", url("https://api.example.com/mcp/apikey/a1b2c3d4e5f6a7b8c9d0/sse"), func(s config.Server) string { return s.URL },
			"https://api.example.com/mcp/apikey/${secret:x_url_path}/sse", map[string]string{"url.path": "a1b2c3d4e5f6a7b8c9d0"}},
		{"a known token in a GitHub URL still moves", url("https://raw.githubusercontent.com/o/r/main/x.json?token=ghp_FAKEfakeFAKEfakeFAKEfake0000"), func(s config.Server) string { return s.URL },
			"https://raw.githubusercontent.com/o/r/main/x.json?token=${secret:x_url_token}", map[string]string{"url.token": "ghp_FAKEfakeFAKEfakeFAKEfake0000"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, moves := Extract(c.in, nil)
			if got := c.get(out); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
			moved := map[string]string{}
			for _, m := range moves {
				moved[m.Field] = m.Value()
			}
			if !maps.Equal(moved, c.moved) {
				t.Errorf("moved %v, want %v", moved, c.moved)
			}
			if back := expandMoves(t, out, moves); c.get(back) != c.get(c.in) {
				t.Errorf("expanded: %s, want the URL as written: %s", c.get(back), c.get(c.in))
			}
			// Kept by choice: the URL stays as written, nothing else moves.
			keep := map[string]bool{}
			for f := range c.moved {
				keep["x."+f] = true
			}
			if out, moves := Extract(c.in, keep); c.get(out) != c.get(c.in) || len(moves) != 0 {
				t.Errorf("kept: %s, %d moves", c.get(out), len(moves))
			}
		})
	}
}

// Ordinary URLs stay as written, as a remote server's url and as an
// argument: the ones in the configs people commit (localhost ports,
// hosted servers, @scope paths, query settings), a git commit, a UUID
// and a document id in a path, a name in CamelCase, a README's stand-in.
func TestOrdinaryURLsStay(t *testing.T) {
	for _, u := range []string{
		"https://mcp.notion.com/mcp",
		"https://api.githubcopilot.com/mcp/",
		"https://server.smithery.ai/@x/y/mcp",
		"https://server.smithery.ai/@upstash/context7-mcp/mcp?profile=quiet-bat-x1",
		"http://localhost:3001/sse",
		"http://127.0.0.1:8765",
		"http://localhost:7860/gradio_api/mcp/sse",
		"https://mcp.supabase.com/mcp?project_ref=sxqopofoynsqkztozlix&features=docs%2Caccount%2Cdatabase",
		"https://mcp.sentry.dev/mcp/kairo-digital/javascript-nextjs",
		"https://mcp.atlassian.com/v1/sse",
		"https://docs.mcp.cloudflare.com/mcp",
		"https://mcp.polar.sh/mcp/polar-mcp",
		"https://huggingface.co/mcp",
		"https://bookapi-mcp-server.default.svc.cluster.local/",
		"https://raw.githubusercontent.com/modelcontextprotocol/servers/3f9a2c7b10de4e8f9a2c7b10de4e8f9a2c7b10de/README.md",
		"https://github.com/0xc1x/fudi/blob/cb933dbec80f19274561188bf4e3ce78dbddc57a/.cursor/mcp.json",
		"https://docs.example.com/guides/123e4567-e89b-12d3-a456-426614174000/setup",
		"https://docs.google.com/document/d/1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms/edit",
		"https://api.example.com/v1/ModelContextProtocolServer2024/mcp",
		"https://mcp.example.com/mcp?token_url=https%3A%2F%2Fauth.example.com%2Ftoken&hotkey=ctrl-shift-k",
		"https://mcp.firecrawl.dev/{FIRECRAWL_API_KEY}/v2/mcp",
		"https://mcp.tavily.com/mcp/?tavilyApiKey=YOUR_API_KEY",
		"https://mcp.example.com/oauth/token/refresh",
		"https://api.example.com/${secret:mine}/mcp?key=${env:KEY}",
	} {
		for _, s := range []config.Server{
			{Name: "x", Transport: config.HTTP, URL: u},
			{Name: "x", Transport: config.Stdio, Command: "npx", Args: []string{"-y", "mcp-remote", u, "--header", "X-Docs: " + u}},
		} {
			out, moves := Extract(s, nil)
			if out.URL != s.URL || !slices.Equal(out.Args, s.Args) || len(moves) != 0 {
				t.Errorf("%s: moved %+v (url %s, args %q)", u, moves, out.URL, out.Args)
			}
		}
	}
}

// Names are read as words, camelCase ones too, and a last word that ends
// like a credential's name counts; short endings only as whole words.
func TestSecretWordCamelCase(t *testing.T) {
	for _, c := range []struct {
		name string
		want bool
	}{
		{"tavilyApiKey", true},
		{"exaApiKey", true},
		{"APIKey", true},
		{"accessToken", true},
		{"accesstoken", true},
		{"clientSecret", true},
		{"X-Amz-Signature", true},
		{"sig", true},
		{"basicauth", true},
		{"--db-password", true},
		{"x-goog-api-key", true},
		{"hotkey", false},
		{"monkey", false},
		{"keyFile", false},
		{"tokenUrl", false},
		{"apiKeyId", false},
		{"profile", false},
		{"signup", false},
	} {
		if got := secretWord(c.name, "abcdefgh1234"); got != c.want {
			t.Errorf("secretWord(%q) = %v, want %v", c.name, got, c.want)
		}
	}
}

// Tokens of known shapes are credentials by their shape alone, with
// their random tails; the bare prefixes and words that start like them
// are not.
func TestCredentialTokenShapes(t *testing.T) {
	for _, c := range []struct {
		v    string
		want bool
	}{
		{"tvly-dev-FAKE0000FAKE0000FAKE0000", true},
		{"tvly-FAKE0000FAKE0000FAKE0000", true},
		{"fc-fa4efa4efa4efa4efa4efa4efa4efa4e", true},
		{"figd_FAKE-fake_FAKE-fake_FAKE-fake_FAKE", true},
		{"sbp_fa4efa4efa4efa4efa4efa4efa4efa4efa4efa4e", true},
		{"ctx7sk-fa4efa4e-fa4e-fa4e-fa4e-fa4efa4efa4e", true},
		{"ghp_FAKEfakeFAKEfakeFAKEfake0000", true},
		{"sk-ak-AbC9dEf8GhI7jKl6MnO5pQr4StU3", true},
		{"xoxb-000000000000-0000000000000-FAKEfakeFAKEfakeFAKEfake", true},
		{"AKIAFAKEFAKEFAKEFAKE", true},
		{"tvly-dev", false},
		{"fc-list", false},
		{"fc-cache-refresh", false},
		{"sk-learn-tutorial-2024-edition", false},
		{"secret_santa", false},
		{"hf_transfer", false},
		{"sk-xxxxxxxxxxxxxxxxxxxx", false},
	} {
		if got := credentialToken(c.v) && !config.Placeholder(c.v); got != c.want {
			t.Errorf("credentialToken(%q) = %v, want %v", c.v, got, c.want)
		}
	}
}
