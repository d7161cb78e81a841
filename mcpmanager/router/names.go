package router

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Separator joins server and tool names: "github__create_issue".
const Separator = "__"

// maxName is the longest tool name every major LLM provider accepts.
const maxName = 64

var invalidRune = regexp.MustCompile(`[^a-zA-Z0-9_-]+`)

// Namespace returns the base exposed name of tool on server: server__tool,
// sanitized to ^[a-zA-Z0-9_-]{1,64}$. A name that is valid as it is and
// fits keeps it. Names that had to be changed (or cut to 64) carry a
// short hash of the original, so two different tools do not end up with
// the same name.
//
// A name over 64 characters loses characters from its server part first
// (down to minServer), then from the end of its tool part, so the model
// still reads which tool it is: an 80-letter server's tool echo is
// lll…(51)__echo_<hash>. A part of which sanitizing leaves nothing (a
// name in another script: "サーバー", "名前を取得") is server_<hash of the
// server's name> for a server, so its tools read as one server's, and
// nothing but the hash for a tool: server_3f2a1b__echo_<hash>,
// odd__<hash>. Names that fit with their hash read as they always did.
//
// A server whose own name holds the separator ("a__b") always gets the
// hash: its tool "c" would otherwise be a__b__c, the name of server "a"'s
// tool "b__c", and adding that server would rename the other's tool — and
// move the approval policy set on it. Other collisions of base names (two
// tools cut to the same 64 characters) are settled by Router.Tools,
// which gives every tool of one a suffix of its own (see uniqueNames);
// only the names it returns are the exposed ones.
func Namespace(server, tool string) string {
	raw := server + Separator + tool
	s, t := sanitize(server), sanitize(tool)
	clean := s + Separator + t
	valid := clean == raw && len(raw) <= maxName
	if valid && !strings.Contains(server, Separator) {
		return raw
	}
	hash := shortHash(raw)
	if valid || s != "" && t != "" && len(clean)+1+len(hash) <= maxName {
		// As such names always were: approval rules, pins and
		// policies are keyed by them.
		return withSuffix(clean, hash)
	}
	if s == "" {
		s = "server_" + shortHash(server)
	}
	return fitParts(s, t, hash)
}

// minServer is the least of a server's part a name over 64 characters
// keeps before its tool's part is cut.
const minServer = 20

// fitParts joins server part s, tool part t (none: "") and hash as
// s__t_hash (s__hash), cutting s first, down to minServer characters,
// then t from its end, to fit maxName. Parts are sanitized (ASCII).
func fitParts(s, t, hash string) string {
	tail := "_" + hash
	if t == "" {
		tail = hash
	}
	room := maxName - len(Separator) - len(tail) // for s and t
	if over := len(s) + len(t) - room; over > 0 {
		fromServer := min(over, max(len(s)-minServer, 0))
		fromTool := min(over-fromServer, len(t))
		s, t = s[:len(s)-fromServer], t[:len(t)-fromTool]
	}
	return s + Separator + t + tail
}

// shortHash is 6 hex digits of the SHA-256 of s.
func shortHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])[:6]
}

// withSuffix appends _suffix to name, cutting name so the whole fits maxName.
func withSuffix(name, suffix string) string {
	suffix = "_" + suffix
	if len(name)+len(suffix) > maxName {
		name = name[:maxName-len(suffix)]
	}
	return name + suffix
}

// sanitize is s with every run of characters outside [a-zA-Z0-9_-] one
// _, and no _ at either end: "" when nothing is left.
func sanitize(s string) string {
	return strings.Trim(invalidRune.ReplaceAllString(s, "_"), "_")
}

// Prefix is how the base name of every tool of server begins (server__).
func Prefix(server string) string {
	s := sanitize(server)
	if s == "" {
		s = "server_" + shortHash(server)
	}
	return s + Separator
}

// uniqueNames sets the exposed Name of each tool, unique across tools.
// A tool whose base name (Namespace) no other tool has keeps it. When two or
// more tools share a base name, every one of them gets a suffix: _ and the
// first 6 hex digits of SHA-256 over server, a zero byte and tool, longer
// only if that is taken too. The result depends only on the set of tools,
// not on their order. No tool of a collision keeps the plain name, so a
// server added later (or sorting first) can never take over the name, and
// with it the approval policy, pin or history, another server's tool had.
func uniqueNames(tools []Tool) {
	base := make([]string, len(tools))
	count := map[string]int{}
	for i, t := range tools {
		base[i] = Namespace(t.Server, t.Tool.Name)
		count[base[i]]++
	}
	taken := map[string]bool{} // every base name, and the names given so far
	for _, b := range base {
		taken[b] = true
	}
	var clashing []int
	for i := range tools {
		if count[base[i]] == 1 {
			tools[i].Name = base[i]
		} else {
			clashing = append(clashing, i)
		}
	}
	// A fixed order, so that when even a longer suffix is taken, who gets
	// which name does not depend on the order servers were listed in.
	slices.SortFunc(clashing, func(a, b int) int {
		return cmp.Or(strings.Compare(base[a], base[b]),
			strings.Compare(tools[a].Server, tools[b].Server), strings.Compare(tools[a].Tool.Name, tools[b].Tool.Name))
	})
	for _, i := range clashing {
		sum := sha256.Sum256([]byte(tools[i].Server + "\x00" + tools[i].Tool.Name))
		digits := hex.EncodeToString(sum[:])
		name := ""
		for n := 6; n <= 32; n += 2 {
			if name = withSuffix(base[i], digits[:n]); !taken[name] {
				break
			}
		}
		for k := 2; taken[name]; k++ { // one server listing the same tool twice, or a 128-bit clash
			name = withSuffix(base[i], fmt.Sprintf("%s_%d", digits[:6], k))
		}
		taken[name] = true
		tools[i].Name = name
	}
}
