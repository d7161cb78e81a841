package library

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/plain"
)

// Keys of a server entry this package owns.
const (
	MetaKey     = "metadata"
	ParamsKey   = "parameters"
	ProfilesKey = "profiles"
)

// Meta is what the user (or the template a server came from) says about a
// server. The server's own initialize result fills what is left empty (see
// Describe).
type Meta struct {
	Description string   `json:"description,omitempty"`
	Tags        []string `json:"tags,omitempty"`
	DocsURL     string   `json:"docsUrl,omitempty"`
	Color       string   `json:"color,omitempty"` // #rgb or #rrggbb
	Icon        string   `json:"icon,omitempty"`  // an emoji or up to two letters
	Template    string   `json:"template,omitempty"`
}

var colorRe = regexp.MustCompile(`^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$`)

// Normalize trims every field, lower-cases and de-duplicates tags, and
// checks the docs URL, colour and icon.
func (m Meta) Normalize() (Meta, error) {
	m.Description = strings.TrimSpace(m.Description)
	m.DocsURL = strings.TrimSpace(m.DocsURL)
	m.Color = strings.TrimSpace(m.Color)
	m.Icon = strings.TrimSpace(m.Icon)
	var tags []string
	for _, t := range m.Tags {
		t = strings.ToLower(strings.Join(strings.Fields(t), "-"))
		if t != "" && !slices.Contains(tags, t) {
			tags = append(tags, t)
		}
	}
	m.Tags = tags
	if m.DocsURL != "" {
		u, err := url.Parse(m.DocsURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return m, &FieldError{Path: "docsUrl", Err: fmt.Errorf("%w: %q is not an http(s) address; use a link like https://example.com/docs", ErrBadMetadata, m.DocsURL)}
		}
	}
	if m.Color != "" && !colorRe.MatchString(m.Color) {
		return m, &FieldError{Path: "color", Err: fmt.Errorf("%w: %q is not a colour; use #rgb or #rrggbb", ErrBadMetadata, m.Color)}
	}
	if utf8.RuneCountInString(m.Icon) > 4 {
		return m, &FieldError{Path: "icon", Err: fmt.Errorf("%w: the icon %q is too long; use one emoji or up to two letters", ErrBadMetadata, m.Icon)}
	}
	return m, nil
}

// MetaOf reads a server's "metadata" object; a missing one is the zero Meta.
// A plain "description" string on the entry (some hosts write one) is the
// description when the metadata has none.
func MetaOf(s config.Server) (Meta, error) {
	var m Meta
	if raw, ok := s.Extra[MetaKey]; ok {
		if err := json.Unmarshal(raw, &m); err != nil {
			return Meta{}, &FieldError{Path: serverPath(s.Name, MetaKey), Err: fmt.Errorf("%w: %v; it must be an object like {\"description\": \"...\", \"tags\": [\"...\"]}", ErrBadMetadata, err)}
		}
	}
	if m.Description == "" {
		var d string
		if json.Unmarshal(s.Extra["description"], &d) == nil {
			m.Description = strings.TrimSpace(d)
		}
	}
	return m, nil
}

// SetMeta stores m (normalized) in the server's entry; the zero Meta removes
// the key.
func SetMeta(s *config.Server, m Meta) error {
	m, err := m.Normalize()
	if err != nil {
		var fe *FieldError
		if errors.As(err, &fe) {
			fe.Path = serverPath(s.Name, MetaKey) + "." + fe.Path
		}
		return err
	}
	return setExtra(s, MetaKey, m, isZeroMeta(m))
}

func isZeroMeta(m Meta) bool {
	return m.Description == "" && len(m.Tags) == 0 && m.DocsURL == "" && m.Color == "" && m.Icon == "" && m.Template == ""
}

// Info is what a running server said about itself in initialize.
type Info struct {
	Name, Title, Version, Description, Instructions string
}

// Describe is the description to show: the user's, else the server's own
// description, else its title and the first sentence of its instructions.
func Describe(m Meta, info Info) string {
	if m.Description != "" {
		return m.Description
	}
	if info.Description != "" {
		return info.Description
	}
	first := strings.TrimSpace(info.Instructions)
	if i := strings.IndexAny(first, "\n"); i >= 0 {
		first = first[:i]
	}
	if i := strings.Index(first, ". "); i >= 0 {
		first = first[:i+1]
	}
	first = plain.Clip(first, 200)
	switch {
	case info.Title != "" && first != "":
		return info.Title + ": " + first
	case first != "":
		return first
	}
	return info.Title
}

// setExtra writes v as the server's key (or deletes it when remove is true).
func setExtra(s *config.Server, key string, v any, remove bool) error {
	if remove {
		delete(s.Extra, key)
		return nil
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if s.Extra == nil {
		s.Extra = map[string]json.RawMessage{}
	}
	s.Extra[key] = raw
	return nil
}

// serverPath is the JSON path of a server key in config.json.
func serverPath(name, key string) string {
	if strings.ContainsAny(name, ".[]\" ") {
		return fmt.Sprintf("mcpServers[%q].%s", name, key)
	}
	return "mcpServers." + name + "." + key
}
