package secrets

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/zalando/go-keyring"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

func TestLooksSecret(t *testing.T) {
	cases := []struct {
		name, value string
		header      bool
		want        bool
	}{
		{"GITHUB_PERSONAL_ACCESS_TOKEN", "ghp_1234567890abcdef", false, true},
		{"OPENAI_API_KEY", "sk-proj-abcdefghijkl", false, true},
		{"BRAVE_API_KEY", "BSAabcdefghijklmnop", false, true},
		{"DB_PASSWORD", "hunter2hunter2", false, true},
		{"SLACK_BOT_TOKEN", "xoxb-1-2-3", false, true},
		{"SOMETHING", "AKIAIOSFODNN7EXAMPLE", false, true}, // shape alone
		{"JWT", "eyJhbGciOiJIUzI1NiJ9.e30.x", false, true},
		// A README's stand-ins are not credentials: the import warns of them.
		{"GITHUB_PERSONAL_ACCESS_TOKEN", "<YOUR_TOKEN>", false, false},
		{"OPENAI_API_KEY", "sk-xxxxxxxxxxxxxxxx", false, false},
		{"Authorization", "Bearer YOUR_API_KEY", true, false},
		{"Authorization", "Bearer abc.def", true, true},
		{"X-Api-Key", "abc123abc123", true, true},
		{"Content-Type", "application/json", true, false},
		{"PATH", "/usr/bin:/bin", false, false},
		{"MEMORY_FILE_PATH", "/tmp/memory.jsonl", false, false},
		{"AUTH_ENABLED", "true", false, false},
		{"API_KEY", "${input:key}", false, false},
		{"API_KEY", "${secret:x}", false, false},
		{"TOKEN_URL", "https://example.com/token", false, false},
		{"DEBUG", "1", false, false},
		// Headers are read as words, whatever their separator.
		{"CONTEXT7_API_KEY", "ctx7sk-abcdef123456", true, true},
		{"X-Goog-Api-Key", "abcdefgh1234", true, true},
		{"apikey", "abcdefgh1234", true, true},
		{"X-Auth-Token", "abcdefgh1234", true, true},
		{"X-Auth-Method", "basic", true, false},
		{"X-Key-Id", "production-1", true, false},
		{"Accept", "application/json", true, false},
		// A credential inside a longer value, or a URL's password.
		{"OPENAPI_MCP_HEADERS", `{"Authorization": "Bearer ntn_1234567890abcdef", "Notion-Version": "2022-06-28"}`, false, true},
		{"DATABASE_URL", "postgresql://app:hunter22@localhost:5432/db", false, true},
		{"DATABASE_URL", "postgresql://localhost:5432/db", false, false},
		{"TASK_RUNNER", "task-runner-for-everything", false, false},
		// "$NAME" names a variable of the environment (Gemini CLI).
		{"API_KEY", "$MY_API_TOKEN", false, false},
	}
	for _, c := range cases {
		if got := LooksSecret(c.name, c.value, c.header); got != c.want {
			t.Errorf("LooksSecret(%q, %q, header=%v) = %v, want %v", c.name, c.value, c.header, got, c.want)
		}
	}
}

func TestExtractAndOptOut(t *testing.T) {
	s := config.Server{Name: "github", Transport: config.Stdio, Command: "docker",
		Env:     map[string]string{"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_abcdefghijklmnop1234", "LOG_LEVEL": "debug"},
		Headers: map[string]string{"Authorization": "Bearer sk-abcdefghijkl9876"}}
	out, moves := Extract(s, nil)
	if out.Env["GITHUB_PERSONAL_ACCESS_TOKEN"] != "${secret:github_GITHUB_PERSONAL_ACCESS_TOKEN}" || out.Env["LOG_LEVEL"] != "debug" {
		t.Fatalf("env = %v", out.Env)
	}
	if out.Headers["Authorization"] != "${secret:github_Authorization}" {
		t.Fatalf("headers = %v", out.Headers)
	}
	if s.Env["GITHUB_PERSONAL_ACCESS_TOKEN"] != "ghp_abcdefghijklmnop1234" {
		t.Fatal("Extract changed its input")
	}
	if len(moves) != 2 || moves[0].Masked != "••••1234" || moves[1].Key() != "github.headers.Authorization" {
		t.Fatalf("moves = %+v", moves)
	}
	out, moves = Extract(s, map[string]bool{"github.env.GITHUB_PERSONAL_ACCESS_TOKEN": true})
	if len(moves) != 1 || out.Env["GITHUB_PERSONAL_ACCESS_TOKEN"] != "ghp_abcdefghijklmnop1234" {
		t.Fatalf("opt-out ignored: %+v %v", moves, out.Env)
	}
}

