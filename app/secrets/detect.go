package secrets

import (
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// secretName matches variable and header names that usually hold credentials.
var secretName = regexp.MustCompile(`(?i)(KEY|TOKEN|SECRET|PASSWORD|PASSWD|PAT|AUTH|CREDENTIAL|BEARER|COOKIE|SESSION)`)

// tokenShape matches values shaped like well-known credentials (and
// knownTokens, whose prefixes need their tails).
var tokenShape = regexp.MustCompile(`^(sk-|sk_live_|sk_test_|rk_live_|pk_live_|ghp_|gho_|ghu_|ghs_|ghr_|github_pat_|glpat-|xox[abposr]-|AKIA|ASIA|eyJ|AIza|ya29\.|npm_|hf_|pplx-|gsk_|dop_v1_|shpat_|ntn_|secret_|lin_api_|Bearer\s|` + knownTokens + `)`)

// tokenInside matches a credential inside a longer value: a bearer token or
// a token of a well-known shape as a word of its own, such as the
// Authorization header inside Notion's OPENAPI_MCP_HEADERS JSON, or a
// token in a URL's query. Only prefixes specific enough not to start an
// ordinary word are listed.
var tokenInside = regexp.MustCompile(`(?:^|[^A-Za-z0-9_])(?:Bearer\s+[A-Za-z0-9._~+/=-]{8,}|(?:ghp_|gho_|ghu_|ghs_|ghr_|github_pat_|glpat-|xox[abposr]-|ntn_|sk-ant-|sk-proj-|sk_live_|sk_test_|hf_|npm_|lin_api_|shpat_|dop_v1_|gsk_|pplx-)[A-Za-z0-9_-]{8,}|AKIA[0-9A-Z]{16}|eyJ[A-Za-z0-9_-]{10,}\.eyJ|` + knownTokens + `)`)

// notSecretName excludes names that match secretName but hold no secret.
var notSecretName = regexp.MustCompile(`(?i)(PATH|_URL$|_URI$|_HOST$|_PORT$|KEYBOARD|AUTHOR|_FILE$|_DIR$|_MODE$)`)

// bareVariable is a whole value written "$NAME": a variable of the
// environment in the shell's way (Gemini CLI reads it so), not a secret.
var bareVariable = regexp.MustCompile(`^\$[A-Za-z_][A-Za-z0-9_]*$`)

// LooksSecret reports whether the value of env variable or header name
// should move to the keyring. Placeholders ("${…}", "$NAME") and empty
// values never do. A name that says password or secret (DB_PASS,
// MYSQL_PWD, PGPASSWORD, CLIENT_SECRET: see passwordName) takes any
// value but a switch, and a connection string holding a password
// (Server=…;Password=…) moves whatever its name.
func LooksSecret(name, value string, header bool) bool {
	v := strings.TrimSpace(value)
	if v == "" || strings.Contains(v, "${") || bareVariable.MatchString(v) || config.Placeholder(v) {
		return false // a README's stand-in is no secret: the import warns of it
	}
	if tokenShape.MatchString(v) || tokenInside.MatchString(v) || urlPassword(v) != "" {
		return true
	}
	if _, _, ok := connPassword(v); ok {
		return true
	}
	if header {
		return secretWord(name, v)
	}
	if passwordName(name) {
		return passwordValue(name, v)
	}
	if notSecretName.MatchString(name) && !strings.HasSuffix(strings.ToUpper(name), "TOKEN") && !strings.HasSuffix(strings.ToUpper(name), "KEY") {
		return false
	}
	// Short flags such as "true" or "1" are not credentials even under a secret name.
	if !secretName.MatchString(name) || len(v) < 8 {
		return false
	}
	return !weakName(name) || sessionValue(v)
}

// secretWord reports whether a header, command-line flag or URL
// parameter named name, read as words ("X-Api-Key", "CONTEXT7_API_KEY",
// "--access-token", "tavilyApiKey": see nameWords), holds a credential:
// the standard credential headers, or a name whose last word says so
// (or ends so: "accesstoken", see secretSuffix). A name ending in a word
// that describes the secret (KEY_FILE, TOKEN_URL) does not.
func secretWord(name, value string) bool {
	n := strings.ToLower(strings.TrimLeft(name, "-"))
	switch n {
	case "authorization", "proxy-authorization", "cookie", "apikey", "api-key", "x-api-key":
		return true
	}
	words := nameWords(name)
	if len(words) == 0 {
		return false
	}
	switch words[len(words)-1] {
	case "key", "apikey", "token", "secret", "password", "passwd", "pat", "credential", "credentials", "cookie":
		return true
	case "auth", "authorization", "bearer":
		return len(value) >= 8
	}
	return secretSuffix(words[len(words)-1], value)
}

// urlPassword is the password of a URL's user information as written
// (postgres://user:PASSWORD@host/db, still escaped), or "" when v holds
// none.
func urlPassword(v string) string {
	if !strings.Contains(v, "://") || !strings.Contains(v, "@") {
		return ""
	}
	if u, err := url.Parse(v); err != nil || u.User == nil {
		return ""
	}
	_, userinfo, _ := userInfo(v)
	_, p, _ := strings.Cut(userinfo, ":")
	if strings.Contains(p, "${") {
		return ""
	}
	return p
}

// userInfo splits a URL that has user information into what comes before
// it ("scheme://"), the user information and the rest ("@host/…").
func userInfo(raw string) (head, info, rest string) {
	scheme, after, _ := strings.Cut(raw, "://")
	end := len(after)
	if i := strings.IndexAny(after, "/?#"); i >= 0 {
		end = i
	}
	at := strings.LastIndex(after[:end], "@")
	if at < 0 {
		return raw, "", ""
	}
	return scheme + "://", after[:at], after[at:]
}

var unsafeNameRune = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

// NameFor is the keyring name a server's variable moves to: <server>_<VAR>.
func NameFor(server, variable string) string {
	n := unsafeNameRune.ReplaceAllString(server+"_"+variable, "_")
	if len(n) > 128 {
		n = n[:128]
	}
	return n
}

// argSecrets returns args with the credentials written on a command line
// replaced by the reference move returns for them (move's ok false keeps
// one as it is): a secret flag's value (--api-key VALUE, --api-key=VALUE),
// a secret KEY=VALUE pair (docker's -e), a header given as an argument
// ("Authorization: Bearer …", mcp-remote's --header), the secrets of a
// URL (mcp-remote's https://…?api_key=…, also after --url=, NAME= or in a
// header: see urlSecretsAt) and a token-shaped argument. Each is named by
// its flag, variable or header ("args.api-key"), or by its index when
// that name is taken or it has none; a URL's by its argument's index
// ("args.3", "args.3.tavilyApiKey", "args.3.path").
func argSecrets(args []string, move func(field, value string) (string, bool)) []string {
	args = slices.Clone(args)
	used := map[string]bool{}
	put := func(i int, name, prefix, value string) {
		field := "args." + strings.TrimLeft(name, "-")
		if used[field] {
			field = "args." + strconv.Itoa(i) // a flag given twice
		}
		used[field] = true
		if ref, ok := move(field, value); ok {
			args[i] = prefix + ref
		}
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.Contains(a, "${") {
			continue
		}
		flag, val, eq := strings.Cut(a, "=")
		switch {
		case strings.HasPrefix(a, "-") && eq:
			if secretWord(flag, val) && credentialArg(val) {
				put(i, flag, flag+"=", val)
			} else if urlWithHost(val) {
				args[i], _ = urlArg(flag+"=", val, "args."+strconv.Itoa(i), move)
			}
		case strings.HasPrefix(a, "-") && len(a) > 1 && i+1 < len(args):
			next := args[i+1]
			if !strings.HasPrefix(next, "-") && !strings.Contains(next, "${") && secretWord(a, next) && credentialArg(next) {
				put(i+1, a, "", next)
				i++
			}
		case eq && envName.MatchString(flag):
			if LooksSecret(flag, val, false) {
				put(i, flag, flag+"=", val)
			} else if urlWithHost(val) {
				args[i], _ = urlArg(flag+"=", val, "args."+strconv.Itoa(i), move)
			}
		case urlWithHost(a) || urlPassword(a) != "":
			args[i], _ = urlArg("", a, "args."+strconv.Itoa(i), move)
		case headerArg.MatchString(a):
			m := headerArg.FindStringSubmatch(a)
			if LooksSecret(m[1], m[3], true) {
				put(i, m[1], m[1]+":"+m[2], m[3])
			} else if urlWithHost(m[3]) {
				args[i], _ = urlArg(m[1]+":"+m[2], m[3], "args."+strconv.Itoa(i), move)
			}
		case tokenShape.MatchString(a):
			put(i, strconv.Itoa(i), "", a)
		}
	}
	return args
}

// envName is a variable's name, the KEY of a KEY=VALUE argument.
var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// headerArg is a header written as one argument: "Name: value".
var headerArg = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9-]*):(\s*)(\S.*)$`)

// credentialArg reports whether a secret flag's value may be the
// credential itself: not a path to a file holding it, a switch or a
// placeholder.
func credentialArg(v string) bool {
	if len(v) < 8 || strings.ContainsAny(v[:1], "/~.") || windowsPath.MatchString(v) {
		return false
	}
	return !strings.Contains(v, "${") && !bareVariable.MatchString(v) && !config.Placeholder(v)
}

var windowsPath = regexp.MustCompile(`^[A-Za-z]:[\\/]`)

// withURLPassword is raw with its user information's password replaced.
func withURLPassword(raw, password string) string {
	head, info, rest := userInfo(raw)
	user, _, _ := strings.Cut(info, ":")
	return head + user + ":" + password + rest
}
