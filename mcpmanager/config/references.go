package config

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"regexp"
	"strconv"
	"strings"
)

// ErrForeignReference means a document from outside (a registry's server.json, a
// bundle's manifest) holds a ${secret:…} or ${env:…} reference. Expanded at
// start like one the user wrote, it would hand the server another server's
// secret or this app's environment, so such a document is refused: only
// values the user typed for that server are referenced.
var ErrForeignReference = errors.New("would read a secret or environment variable this server was not given")

// ReferencePattern is a ${secret:NAME} or ${env:NAME} reference, exactly
// what is expanded at start (app/secrets.Expand uses it).
var ReferencePattern = regexp.MustCompile(`\$\{(secret|env):([^}]+)\}`)

// Reference is the first ${secret:…} or ${env:…} reference in s, or "".
func Reference(s string) string { return ReferencePattern.FindString(s) }

// Opaque stands in for the values a user typed while an entry is built from
// an outside document, so that only the document's own text is checked for
// references (Reference): the user's values, references included, are
// theirs. Its tokens are random, so a document cannot spell one.
type Opaque struct {
	prefix string
	values []string
}

// NewOpaque returns an empty set of stand-ins.
func NewOpaque() *Opaque {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return &Opaque{prefix: "\x00" + hex.EncodeToString(b[:]) + "-"}
}

// IsOpaque reports whether v is a stand-in an Opaque's Hide returned
// (whole, not a text that holds one).
func IsOpaque(v string) bool {
	return len(v) > 2 && v[0] == 0 && v[len(v)-1] == 0 && !strings.Contains(v[1:len(v)-1], "\x00")
}

// Hide returns the stand-in for v ("" stays "").
func (o *Opaque) Hide(v string) string {
	if v == "" {
		return ""
	}
	o.values = append(o.values, v)
	return o.prefix + strconv.Itoa(len(o.values)-1) + "\x00"
}

// Reveal puts the hidden values back into s.
func (o *Opaque) Reveal(s string) string {
	if !strings.Contains(s, o.prefix) {
		return s
	}
	for i, v := range o.values {
		s = strings.ReplaceAll(s, o.prefix+strconv.Itoa(i)+"\x00", v)
	}
	return s
}

// RevealServer reveals every value of s that is expanded at start.
func (o *Opaque) RevealServer(s *Server) {
	s.Command, s.URL, s.Cwd, s.EnvFile = o.Reveal(s.Command), o.Reveal(s.URL), o.Reveal(s.Cwd), o.Reveal(s.EnvFile)
	for i, a := range s.Args {
		s.Args[i] = o.Reveal(a)
	}
	for k, v := range s.Env {
		s.Env[k] = o.Reveal(v)
	}
	for k, v := range s.Headers {
		s.Headers[k] = o.Reveal(v)
	}
	if s.OAuth != nil {
		s.OAuth.ClientID, s.OAuth.ClientSecret = o.Reveal(s.OAuth.ClientID), o.Reveal(s.OAuth.ClientSecret)
	}
}