// Credentials written on the command line or in the URL move too, and only
// their own part of the string becomes the reference.
func TestExtractArgsAndURL(t *testing.T) {
	s := config.Server{Name: "x", Transport: config.Stdio, Command: "npx", Args: []string{
		"-y", "some-server",
		"--api-key", "sk-abcdefghijklmnop", // a secret flag's value
		"--token=abcdefghijklmnop",    // the same, one argument
		"--key-file", "/home/me/.key", // a path is not the credential
		"-e", "GITHUB_TOKEN=ghp_abcdefghijklmnop1234", // docker's KEY=VALUE
		"--header", "Authorization: Bearer abcdefghijklmnop", // mcp-remote's header
		"postgresql://app:p%40ss1234@localhost/db", // a URL's password, as written
		"--verbose", "--log-level", "debug",
	}}
	out, moves := Extract(s, nil)
	want := []string{
		"-y", "some-server",
		"--api-key", "${secret:x_args_api-key}",
		"--token=${secret:x_args_token}",
		"--key-file", "/home/me/.key",
		"-e", "GITHUB_TOKEN=${secret:x_args_GITHUB_TOKEN}",
		"--header", "Authorization: ${secret:x_args_Authorization}",
		"postgresql://app:${secret:x_args_11}@localhost/db",
		"--verbose", "--log-level", "debug",
	}
	if !slices.Equal(out.Args, want) {
		t.Fatalf("args =\n%q\nwant\n%q", out.Args, want)
	}
	values := map[string]string{}
	for _, m := range moves {
		values[m.Field] = m.Value()
	}
	if values["args.11"] != "p%40ss1234" || values["args.Authorization"] != "Bearer abcdefghijklmnop" || len(values) != 5 {
		t.Fatalf("moves = %v", values)
	}
	out, moves = Extract(s, map[string]bool{"x.args.api-key": true})
	if out.Args[3] != "sk-abcdefghijklmnop" || len(moves) != 4 {
		t.Fatalf("opt-out ignored: %q %d moves", out.Args[3], len(moves))
	}

	r := config.Server{Name: "r", Transport: config.HTTP, URL: "https://server.example.com/mcp?api_key=abcdef123456&profile=work#x"}
	out, moves = Extract(r, nil)
	if out.URL != "https://server.example.com/mcp?api_key=${secret:r_url_api_key}&profile=work#x" || len(moves) != 1 || moves[0].Value() != "abcdef123456" {
		t.Fatalf("url = %s, moves %+v", out.URL, moves)
	}
}

func TestExtractOAuthClientSecret(t *testing.T) {
	cases := []struct {
		name, secret, want string
		keep               bool
		moves              int
	}{
		{"plaintext moves to the keyring", "short", "${secret:linear_OAUTH_CLIENT_SECRET}", false, 1},
		{"a reference stays", "${secret:mine}", "${secret:mine}", false, 0},
		{"kept in plaintext by choice", "short", "short", true, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := config.Server{Name: "linear", Transport: config.HTTP, URL: "https://mcp.linear.app/mcp",
				OAuth: &config.OAuth{ClientID: "sb", ClientSecret: c.secret}}
			out, moves := Extract(s, map[string]bool{"linear.oauth.clientSecret": c.keep})
			if out.OAuth.ClientSecret != c.want || len(moves) != c.moves || s.OAuth.ClientSecret != c.secret {
				t.Fatalf("secret %q, moves %+v (input now %q)", out.OAuth.ClientSecret, moves, s.OAuth.ClientSecret)
			}
			if c.moves == 1 && (moves[0].Key() != "linear.oauth.clientSecret" || moves[0].Masked == c.secret) {
				t.Errorf("move %+v", moves[0])
			}
		})
	}
}

