package secrets

import (
	"math"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// knownTokens are credential shapes whose prefix alone is too short or too
// common to go by (fc-, r8_), so each is matched with its random tail: the
// keys people paste into remote servers' URLs and README configs. They are
// part of tokenShape and tokenInside.
const knownTokens = `tvly-(?:dev-|prod-)?[A-Za-z0-9]{20,}` + // Tavily
	`|fc-[0-9a-f]{32}` + // Firecrawl
	`|figd_[A-Za-z0-9_-]{30,}` + // Figma
	`|sbp_[0-9a-f]{40}` + // Supabase
	`|sntry[su]_[A-Za-z0-9+/=_]{30,}` + // Sentry
	`|ctx7sk-[A-Za-z0-9-]{20,}` + // Context7
	`|apify_api_[A-Za-z0-9]{20,}` + // Apify
	`|r8_[A-Za-z0-9]{30,}` + // Replicate
	`|xai-[A-Za-z0-9]{30,}` + // xAI
	`|nvapi-[A-Za-z0-9_-]{30,}` + // NVIDIA
	`|pcsk_[A-Za-z0-9_]{30,}` + // Pinecone
	`|lsv2_(?:pt|sk)_[0-9a-f]{20,}` + // LangSmith
	`|dckr_pat_[A-Za-z0-9_-]{20,}` + // Docker Hub
	`|ATATT[A-Za-z0-9_=-]{30,}` + // Atlassian
	`|xapp-[0-9]-[A-Za-z0-9-]{20,}` + // Slack app-level
	`|SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}` + // SendGrid
	`|sq0(?:atp|csp)-[A-Za-z0-9_-]{22,}` + // Square
	`|whsec_[A-Za-z0-9+/=]{24,}` + // webhook signing secrets
	`|glsa_[A-Za-z0-9_]{32,}` // Grafana service account

// moveFunc replaces a secret value of field by its reference; ok is false
// when the value stays (the user keeps it in the file).
type moveFunc = func(field, value string) (ref string, ok bool)

// urlWithHost reports whether v is an absolute URL with a host
// (https://…, wss://…, postgresql://…): the URL rules apply to it wherever
// it is written, whole or after NAME= in an argument.
func urlWithHost(v string) bool {
	i := strings.Index(v, "://")
	if i <= 0 || strings.ContainsAny(v, " \t\n") {
		return false
	}
	for _, r := range v[:i] {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("+-.", r) {
			return false
		}
	}
	u, err := url.Parse(v)
	return err == nil && u.Host != ""
}

// urlSecrets returns raw (a server's URL) with its credentials replaced by
// the reference move returns for them (see urlSecretsAt), its password
// named field.password.
func urlSecrets(raw, field string, move moveFunc) string {
	out, _ := urlSecretsAt(raw, field, field+".password", move)
	return out
}

// urlSecretsAt returns raw with its credentials replaced by the reference
// move returns for each, and whether it found any (moved or kept): the
// password of its user information (named password), the values of its
// secret query parameters (field.PARAM: ?api_key=, ?tavilyApiKey=,
// ?token=, ?sig=, or a value of a known token shape) and a path segment
// that is a credential (field.path: Firecrawl's /fc-…/, Zapier's
// /s/<secret>/; see pathSecret). Each is replaced as written, still
// escaped, so the URL is the same once the reference is expanded; the
// rest of the URL is kept byte for byte.
func urlSecretsAt(raw, field, password string, move moveFunc) (string, bool) {
	if !urlWithHost(raw) {
		return raw, false
	}
	found := false
	take := func(field, value string) (string, bool) {
		found = true
		return move(field, value)
	}
	if p := urlPassword(raw); p != "" && !config.Placeholder(p) {
		if ref, ok := take(password, p); ok {
			raw = withURLPassword(raw, ref)
		}
	}
	origin, path, query, frag := splitURL(raw)
	path = pathSecrets(path, field, publicIDs(origin), take)
	query = querySecrets(query, field, take)
	return origin + path + query + frag, found
}

// splitURL cuts raw (a URL with "://") into scheme://authority, the path,
// "?query" and "#fragment", each as written and "" when absent.
func splitURL(raw string) (origin, path, query, frag string) {
	start := strings.Index(raw, "://") + 3
	rest := raw[start:]
	end := len(rest)
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		end = i
	}
	origin, rest = raw[:start+end], rest[end:]
	if i := strings.IndexByte(rest, '#'); i >= 0 {
		rest, frag = rest[:i], rest[i:]
	}
	if i := strings.IndexByte(rest, '?'); i >= 0 {
		rest, query = rest[:i], rest[i:]
	}
	return origin, rest, query, frag
}

