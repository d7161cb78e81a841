package mcpregistry_test

import (
	"maps"
	"slices"
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/mcpregistry"
)

// TestDockerSecretsOffTheCommandLine: an OCI package that sets a secret
// with a runtime argument "-e NAME={token}" (as GitHub's own server.json
// does) gets it through docker's environment, "-e NAME" on the command line
// and NAME in the entry's env: a command line is readable by every user of
// the computer (ps), an environment is not. A value without a reference
// stays where the document put it, and "-e NAME" is there once when an
// environment variable of the package names it too.
func TestDockerSecretsOffTheCommandLine(t *testing.T) {
	pkg := func(extra string) string {
		return `{"name": "io.github.github/github-mcp-server", "description": "d", "version": "0.20.1", "packages": [{"registryType": "oci",
			"identifier": "ghcr.io/github/github-mcp-server", "version": "0.20.1", "transport": {"type": "stdio"}` + extra + `}]}`
	}
	tests := []struct {
		name   string
		doc    string
		values map[string]string
		args   []string
		env    map[string]string
	}{
		{"GitHub's -e NAME={token}", pkg(`, "runtimeArguments": [{"type": "named", "name": "-e", "value": "GITHUB_PERSONAL_ACCESS_TOKEN={token}",
			"isRequired": true, "variables": {"token": {"isRequired": true, "isSecret": true}}}]`),
			map[string]string{"token": "${secret:server.abc.token}"},
			[]string{"run", "-i", "--rm", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN", "ghcr.io/github/github-mcp-server:0.20.1"},
			map[string]string{"GITHUB_PERSONAL_ACCESS_TOKEN": "${secret:server.abc.token}"}},
		{"--env in one word", pkg(`, "runtimeArguments": [{"type": "positional", "value": "--env=TOKEN={token}",
			"variables": {"token": {"isRequired": true, "isSecret": true}}}]`),
			map[string]string{"token": "${secret:server.abc.token}"},
			[]string{"run", "-i", "--rm", "-e", "TOKEN", "ghcr.io/github/github-mcp-server:0.20.1"},
			map[string]string{"TOKEN": "${secret:server.abc.token}"}},
		{"a plain value stays", pkg(`, "runtimeArguments": [{"type": "named", "name": "-e", "value": "MODE={mode}",
			"variables": {"mode": {"default": "fast"}}}]`),
			nil,
			[]string{"run", "-i", "--rm", "-e", "MODE=fast", "ghcr.io/github/github-mcp-server:0.20.1"},
			nil},
		{"-e NAME once with the package's variable", pkg(`, "runtimeArguments": [{"type": "named", "name": "-e", "value": "GITHUB_PERSONAL_ACCESS_TOKEN"}],
			"environmentVariables": [{"name": "GITHUB_PERSONAL_ACCESS_TOKEN", "isRequired": true, "isSecret": true}]`),
			map[string]string{"GITHUB_PERSONAL_ACCESS_TOKEN": "${secret:server.abc.pat}"},
			[]string{"run", "-i", "--rm", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN", "ghcr.io/github/github-mcp-server:0.20.1"},
			map[string]string{"GITHUB_PERSONAL_ACCESS_TOKEN": "${secret:server.abc.pat}"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := serverJSON(t, tt.doc)
			e, err := mcpregistry.Entry(s, mcpregistry.Options(s)[0], tt.values)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(e.Args, tt.args) || !maps.Equal(e.Env, tt.env) {
				t.Errorf("Entry = %q, env %v; want %q, env %v", e.Args, e.Env, tt.args, tt.env)
			}
		})
	}
}
