package config

import (
	"regexp"
	"strings"
)

// placeholderShape matches the stand-ins a server's README puts where the
// user's own credential goes, which a config copied from it still holds:
// "<YOUR_TOKEN>", "YOUR_API_KEY", "your-api-key-here", "sk-xxxxxxxx",
// "ghp_XXXX…", "REPLACE_ME", "changeme", "***".
var placeholderShape = regexp.MustCompile(`(?i)^(?:` +
	`<[^<>]*[a-z][^<>]*>|\[[^\[\]]*[a-z][^\[\]]*\]|\{\{[^{}]+\}\}` + // <YOUR_TOKEN>, [API KEY], {{token}}
	`|your[\s_-].+|.*(?:key|token|secret|password|pat)[\s_-]here` + // YOUR_API_KEY, paste-your-key-here
	`|[a-z]+[_-](?:x{4,}|\*{4,}|\.{3,})` + // sk-xxxxxxxx, ghp_****, sk-...
	`|x{4,}|\*{3,}|(?:replace|change)[\s_-]?me|placeholder` +
	`)$`)

// Placeholder reports whether v (an env value, a header's value with or
// without its "Bearer " scheme, an argument) is a documentation
// stand-in rather than a real value: a server given it fails its first
// request, usually with a 401 that does not say why. An import warns of
// it, and the keyring never takes it for a secret.
func Placeholder(v string) bool {
	v = strings.TrimSpace(v)
	if scheme, rest, ok := strings.Cut(v, " "); ok && (strings.EqualFold(scheme, "Bearer") || strings.EqualFold(scheme, "Token")) {
		v = strings.TrimSpace(rest)
	}
	return v != "" && placeholderShape.MatchString(v)
}

// placeholderNote is the warning of a placeholder value at path.
const placeholderNote = "holds %q, a stand-in from the server's documentation: replace it with your own value, or the server will fail"