func TestStoreWithMockKeyring(t *testing.T) {
	keyring.MockInit()
	BusCheck = nil
	st := NewStore()
	if err := st.Available(); err != nil {
		t.Fatal(err)
	}
	_, moves := Extract(config.Server{Name: "gh", Env: map[string]string{"GH_TOKEN": "ghp_secretvalue0001"}}, nil)
	if names, err := st.StoreMoves(moves); err != nil || len(names) != 1 || names[0] != "gh_GH_TOKEN" {
		t.Fatalf("StoreMoves = %v, %v", names, err)
	}
	if v, err := st.Get("gh_GH_TOKEN"); err != nil || v != "ghp_secretvalue0001" {
		t.Fatalf("Get = %q, %v", v, err)
	}
	t.Setenv("SB_TEST_REGION", "eu-west-1")
	if err := st.Delete("gh_GH_TOKEN"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Get("gh_GH_TOKEN"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("after delete: %v", err)
	}
	if err := st.Set("bad name!", "v"); !errors.Is(err, ErrBadName) {
		t.Fatalf("bad name: %v", err)
	}
}

func TestUnavailableKeyringSaysWhatToDo(t *testing.T) {
	keyring.MockInitWithError(errors.New("dbus: no session bus"))
	BusCheck = nil
	err := NewStore().Available()
	if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "install and unlock gnome-keyring") {
		t.Fatalf("Available = %v", err)
	}
	// ${env:...} keeps working without a keyring.
	t.Setenv("SB_X", "y")
	if v, err := Expand("${env:SB_X}", NewStore().Lookup); err != nil || v != "y" {
		t.Fatalf("env expand = %q, %v", v, err)
	}
}

func TestIndexInSettings(t *testing.T) {
	raw := json.RawMessage(`{"theme":"dark"}`)
	raw, err := WithNames(raw, true, "b", "a", "b")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(Names(raw), ","); got != "a,b" || !strings.Contains(string(raw), `"theme":"dark"`) {
		t.Fatalf("index = %s", raw)
	}
	raw, _ = WithNames(raw, false, "a")
	if got := strings.Join(Names(raw), ","); got != "b" {
		t.Fatalf("after remove = %s", raw)
	}
}

// ${env:NAME:-default} (Claude Code's ${NAME:-default}) gives the default
// when NAME is unset or empty, as a shell does; without one an unset NAME
// is an error that names it.
func TestLookupEnvDefault(t *testing.T) {
	t.Setenv("SB_TEST_SET", "value")
	t.Setenv("SB_TEST_EMPTY", "")
	s := &Store{}
	for _, c := range []struct{ name, want string }{
		{"SB_TEST_SET", "value"},
		{"SB_TEST_SET:-other", "value"},
		{"SB_TEST_EMPTY:-fallback", "fallback"},
		{"SB_TEST_UNSET_X:-postgres://localhost/dev", "postgres://localhost/dev"},
		{"SB_TEST_UNSET_X:-", ""},
		{"SB_TEST_EMPTY", ""},
	} {
		if got, err := s.Lookup("env", c.name); err != nil || got != c.want {
			t.Errorf("Lookup(env, %q) = %q, %v; want %q", c.name, got, err, c.want)
		}
	}
	if _, err := s.Lookup("env", "SB_TEST_UNSET_X"); !errors.Is(err, ErrUnset) || !strings.Contains(err.Error(), "${env:SB_TEST_UNSET_X}") {
		t.Errorf("unset: %v", err)
	}
	got, err := Expand("${env:SB_TEST_UNSET_X:-https://api.example.com}/mcp", s.Lookup)
	if err != nil || got != "https://api.example.com/mcp" {
		t.Errorf("Expand = %q, %v", got, err)
	}
}
