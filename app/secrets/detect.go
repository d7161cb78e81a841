package secrets

import (
	"regexp"
	"strings"
)

// secretName matches variable and header names that usually hold credentials.
var secretName = regexp.MustCompile(`(?i)(KEY|TOKEN|SECRET|PASSWORD|PASSWD|PAT|AUTH|CREDENTIAL|BEARER|COOKIE|SESSION)`)

// tokenShape matches values shaped like well-known credentials.
var tokenShape = regexp.MustCompile(`^(sk-|sk_live_|sk_test_|rk_live_|pk_live_|ghp_|gho_|ghu_|ghs_|ghr_|github_pat_|glpat-|xox[abposr]-|AKIA|ASIA|eyJ|AIza|ya29\.|npm_|hf_|pplx-|gsk_|dop_v1_|shpat_|ntn_|secret_|lin_api_|Bearer\s)`)

// notSecretName excludes names that match secretName but hold no secret.
var notSecretName = regexp.MustCompile(`(?i)(PATH|_URL$|_URI$|_HOST$|_PORT$|KEYBOARD|AUTHOR|_FILE$|_DIR$|_MODE$)`)

// LooksSecret reports whether the value of env variable or header name
// should move to the keyring. Placeholders and empty values never do.
func LooksSecret(name, value string, header bool) bool {
	v := strings.TrimSpace(value)
	if v == "" || strings.Contains(v, "${") {
		return false
	}
	if tokenShape.MatchString(v) {
		return true
	}
	if header {
		n := strings.ToLower(name)
		return n == "authorization" || n == "proxy-authorization" || n == "cookie" ||
			strings.HasSuffix(n, "-api-key") || strings.HasSuffix(n, "-token") || n == "api-key" || n == "x-api-key" || strings.HasSuffix(n, "-key")
	}
	if notSecretName.MatchString(name) && !strings.HasSuffix(strings.ToUpper(name), "TOKEN") && !strings.HasSuffix(strings.ToUpper(name), "KEY") {
		return false
	}
	// Short flags such as "true" or "1" are not credentials even under a secret name.
	return secretName.MatchString(name) && len(v) >= 8
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
