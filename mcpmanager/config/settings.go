package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
)

// ErrSettings means a section of config.json's "settings" does not have the
// shape its owner reads (a string where a list belongs, …). The problem's
// Path names the value ("settings.workspace.root").
var ErrSettings = errors.New("config.json has a malformed settings section")

// A Section is one key of config.json's "settings" object, read and
// written as its owner's Go type T. Every package that keeps settings
// (chat, workspace, downloads, tasks, the MCP Registry, profiles, the
// secrets index) declares its section once and goes through it, so a
// malformed section is reported the same way everywhere, with its JSON
// path, and the other sections are kept as they are (compacted). See
// ExampleSection.
type Section[T any] struct {
	// Key is the section's name under "settings".
	Key string
}

// Get reads the section of cfg: T's zero value when it is absent, an
// *ValidationError (ErrSettings) naming the JSON path of the wrong value
// when it is malformed.
func (s Section[T]) Get(cfg *Config) (T, error) { return s.From(cfg.Settings) }

// From is Get on the raw settings object (what Config.Settings holds).
func (s Section[T]) From(raw json.RawMessage) (T, error) {
	var v T
	m, err := settingsObject(raw)
	if err != nil {
		return v, err
	}
	b, ok := m[s.Key]
	if !ok || string(b) == "null" {
		return v, nil
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return v, s.malformed(err)
	}
	return v, nil
}

// Put sets the section of cfg to v.
func (s Section[T]) Put(cfg *Config, v T) error {
	m, err := settingsObject(cfg.Settings)
	if err != nil {
		return err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("settings.%s: %w", s.Key, err)
	}
	m[s.Key] = b
	out, err := json.Marshal(m)
	if err != nil {
		return err
	}
	cfg.Settings = out
	return nil
}

// Edit lets fn change the section of cfg (read with Get; nothing changes
// when Get or fn fails).
func (s Section[T]) Edit(cfg *Config, fn func(*T) error) error {
	v, err := s.Get(cfg)
	if err != nil {
		return err
	}
	if err := fn(&v); err != nil {
		return err
	}
	return s.Put(cfg, v)
}

// malformed turns a decoding error into a problem at the value's path.
func (s Section[T]) malformed(err error) error {
	path, msg := "settings."+s.Key, err.Error()
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		if te.Field != "" {
			path += "." + te.Field
		}
		msg = fmt.Sprintf("want %s, got a JSON %s", kindOf(te.Type), te.Value)
	}
	return &ValidationError{Kind: ErrSettings, Problems: []Problem{{Path: path, Severity: SeverityError,
		Message: msg + "; fix or remove it in config.json (Settings rewrites it when saved)"}}}
}

// settingsObject is the settings object as its sections (empty when there
// is none).
func settingsObject(raw json.RawMessage) (map[string]json.RawMessage, error) {
	m := map[string]json.RawMessage{}
	if len(raw) == 0 || string(raw) == "null" {
		return m, nil
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, &ValidationError{Kind: ErrSettings, Problems: []Problem{{Path: "settings", Severity: SeverityError,
			Message: "want an object of sections; fix or remove it in config.json"}}}
	}
	return m, nil
}

// kindOf names a Go type the way a config.json author thinks of it.
func kindOf(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return t.String()
}
