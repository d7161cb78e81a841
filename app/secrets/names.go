package secrets

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// Keyring names are made so that two things can never share one: a
// server's secrets live under its stable id (config.json's "id", kept
// across renames and never reused), a provider's key under "provider.",
// and every name under the data directory's scope (see Store.SetScope),
// so two data dirs on one account keep apart. Typed names (secrets set
// NAME) keep the user's spelling; they are scoped too.

// NewID returns a fresh random id for a server entry or a data
// directory's scope: 12 lowercase hex digits, not guessable, so an
// imported config cannot name the entries of a server it did not make.
func NewID() string {
	var b [6]byte
	_, _ = rand.Read(b[:]) // crypto/rand never fails on supported platforms
	return hex.EncodeToString(b[:])
}

// ValidID reports whether id could be one NewID made.
func ValidID(id string) bool {
	if len(id) != 12 {
		return false
	}
	_, err := hex.DecodeString(id)
	return err == nil && strings.ToLower(id) == id
}

// serverPrefix starts every name a server owns: "server.<id>.".
func serverPrefix(id string) string { return "server." + id + "." }

// ServerName is the keyring name of one of a server's own values: field
// is where it is used ("env.GITHUB_TOKEN", "headers.Authorization",
// "input.docs-token", "oauth.clientSecret", a template's parameter).
func ServerName(id, field string) string { return fit(serverPrefix(id), field) }

// OwnedBy reports whether name is one of the server id's own entries.
func OwnedBy(name, id string) bool { return id != "" && strings.HasPrefix(name, serverPrefix(id)) }

// ProviderName is the keyring name of a model provider's API key.
func ProviderName(provider string) string { return fit("provider.", provider+".API_KEY") }

// fit is prefix+rest with the runes a name may not hold replaced; when
// that changed anything ("my server" and "my_server") or the name is too
// long, a short hash of rest keeps distinct inputs apart.
func fit(prefix, rest string) string {
	safe := unsafeNameRune.ReplaceAllString(rest, "_")
	n := prefix + safe
	if safe == rest && len(n) <= 128 {
		return n
	}
	sum := sha256.Sum256([]byte(rest))
	tag := "-" + hex.EncodeToString(sum[:4])
	if len(n)+len(tag) > 128 {
		n = n[:128-len(tag)]
	}
	return n + tag
}