// pathSecrets is path with each segment pathSecret finds replaced by its
// reference, named field.path (field.path.N for a second one). public
// says the host's random-looking ids are public ones (see publicIDs).
func pathSecrets(path, field string, public bool, move moveFunc) string {
	segs := strings.Split(path, "/")
	name := field + ".path"
	for i, seg := range segs {
		prev := ""
		if i > 0 {
			prev = segs[i-1]
		}
		if !pathSecret(seg, prev, public) {
			continue
		}
		if ref, ok := move(name, seg); ok {
			segs[i] = ref
		}
		name = field + ".path." + strconv.Itoa(i+1)
	}
	return strings.Join(segs, "/")
}

// querySecrets is query ("?a=1&b=2" or "") with the values of its secret
// parameters replaced by their references, named field.PARAM.
func querySecrets(query, field string, move moveFunc) string {
	if query == "" {
		return ""
	}
	parts := strings.Split(query[1:], "&")
	for i, part := range parts {
		k, v, ok := strings.Cut(part, "=")
		key, err1 := url.QueryUnescape(k)
		val, err2 := url.QueryUnescape(v)
		if !ok || err1 != nil || err2 != nil || strings.Contains(val, "${") || config.Placeholder(val) {
			continue
		}
		if (secretWord(key, val) && len(val) >= 8) || tokenShape.MatchString(val) {
			if ref, ok := move(field+"."+key, v); ok {
				parts[i] = k + "=" + ref
			}
		}
	}
	return "?" + strings.Join(parts, "&")
}

// pathSecret reports whether a URL path segment (as written) is a
// credential: a token of a known shape (Firecrawl's fc-…, sk-…, ghp_…),
// a long random string (Zapier's /s/<secret>/; not on a host whose ids
// are public), or the value after a segment named like one
// (/api_key/<value>). Ids that are not secrets stay: hex (a git commit,
// a UUID, a hash), words, versions, @scope/name.
func pathSecret(seg, prev string, public bool) bool {
	if len(seg) < 8 || strings.Contains(seg, "${") || config.Placeholder(seg) {
		return false
	}
	if credentialToken(seg) || !public && randomString(seg, 24) {
		return true
	}
	return len(seg) >= 16 && strings.ContainsAny(seg, "0123456789") && secretWord(prev, seg)
}

// publicIDHosts are hosts whose URLs hold long random ids that are not
// credentials: a document's, a file's or a commit's (Google Docs ids are
// 44 random characters). A token of a known shape in their URLs still
// moves.
var publicIDHosts = []string{"github.com", "githubusercontent.com", "gitlab.com", "bitbucket.org", "google.com",
	"youtube.com", "youtu.be", "huggingface.co", "npmjs.com", "pypi.org", "notion.so", "notion.site", "figma.com"}

// publicIDs reports whether origin (scheme://authority) is one of
// publicIDHosts or under one.
func publicIDs(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil {
		return false
	}
	h := strings.ToLower(u.Hostname())
	for _, p := range publicIDHosts {
		if h == p || strings.HasSuffix(h, "."+p) {
			return true
		}
	}
	return false
}

// knownToken matches a value that starts with one of knownTokens.
var knownToken = regexp.MustCompile(`^(?:` + knownTokens + `)`)

// credentialToken reports whether v, a path segment, is a credential by
// its shape alone: one of knownTokens, a token tokenInside finds at its
// start that is as long as real ones (20 characters or more: AKIA and
// its 16, ghp_ and its 36), or a prefix of tokenShape with a random tail
// (sk-ak-…). Words that start like a token ("sk-learn", "secret_santa",
// "hf_transfer") are not.
func credentialToken(v string) bool {
	if knownToken.MatchString(v) {
		return true
	}
	if m := tokenInside.FindString(v); len(m) >= 20 && strings.HasPrefix(v, m) {
		return true
	}
	prefix := tokenShape.FindString(v)
	return prefix != "" && randomString(v[len(prefix):], 16)
}

