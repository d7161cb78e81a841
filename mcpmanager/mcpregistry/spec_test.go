package mcpregistry_test

import (
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/mcpregistry"
	"github.com/switchboard-app/switchboard/mcpmanager/mcpregistry/mcpregistrytest"
)

// example is the server.json of mcpregistrytest.Examples named name (its
// latest version).
func example(t *testing.T, name string) mcpregistry.ServerJSON {
	t.Helper()
	var found *mcpregistry.ServerJSON
	for _, e := range mcpregistrytest.Examples {
		if s := serverJSON(t, e.Doc); s.Name == name && !e.Meta.NotLatest {
			found = &s
		}
	}
	if found == nil {
		t.Fatalf("no example %s", name)
	}
	return *found
}

// TestEntryOfTheSpecsExamples: the command lines the server.json spec's
// examples make. A named argument with no value (none fixed, given or
// defaulted) is left out, never a bare flag that takes the next argument;
// only a boolean one is a bare flag, when true. Every input can be given,
// the optional ones and those with a default too; a {name} with no
// variable stays as it is and is not asked.
func TestEntryOfTheSpecsExamples(t *testing.T) {
	db := map[string]string{"DB_USERNAME": "u", "DB_PASSWORD": "${secret:db.pw}", "database_name": "mydb", "db_type": "postgres"}
	with := func(m map[string]string, kv ...string) map[string]string {
		m = maps.Clone(m)
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	tests := []struct {
		name, server string
		option       int
		values       map[string]string
		command      string
		args         []string
		env          map[string]string // nil: not checked
	}{
		{"database-manager: the optional --port left out", "io.github.example/database-manager", 0, db,
			"docker", []string{"run", "-i", "--rm", "-e", "DB_TYPE=postgres", "-e", "DB_USERNAME", "-e", "DB_PASSWORD", "-e", "SSL_MODE",
				"example/database-manager-mcp:3.1.0", "--host", "localhost", "mydb"},
			map[string]string{"DB_USERNAME": "u", "DB_PASSWORD": "${secret:db.pw}", "SSL_MODE": "prefer"}},
		{"database-manager: --port, --host and SSL_MODE given", "io.github.example/database-manager", 0, with(db, "port", "5432", "host", "db.internal", "SSL_MODE", "require"),
			"docker", []string{"run", "-i", "--rm", "-e", "DB_TYPE=postgres", "-e", "DB_USERNAME", "-e", "DB_PASSWORD", "-e", "SSL_MODE",
				"example/database-manager-mcp:3.1.0", "--host", "db.internal", "--port", "5432", "mydb"},
			map[string]string{"DB_USERNAME": "u", "DB_PASSWORD": "${secret:db.pw}", "SSL_MODE": "require"}},
		{"filesystem npm: the default folder", "io.github.modelcontextprotocol/filesystem", 0, nil,
			"npx", []string{"-y", "@modelcontextprotocol/server-filesystem@1.0.2", "/Users/username/Desktop"}, map[string]string{"LOG_LEVEL": "info"}},
		{"filesystem npm: a folder and a log level given over their defaults", "io.github.modelcontextprotocol/filesystem", 0,
			map[string]string{"target_dir": "/home/me/proj", "LOG_LEVEL": "debug"},
			"npx", []string{"-y", "@modelcontextprotocol/server-filesystem@1.0.2", "/home/me/proj"}, map[string]string{"LOG_LEVEL": "debug"}},
		{"filesystem oci: the user's folder mounted", "io.github.modelcontextprotocol/filesystem", 1, map[string]string{"source_path": "/home/me/proj"},
			"docker", []string{"run", "-i", "--rm", "--mount", "type=bind,src=/home/me/proj,dst=/project", "-e", "LOG_LEVEL", "mcp/filesystem:1.0.2", "/project"}, nil},
		{"hybrid npm: the default mode", "io.modelcontextprotocol.anonymous/hybrid-mcp", 0, nil,
			"npx", []string{"-y", "@example/hybrid-mcp-server@1.5.0", "--mode", "local"}, nil},
		{"hybrid npm: a mode chosen", "io.modelcontextprotocol.anonymous/hybrid-mcp", 0, map[string]string{"mode": "proxy"},
			"npx", []string{"-y", "@example/hybrid-mcp-server@1.5.0", "--mode", "proxy"}, nil},
		{"flags: booleans and optional choices left out, braces kept", "io.github.example/flags", 0, map[string]string{"dir": "/proj"},
			"npx", []string{"-y", "flags-mcp@1.0.0", "/proj", "--config", "{config_json}"}, nil},
		{"flags: a boolean true is a bare flag", "io.github.example/flags", 0, map[string]string{"dir": "/proj", "read-only": "true", "log-level": "debug"},
			"npx", []string{"-y", "flags-mcp@1.0.0", "--read-only", "--log-level", "debug", "/proj", "--config", "{config_json}"}, nil},
		{"flags: a boolean false is left out", "io.github.example/flags", 0, map[string]string{"dir": "/proj", "read-only": "false"},
			"npx", []string{"-y", "flags-mcp@1.0.0", "/proj", "--config", "{config_json}"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := example(t, tt.server)
			e, err := mcpregistry.Entry(s, mcpregistry.Options(s)[tt.option], tt.values)
			if err != nil {
				t.Fatal(err)
			}
			if e.Transport != config.Stdio || e.Command != tt.command || !slices.Equal(e.Args, tt.args) {
				t.Errorf("%s %q\nwant %s %q", e.Command, e.Args, tt.command, tt.args)
			}
			if tt.env != nil && !maps.Equal(e.Env, tt.env) {
				t.Errorf("env %v, want %v", e.Env, tt.env)
			}
		})
	}
}

// TestAsksOfTheSpecsExamples: every input without a fixed value is asked,
// required or not, with its default; a boolean's choices are true and
// false; a {name} with no variable is not asked.
func TestAsksOfTheSpecsExamples(t *testing.T) {
	for _, tt := range []struct {
		server string
		option int
		want   []string // key:kind:required:default
	}{
		{"io.github.example/database-manager", 0, []string{"db_type:variable:true:", "host:argument:true:localhost", "port:argument:false:",
			"database_name:argument:true:", "DB_USERNAME:env:true:", "DB_PASSWORD:env:true:", "SSL_MODE:env:false:prefer"}},
		{"io.github.modelcontextprotocol/filesystem", 0, []string{"target_dir:argument:true:/Users/username/Desktop", "LOG_LEVEL:env:false:info"}},
		{"io.github.modelcontextprotocol/filesystem", 1, []string{"source_path:variable:true:", "target_path:variable:true:/project", "LOG_LEVEL:env:false:info"}},
		{"io.modelcontextprotocol.anonymous/hybrid-mcp", 1, []string{"X-API-Key:header:true:", "X-Region:header:false:us-east-1"}},
		{"io.github.example/flags", 0, []string{"read-only:argument:false:", "log-level:argument:false:", "dir:argument:true:"}},
	} {
		s := example(t, tt.server)
		var got []string
		asks := mcpregistry.Asks(s, mcpregistry.Options(s)[tt.option])
		for _, a := range asks {
			got = append(got, strings.Join([]string{a.Key, a.Kind, map[bool]string{true: "true", false: "false"}[a.Required], a.Default}, ":"))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s option %d asks\n %q\nwant %q", tt.server, tt.option, got, tt.want)
		}
		if tt.server == "io.github.example/flags" && !slices.Equal(asks[0].Choices, []string{"true", "false"}) {
			t.Errorf("a boolean's choices: %q", asks[0].Choices)
		}
	}
}

// TestEntryRefusesWhatTheSpecsExamplesDoNotTake: a key no input has, a
// value outside the choices and the required values missing are refused,
// each naming the key; the spec's --network host is refused as widening
// the container.
func TestEntryRefusesWhatTheSpecsExamplesDoNotTake(t *testing.T) {
	s := example(t, "io.github.example/database-manager")
	o := mcpregistry.Options(s)[0]
	for _, tt := range []struct {
		name   string
		values map[string]string
		is     error
		says   string
	}{
		{"an unknown key", map[string]string{"db_type": "postgres", "DB_PASS": "x"}, mcpregistry.ErrInvalidValue,
			`"DB_PASS" is not a value io.github.example/database-manager takes (it takes db_type, host, port, database_name, DB_USERNAME, DB_PASSWORD, SSL_MODE)`},
		{"a value outside the choices", map[string]string{"db_type": "oracle"}, mcpregistry.ErrInvalidValue,
			`db_type=oracle: "oracle" is not one of its choices (postgres, mysql, mongodb, redis)`},
		{"the required ones missing", map[string]string{"DB_USERNAME": "u"}, mcpregistry.ErrMissing,
			"a required value is missing: db_type (variable: Type of database), database_name (argument: Name of the database to connect to), DB_PASSWORD (env: Database password)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := mcpregistry.Entry(s, o, tt.values)
			if !errors.Is(err, tt.is) || err.Error() != tt.says {
				t.Fatalf("err = %v\nwant %q", err, tt.says)
			}
			if strings.Contains(err.Error(), "--set") {
				t.Errorf("the engine's error gives the CLI's advice: %v", err)
			}
		})
	}
	spec := serverJSON(t, mcpregistrytest.SpecDatabaseNetwork)
	_, err := mcpregistry.Entry(spec, mcpregistry.Options(spec)[0], map[string]string{"db_type": "postgres"})
	if !errors.Is(err, mcpregistry.ErrUnsafePackage) || !strings.Contains(err.Error(), "packages[0].runtimeArguments[0]") {
		t.Errorf("--network host: %v", err)
	}
}

// TestUnsupportedSaysWhy: a server with nothing to add says, for each
// package and remote, why it was left out.
func TestUnsupportedSaysWhy(t *testing.T) {
	for _, tt := range []struct{ server, says string }{
		{"io.github.joelverhagen/knapcode-samplemcpserver", "its nuget package Knapcode.SampleMcpServer is of a kind Switchboard does not install (it installs npm, PyPI, OCI and MCPB packages)"},
		{"io.github.example/http-pkg", "its npm package @example/http-pkg serves streamable-http itself (at http://localhost:{port}/mcp) instead of speaking stdio, and Switchboard starts only stdio packages: start it yourself, then add its URL as a server"},
		{"io.github.example/flags", ""},
	} {
		s := example(t, tt.server)
		if got := mcpregistry.Unsupported(s); got != tt.says {
			t.Errorf("%s: %q\nwant %q", tt.server, got, tt.says)
		}
	}
}
