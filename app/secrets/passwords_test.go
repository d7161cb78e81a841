package secrets

import (
	"slices"
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// Passwords move at any length when the name says so, and connection
// strings move for the password they hold; the names and values are the
// ones published configs use (MCP server READMEs, .env files, docker
// setups), in both directions.
func TestLooksSecretPasswords(t *testing.T) {
	cases := []struct {
		name, value string
		want        bool
	}{
		// A name that says password or secret: any length.
		{"DB_PASSWORD", "hunter2", true},
		{"DB_PASS", "correcthorse", true},
		{"MYSQL_PWD", "Zx9!kLmQ2", true},
		{"MYSQL_PASSWORD", "root", true},
		{"PGPASSWORD", "pg", true},
		{"REDIS_PASSWORD", "r3dis", true},
		{"SMTP_PASS", "abc", true},
		{"SMTP_PW", "abc", true},
		{"EXPORT_PASS", "abc", true},
		{"DB_PWD", "{G>865yQhe5NP", true},
		{"WINDOWS_PASSWORD", "mypass", true},
		{"RABBITMQ_DEFAULT_PASS", "guest", true},
		{"SSH_KEY_PASSPHRASE", "open sesame", true},
		{"JWT_SECRET", "dev", true},
		{"AZURE_CLIENT_SECRET", "s3cr3t", true},
		{"GOOGLE_CLIENTSECRET", "s3cr3t", true},
		{"DJANGO_SECRET_KEY", "insecure", true},
		{"AWS_SECRET_ACCESS_KEY", "wJalrXUtnFEMI", true},
		{"smtpPass", "abc", true},
		{"DB_PASSWORD", "0000", true},
		// The same names with a value that is no password.
		{"DB_PASSWORD", "", false},
		{"DB_PASSWORD", "${secret:db}", false},
		{"DB_PASSWORD", "$DB_PASSWORD", false},
		{"DB_PASSWORD", "<your-password>", false},
		{"DB_PASSWORD", "changeme", false},
		{"DB_PASSWORD", "xxxx", false},
		{"DB_PASSWORD", "your_password_here", false},
		{"REQUIRE_PASSWORD", "true", false},
		{"REDIS_PASSWORD", "none", false},
		{"NO_SECRET", "1", false},
		{"PROXY_PASS", "https://backend.internal:8080", false},
		// Names that only look like a password's.
		{"PWD", "/home/x", false},
		{"PWD", "project", false},
		{"OLDPWD", "/home/x/old", false},
		{"CLAUDE_MPM_USER_PWD", "/env/dir", false},
		{"HOST_PWD", `C:\Users\x`, false},
		{"PASSTHROUGH", "enabled-for-all", false},
		{"BYPASS_CACHE", "true", false},
		{"BYPASS", "everything-here", false},
		{"COMPASS_URL", "https://compass.example.com", false},
		{"MULTIPASS_IMAGE", "jammy-22.04", false},
		{"PASSWORD_MIN_LENGTH", "8", false},
		{"PASSWORD_FILE", "/run/secrets/db", false},
		{"PASSWORD_STORE_DIR", "/home/x/.password-store", false},
		{"FAIL_TO_PASS", "tests/test_a.py", false},
		{"SECRET_NAME", "prod/db", false},
		// Connection strings hold their password whatever the name.
		{"S_CONN", "Server=x;User Id=sa;Password=SEKRIT23conn;", true},
		{"MCPMSSQL_CONNECTION_STRING", "Server=127.0.0.1;User ID=sa;Password=hunter2;Encrypt=True;", true},
		{"ODBC", "DRIVER={ODBC Driver 18};SERVER=db;UID=u;PWD={a;b c};", true},
		{"DBX_GOLDEN_DSN", "host=from-golden port=5432 dbname=d user=u password=p", true},
		{"JDBC_URL", "jdbc:sqlserver://db:1433;databaseName=x;user=sa;password=s3;", true},
		{"JDBC_URL", "jdbc:mysql://db/x?user=u&password=s3", true},
		{"JDBC_URL", "jdbc:mysql://u:s3@db/x", true},
		{"MYSQL_DSN", "app:s3cret@tcp(127.0.0.1:3306)/db", true},
		{"POSTGRES_DSN", "postgresql://never:read@localhost/test", true},
		{"S_CONN", "Server=x;User Id=sa;Password=<YourStrong@Passw0rd>;", false},
		{"S_CONN", "Server=x;User Id=sa;Password=${secret:x};", false},
		{"CONNECTION_CRM", "Data Source=crm-server; Initial Catalog=CRM;", false},
		{"OPTS", "PWD=/home/x HOME=/root", false},
		{"S_CONN", "Server=x;PWD=;", false},
		{"S_CONN", "Server=x;Password=", false},
		{"S_CONN", "Server=x;Password={unclosed", false},
		{"POSTGRES_DSN", "postgresql://override/test", false},
		{"SENTRY_DSN", "https://abc123@o1.ingest.sentry.io/1", false},
		// Tokens, cookies and sessions keep their rules.
		{"JIRA_API_TOKEN", "ATBBabcdefgh1234", true},
		{"CONFLUENCE_TOKEN", "abcdefgh1234", true},
		{"JIRA_API_TOKEN", "t", false},
		{"TWITTER_COOKIE", "auth_token=abc123; ct0=xyz789", true},
		{"PERPLEXITY_SESSION", "aB3dE5fG7hJ9kL1mN", true},
		{"GRAFANA_SESSION", "0f4d9c2b7a1e8d3c6b5a4f3e2d1c0b9a", true},
		{"CLAUDE_SESSION_KEY", "abcdefgh1234", true},
		{"TMUX_SESSION", "ccm-frontend-agent-aa11", false},
		{"COOKIE_DOMAIN", ".example.com", false},
		{"SESSION_TIMEOUT", "36000000", false},
		{"LOG_PATTERN", "%d{HH:mm} %p %m", false},
		{"GITHUB_PAT", "abcdefgh1234", true},
	}
	for _, c := range cases {
		if got := LooksSecret(c.name, c.value, false); got != c.want {
			t.Errorf("LooksSecret(%q, %q) = %v, want %v", c.name, c.value, got, c.want)
		}
	}
}

// Passwords written in arguments: a known program's short flag and a
// connection string, only the password becoming the reference; an
// unknown program's short flag stays.
func TestExtractPasswordArgs(t *testing.T) {
	cases := []struct {
		name    string
		command string
		args    []string
		want    []string
		fields  []string
	}{
		{"sshpass -p", "sshpass", []string{"-p", "hunter2", "ssh", "host", "mcp"},
			[]string{"-p", "${secret:s_args_p}", "ssh", "host", "mcp"}, []string{"args.p"}},
		{"sshpass -pVALUE", "/usr/bin/sshpass", []string{"-phunter2", "ssh", "host"},
			[]string{"-p${secret:s_args_p}", "ssh", "host"}, []string{"args.p"}},
		{"redis-cli -a", "redis-cli", []string{"-h", "db", "-a", "r3dis"},
			[]string{"-h", "db", "-a", "${secret:s_args_a}"}, []string{"args.a"}},
		{"mysql -p alone asks", "mysql", []string{"-u", "root", "-p", "mydb"},
			[]string{"-u", "root", "-p", "mydb"}, nil},
		{"mysql -pVALUE", "mysql.exe", []string{"-u", "root", "-pr00t", "mydb"},
			[]string{"-u", "root", "-p${secret:s_args_p}", "mydb"}, []string{"args.p"}},
		{"an unknown program's short flag", "node", []string{"envsrv.js", "-k", "SEKRIT17k", "-p", "8080"},
			[]string{"envsrv.js", "-k", "SEKRIT17k", "-p", "8080"}, nil},
		{"a connection string", "dotnet", []string{"mssql.dll", "--connection", "Server=x;User Id=sa;Password=hunter2;Encrypt=True"},
			[]string{"mssql.dll", "--connection", "Server=x;User Id=sa;Password=${secret:s_args_2};Encrypt=True"}, []string{"args.2"}},
		{"a connection string after a flag", "uvx", []string{"mcp-sql", "--dsn=host=db user=u password=pw1 dbname=x"},
			[]string{"mcp-sql", "--dsn=host=db user=u password=${secret:s_args_1} dbname=x"}, []string{"args.1"}},
		{"a braced ODBC password", "x", []string{"DRIVER={ODBC};UID=u;PWD={a;b};"},
			[]string{"DRIVER={ODBC};UID=u;PWD={${secret:s_args_0}};"}, []string{"args.0"}},
		{"a placeholder stays", "x", []string{"Server=x;Password=<password>;"},
			[]string{"Server=x;Password=<password>;"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := config.Server{Name: "s", Transport: config.Stdio, Command: c.command, Args: c.args}
			out, moves := Extract(s, nil)
			if !slices.Equal(out.Args, c.want) {
				t.Fatalf("args =\n%q\nwant\n%q", out.Args, c.want)
			}
			var fields []string
			for _, m := range moves {
				fields = append(fields, m.Field)
			}
			if !slices.Equal(fields, c.fields) {
				t.Fatalf("moved fields %q, want %q", fields, c.fields)
			}
		})
	}
}

// docker's -e NAME=VALUE leaves the command line: -e NAME, the value in
// the environment docker reads it from (then in the keyring).
func TestDockerEnv(t *testing.T) {
	cases := []struct {
		name    string
		command string
		args    []string
		env     map[string]string
		want    []string
		wantEnv map[string]string
	}{
		{"a secret -e", "docker", []string{"run", "-i", "--rm", "-e", "GITHUB_TOKEN=ghp_abcdefghijklmnop1234", "-e", "PLAIN=visible", "ghcr.io/github/github-mcp-server"}, nil,
			[]string{"run", "-i", "--rm", "-e", "GITHUB_TOKEN", "-e", "PLAIN=visible", "ghcr.io/github/github-mcp-server"},
			map[string]string{"GITHUB_TOKEN": "ghp_abcdefghijklmnop1234"}},
		{"--env= and a flag with a value", "podman", []string{"run", "--name", "pg", "--env=PGPASSWORD=pw", "-it", "img"}, map[string]string{"X": "1"},
			[]string{"run", "--name", "pg", "--env=PGPASSWORD", "-it", "img"},
			map[string]string{"X": "1", "PGPASSWORD": "pw"}},
		{"the container's own -e stays", "docker", []string{"run", "img", "-e", "API_KEY=abcdefghijklmnop"}, nil,
			[]string{"run", "img", "-e", "API_KEY=abcdefghijklmnop"}, nil},
		{"another value in env stays", "docker", []string{"run", "-e", "DB_PASSWORD=a", "img"}, map[string]string{"DB_PASSWORD": "b"},
			[]string{"run", "-e", "DB_PASSWORD=a", "img"}, map[string]string{"DB_PASSWORD": "b"}},
		{"not docker run", "docker", []string{"exec", "-e", "DB_PASSWORD=a", "c"}, nil,
			[]string{"exec", "-e", "DB_PASSWORD=a", "c"}, nil},
		{"not docker", "npx", []string{"run", "-e", "DB_PASSWORD=a"}, nil,
			[]string{"run", "-e", "DB_PASSWORD=a"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := config.Server{Name: "d", Transport: config.Stdio, Command: c.command, Args: c.args, Env: c.env}
			before := slices.Clone(s.Args)
			out := DockerEnv(s)
			if !slices.Equal(out.Args, c.want) || len(out.Env) != len(c.wantEnv) {
				t.Fatalf("args %q env %v, want %q %v", out.Args, out.Env, c.want, c.wantEnv)
			}
			for k, v := range c.wantEnv {
				if out.Env[k] != v {
					t.Fatalf("env %v, want %v", out.Env, c.wantEnv)
				}
			}
			if !slices.Equal(s.Args, before) {
				t.Fatal("DockerEnv changed its input")
			}
		})
	}
}

func TestOnCommandLine(t *testing.T) {
	for field, want := range map[string]bool{
		"args.api-key": true, "args.3": true, "args[2], env.TOKEN": true, "env.TOKEN, args[0]": true,
		"env.TOKEN": false, "headers.Authorization": false, "url.api_key": false, "oauth.clientSecret": false,
	} {
		if got := OnCommandLine(field); got != want {
			t.Errorf("OnCommandLine(%q) = %v, want %v", field, got, want)
		}
	}
}