// randomString reports whether s looks like a generated credential and
// not like a name: at least minLen characters of base64url, with upper
// and lower case letters and digits mixed as random text mixes them (the
// class changes from one character to the next in at least a third of
// the places; a CamelCase name changes at word starts only), and varied.
// Hex strings (git commits, UUIDs, hashes) are not: they are mostly ids.
func randomString(s string, minLen int) bool {
	s = strings.TrimRight(s, "=")
	if len(s) < minLen {
		return false
	}
	var upper, lower, digit, changes int
	hex := true
	last := -1
	for i := 0; i < len(s); i++ {
		c := s[i]
		class := 3
		switch {
		case c >= 'A' && c <= 'Z':
			upper, class = upper+1, 0
		case c >= 'a' && c <= 'z':
			lower, class = lower+1, 1
		case c >= '0' && c <= '9':
			digit, class = digit+1, 2
		case c != '-' && c != '_':
			return false
		}
		hex = hex && (class == 2 || class == 3 || strings.IndexByte("abcdefABCDEF", c) >= 0)
		if last >= 0 && class != last {
			changes++
		}
		last = class
	}
	if hex || upper == 0 || lower == 0 || digit == 0 {
		return false
	}
	return changes*3 >= len(s) && entropy(s) >= 3.5
}

// entropy is the Shannon entropy of s's bytes, in bits per byte.
func entropy(s string) float64 {
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	h := 0.0
	for _, n := range counts {
		if n > 0 {
			p := float64(n) / float64(len(s))
			h -= p * math.Log2(p)
		}
	}
	return h
}

// nameWords splits a header, flag or parameter name into its lower-case
// words at -, _, . and spaces and at camelCase humps: "X-Api-Key",
// "tavilyApiKey" and "APIKey" all end in the word "key".
func nameWords(name string) []string {
	var words []string
	for _, part := range strings.FieldsFunc(strings.TrimLeft(name, "-"), func(r rune) bool {
		return r == '-' || r == '_' || r == '.' || r == ' '
	}) {
		words = append(words, camelWords(part)...)
	}
	return words
}

// camelWords splits one camelCase or PascalCase word ("tavilyApiKey",
// "APIKey", "accessToken2") into its lower-case words.
func camelWords(s string) []string {
	rs := []rune(s)
	var words []string
	start := 0
	for i := 1; i < len(rs); i++ {
		lowerToUpper := unicode.IsLower(rs[i-1]) && unicode.IsUpper(rs[i])
		acronymEnd := i+1 < len(rs) && unicode.IsUpper(rs[i-1]) && unicode.IsUpper(rs[i]) && unicode.IsLower(rs[i+1])
		if lowerToUpper || acronymEnd {
			words = append(words, strings.ToLower(string(rs[start:i])))
			start = i
		}
	}
	return append(words, strings.ToLower(string(rs[start:])))
}

// secretSuffixes are the endings of a name's last word that say it holds
// a credential when it is written as one word ("accesstoken",
// "clientsecret", "xapikey", "urlsignature", "basicauth"). The short
// ones (key, sig) count only as the whole word: as endings they would
// take "hotkey" and "monkey".
var secretSuffixes = []string{"apikey", "accesskey", "secretkey", "privatekey", "authkey", "token", "secret", "signature", "password", "passwd", "auth"}

// secretSuffix reports whether w, the last word of a name, ends like a
// credential's name (see secretSuffixes); an ending "auth" needs a value
// of 8 characters or more, as the word "auth" does.
func secretSuffix(w, value string) bool {
	if w == "sig" {
		return true
	}
	for _, s := range secretSuffixes {
		if strings.HasSuffix(w, s) {
			return s != "auth" || len(value) >= 8
		}
	}
	return false
}

// urlArg applies the URL rules to an argument that is a URL or ends in one
// (--url=URL, NAME=URL, "Header: URL"): the part before the URL is kept,
// and the URL's secrets are named base (its password) and base.PARAM,
// base.path.
func urlArg(prefix, u, base string, move moveFunc) (string, bool) {
	out, found := urlSecretsAt(u, base, base, move)
	return prefix + out, found
}
