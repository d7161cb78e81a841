package secrets

import (
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// passwordWords are the last words of a name that holds a password or a
// secret whatever its length ("DB_PASS=abc", "MYSQL_PWD=root",
// "SMTP_PW=x", "JWT_SECRET=dev"): read as words (see nameWords), so
// PASSTHROUGH, BYPASS_CACHE and COMPASS_URL are not.
var passwordWords = []string{"password", "passwd", "passphrase", "pass", "pwd", "pw", "secret"}

// passwordEndings end a name's last word written as one (PGPASSWORD,
// REDISPASSWORD, CLIENTSECRET, DBPWD). "pass" is not one: BYPASS,
// COMPASS, MULTIPASS.
var passwordEndings = []string{"password", "passwd", "passphrase", "secret", "pwd"}

// passwordName reports whether the env variable name always holds a
// password or a secret, however short its value: its last word is one
// (DB_PASSWORD, SMTP_PASS, MYSQL_PWD, AWS_CLIENT_SECRET, PGPASSWORD), or
// it is a secret's key (SECRET_KEY, AWS_SECRET_ACCESS_KEY). The shell's
// working directories PWD and OLDPWD are not; a name whose last word
// describes the password (PASSWORD_MIN_LENGTH, PASSWORD_FILE) is not.
func passwordName(name string) bool {
	words := nameWords(name)
	n := len(words)
	if n == 0 || n == 1 && (words[0] == "pwd" || words[0] == "oldpwd") {
		return false
	}
	last := words[n-1]
	if last == "key" && slices.ContainsFunc(words[:n-1], func(w string) bool { return strings.HasSuffix(w, "secret") }) {
		return true
	}
	if last == "pass" && n > 1 && words[n-2] == "to" {
		return false // a test's result: FAIL_TO_PASS, PASS_TO_PASS
	}
	if slices.Contains(passwordWords, last) {
		return true
	}
	return last != "oldpwd" && slices.ContainsFunc(passwordEndings, func(e string) bool { return strings.HasSuffix(last, e) })
}

// switchValues are the values of a setting, not a password, under a
// password's name (REQUIRE_PASSWORD=true, REDIS_PASSWORD=none).
var switchValues = []string{"true", "false", "yes", "no", "on", "off", "0", "1", "none", "null", "nil", "enabled", "disabled"}

// passwordValue reports whether v, the value of a passwordName variable
// (no placeholder: LooksSecret checked), is the password: not a switch,
// not a URL (nginx's PROXY_PASS; a URL's own password is found as such),
// and for a name ending in PWD not a path (CLAUDE_MPM_USER_PWD=/home/x is
// a working directory).
func passwordValue(name, v string) bool {
	if slices.ContainsFunc(switchValues, func(s string) bool { return strings.EqualFold(s, v) }) || urlWithHost(v) {
		return false
	}
	words := nameWords(name)
	return !strings.HasSuffix(words[len(words)-1], "pwd") || !looksPath(v)
}

// looksPath reports whether v starts like a file or directory path.
func looksPath(v string) bool {
	return strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~") || strings.HasPrefix(v, ".") || windowsPath.MatchString(v) || filepath.IsAbs(v)
}

// connKey is the key of a password in a connection string: ADO.NET's and
// ODBC's "Password=" and "PWD=" (any case, spaces around "="), JDBC's
// ";password=" and "?…&password=", libpq's "password=".
var connKey = regexp.MustCompile(`(?i)(?:^|[;?&\s])\s*(password|passwd|pwd)\s*=\s*`)

// connPairs finds the KEY=VALUE pairs of a connection string ("User
// Id=sa", "host=h").
var connPairs = regexp.MustCompile(`(?:^|[;?&\s])\s*[A-Za-z][A-Za-z0-9 _.-]*?\s*=[^=]`)

// goDSN is a Go MySQL driver's DSN: user:password@tcp(host:3306)/db.
var goDSN = regexp.MustCompile(`^[^:@/\s]*:([^@\s]+)@(?:tcp6?|udp|unix)?\(`)

// connPassword finds the password written in a connection string v and
// returns where it is (v[start:end], quotes and braces left out): a
// "Password=…"/"PWD=…" among other KEY=VALUE pairs (Server=x;User
// Id=sa;Password=…; DRIVER={…};UID=u;PWD={…}; host=h user=u
// password=…; jdbc:sqlserver://h;user=u;password=…), the user
// information of a JDBC URL (jdbc:mysql://u:…@h/db) or a Go MySQL DSN
// (u:…@tcp(h)/db). A placeholder or a reference is no password.
func connPassword(v string) (start, end int, ok bool) {
	start, end, ok = connPair(v)
	if !ok {
		start, end, ok = connUserInfo(v)
	}
	if !ok {
		return 0, 0, false
	}
	p := v[start:end]
	if strings.TrimSpace(p) == "" || strings.Contains(p, "${") || bareVariable.MatchString(p) || config.Placeholder(p) {
		return 0, 0, false
	}
	return start, end, true
}

// connPair is connPassword's "Password=…" among other pairs; a pair alone
// ("PASSWORD=x", an env assignment) is the variable's name's to judge.
func connPair(v string) (start, end int, ok bool) {
	m := connKey.FindStringSubmatchIndex(v)
	if m == nil || len(connPairs.FindAllStringIndex(v, 3)) < 2 {
		return 0, 0, false
	}
	start = m[1]
	if start == len(v) {
		return 0, 0, false
	}
	switch q := v[start]; q {
	case '"', '\'', '{':
		closing := q
		if q == '{' {
			closing = '}'
		}
		i := strings.IndexByte(v[start+1:], closing)
		if i < 0 {
			return 0, 0, false
		}
		return start + 1, start + 1 + i, true
	}
	delims := "&# \t\r\n" // a query or libpq's list
	if strings.Contains(v, ";") {
		delims = ";" // ADO.NET, ODBC, JDBC: a password may hold spaces
	}
	end = len(v)
	if i := strings.IndexAny(v[start:], delims); i >= 0 {
		end = start + i
	}
	if strings.EqualFold(v[m[2]:m[3]], "pwd") && looksPath(v[start:end]) {
		return 0, 0, false // PWD=/home/x among other variables: a directory
	}
	return start, end, end > start
}

// connUserInfo is connPassword's JDBC URL or Go DSN password.
func connUserInfo(v string) (start, end int, ok bool) {
	if m := goDSN.FindStringSubmatchIndex(v); m != nil {
		return m[2], m[3], true
	}
	if !strings.HasPrefix(strings.ToLower(v), "jdbc:") || urlPassword(v[len("jdbc:"):]) == "" {
		return 0, 0, false
	}
	head, info, _ := userInfo(v)
	user, p, _ := strings.Cut(info, ":")
	start = len(head) + len(user) + 1
	return start, start + len(p), true
}

// shortFlag is a one-letter flag a program is known to read a password
// from: as the next argument (separate) and/or written on (attached,
// "-pSECRET").
type shortFlag struct {
	flag               string
	separate, attached bool
}

// programFlags are the short flags known to take a password, by program
// (the command's base name). A short flag alone says nothing (curl's -k
// is "insecure", many servers' -p a port), so only these move.
var programFlags = map[string][]shortFlag{
	"sshpass":      {{"-p", true, true}},
	"redis-cli":    {{"-a", true, false}},
	"valkey-cli":   {{"-a", true, false}},
	"keydb-cli":    {{"-a", true, false}},
	"mysql":        {{"-p", false, true}}, // "-p" alone asks for it
	"mysqldump":    {{"-p", false, true}},
	"mariadb":      {{"-p", false, true}},
	"mariadb-dump": {{"-p", false, true}},
}

// programName is command's base name without a Windows extension.
func programName(command string) string {
	base := strings.ToLower(filepath.Base(strings.ReplaceAll(command, `\`, "/")))
	for _, ext := range []string{".exe", ".cmd", ".bat"} {
		base = strings.TrimSuffix(base, ext)
	}
	return base
}

// passwordArgs returns args (of a server run as command) with two kinds
// of password replaced by the reference move returns: the value of a
// short flag the program is known to read one from (sshpass -p, redis-cli
// -a, mysql -pSECRET; see programFlags), named args.FLAG, and the
// password inside a connection string given as an argument (not a URL:
// argSecrets reads those), named args.N, only that part becoming the
// reference. The rest is argSecrets' to read.
func passwordArgs(command string, args []string, move moveFunc) []string {
	args = slices.Clone(args)
	flags := programFlags[programName(command)]
	used := map[string]bool{}
	put := func(i int, field, prefix, value, suffix string) {
		if used[field] {
			field = "args." + strconv.Itoa(i)
		}
		used[field] = true
		if ref, ok := move(field, value); ok {
			args[i] = prefix + ref + suffix
		}
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.Contains(a, "${") {
			continue
		}
		if f, next, ok := flagPassword(flags, a, args[i+1:]); ok {
			field := "args." + strings.TrimLeft(f.flag, "-")
			if next {
				put(i+1, field, "", args[i+1], "")
				i++
			} else {
				put(i, field, f.flag, a[len(f.flag):], "")
			}
			continue
		}
		if strings.Contains(a, "://") && !strings.HasPrefix(strings.ToLower(a), "jdbc:") {
			continue // a URL: argSecrets reads its password and parameters
		}
		if s, e, ok := connPassword(a); ok {
			put(i, "args."+strconv.Itoa(i), a[:s], a[s:e], a[e:])
		}
	}
	return args
}

// flagPassword reports whether a is one of flags with its password: in
// the next argument (next true) or written on.
func flagPassword(flags []shortFlag, a string, rest []string) (f shortFlag, next, ok bool) {
	for _, f := range flags {
		switch {
		case f.separate && a == f.flag && len(rest) > 0 && rest[0] != "" && !strings.HasPrefix(rest[0], "-") && !strings.Contains(rest[0], "${") && !config.Placeholder(rest[0]):
			return f, true, true
		case f.attached && len(a) > len(f.flag) && strings.HasPrefix(a, f.flag) && !config.Placeholder(a[len(f.flag):]):
			return f, false, true
		}
	}
	return shortFlag{}, false, false
}

// CommandLineNote says what becomes of a keyring secret written in a
// server's arguments: it is put back on the command line at start.
const CommandLineNote = "passed on the command line, which other users of this computer can see; prefer the server's environment variable if it has one"

// OnCommandLine reports whether a moved value's field (a Move's Field:
// "args.api-key", "args.3", or "args[2], env.TOKEN" for a VS Code input
// used in several places) is part of the server's command line: the
// value goes back there when the server starts, where every user of the
// computer can read it (ps, /proc/PID/cmdline). See CommandLineNote.
func OnCommandLine(field string) bool {
	for _, f := range strings.Split(field, ",") {
		f = strings.TrimSpace(f)
		if f == "command" || strings.HasPrefix(f, "args.") || strings.HasPrefix(f, "args[") {
			return true
		}
	}
	return false
}

// dockerValueless are docker run's (and podman's) flags that take no
// value; every other flag written alone takes the next argument.
var dockerValueless = []string{"--rm", "--init", "--privileged", "--read-only", "--interactive", "--tty", "--detach", "--publish-all", "--no-healthcheck", "--oom-kill-disable", "--help", "--quiet", "--replace", "--sig-proxy"}

// DockerEnv returns s with each secret-looking "-e NAME=VALUE" (--env
// NAME=VALUE, --env=NAME=VALUE) of a docker or podman "run" (or
// "create") moved out of the command line: the argument becomes "-e
// NAME", which docker fills from its own environment, and s.Env gets
// NAME=VALUE, where the keyring rules then apply as to any variable. The
// command line is readable by every user of the computer (ps,
// /proc/PID/cmdline); the environment is not. A NAME s.Env already holds
// with another value is left as it is.
func DockerEnv(s config.Server) config.Server {
	run := dockerRun(s.Command, s.Args)
	if run < 0 {
		return s
	}
	var out config.Server
	changed := false
	for i := run; i < len(s.Args); i++ {
		a := s.Args[i]
		if a == "--" || !strings.HasPrefix(a, "-") {
			break // the image: what follows is the container's command
		}
		flag, assign, inline := strings.Cut(a, "=")
		if (flag == "-e" || flag == "--env") && (inline || i+1 < len(s.Args)) {
			at := i
			if !inline {
				at, assign = i+1, s.Args[i+1]
			}
			if name, value, ok := secretAssign(assign); ok && (s.Env[name] == "" || s.Env[name] == value) {
				if !changed {
					out, changed = s.Clone(), true
					if out.Env == nil {
						out.Env = map[string]string{}
					}
				}
				out.Env[name] = value
				out.Args[at] = strings.TrimSuffix(out.Args[at], assign) + name
			}
			i = at
			continue
		}
		if !inline && !dockerSwitch(a) {
			i++ // the flag's value
		}
	}
	if !changed {
		return s
	}
	return out
}

// dockerRun is the index of the first argument after "run" (or "create",
// "container run") when command runs a container with docker, podman or
// nerdctl; -1 otherwise.
func dockerRun(command string, args []string) int {
	switch programName(command) {
	case "docker", "podman", "nerdctl":
	default:
		return -1
	}
	i := 0
	if len(args) > 0 && args[0] == "container" {
		i = 1
	}
	if i < len(args) && (args[i] == "run" || args[i] == "create") {
		return i + 1
	}
	return -1
}

// dockerSwitch reports whether a (written without "=") is a docker run
// flag that takes no value: a long one of dockerValueless, or short ones
// together ("-it", "-d").
func dockerSwitch(a string) bool {
	if strings.HasPrefix(a, "--") {
		return slices.Contains(dockerValueless, a)
	}
	return strings.Trim(a[1:], "itdPq") == ""
}

// secretAssign is NAME and VALUE of "NAME=VALUE" when the value looks
// secret (LooksSecret).
func secretAssign(a string) (name, value string, ok bool) {
	name, value, eq := strings.Cut(a, "=")
	if !eq || !envName.MatchString(name) || !LooksSecret(name, value, false) {
		return "", "", false
	}
	return name, value, true
}

// weakWords are the words of secretName that name a credential only
// sometimes: SESSION and COOKIE (TMUX_SESSION=work-main,
// COOKIE_DOMAIN=.example.com) and PAT inside another word (LOG_PATTERN).
var weakWords = regexp.MustCompile(`(?i)SESSION|COOKIE|PAT`)

// weakName reports whether name matches secretName through weakWords
// only, and not as the word PAT (GITHUB_PAT): its value must then look
// like a session's credential (sessionValue).
func weakName(name string) bool {
	return !secretName.MatchString(weakWords.ReplaceAllString(name, "")) && !slices.Contains(nameWords(name), "pat")
}

// cookiePairs is a Cookie header's value: "sid=…" or "a=…; b=…".
var cookiePairs = regexp.MustCompile(`^[!#$%&'*+.^_|~0-9A-Za-z-]+=[^;\s]+(?:;\s*[!#$%&'*+.^_|~0-9A-Za-z-]+=[^;\s]*)*;?$`)

// sessionValue reports whether v, under a weakName (PERPLEXITY_SESSION,
// X_COOKIE, TMUX_SESSION), is a session's credential and not a setting
// or a name: a cookie header's pairs, or an opaque string as session ids
// are (random mixed case, or 16 or more letters and digits with both,
// such as a hex or Django session id).
func sessionValue(v string) bool {
	if cookiePairs.MatchString(v) || randomString(v, 16) {
		return true
	}
	if len(v) < 16 {
		return false
	}
	var letters, digits int
	for _, r := range v {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
			letters++
		default:
			return false
		}
	}
	return letters > 0 && digits > 0
}
