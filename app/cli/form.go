package cli

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/mail"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// An elicitation form as MCP 2025-11-25 defines its requested schema: a
// flat object whose properties are each a string (minLength, maxLength,
// format email, uri, date or date-time), a number or integer (minimum,
// maximum), a boolean, or an enum: one choice of a string's enum (its
// titles in the legacy enumNames) or oneOf {const, title}, or several
// choices, an array whose items have an enum or anyOf {const, title}
// (minItems, maxItems). Each answer typed on the terminal is checked
// against its property before the form is sent: a server refuses a whole
// form one field of which breaks its schema, and the tool call that asked
// fails, where the user could simply have been asked that field again.

// field is one property of an elicitation form.
type field struct {
	Name        string
	Type        string // string, number, integer, boolean; array for Multi
	Title       string
	Description string
	Format      string   // a string's: email, uri, date, date-time
	Choices     []choice // an enum's, in the schema's order
	Multi       bool     // several of Choices (or, without them, of any strings)
	// Min and Max bound a number; MinLen and MaxLen a string's characters,
	// or how many choices a Multi field takes.
	Min, Max       *float64
	MinLen, MaxLen *int
	Default        any
	Required       bool
}

// choice is one value an enum field takes.
type choice struct {
	Value any    // sent as the schema has it
	Title string // shown; "" shows the value
}

func (c choice) label() string {
	if c.Title != "" {
		return c.Title
	}
	return fmt.Sprint(c.Value)
}

// prompt is what the terminal shows before reading the field's answer:
// its label, what it takes, its default, and its choices numbered.
func (f field) prompt() string {
	var b strings.Builder
	fmt.Fprintf(&b, "  %s", cmp.Or(f.Title, f.Name))
	if f.Description != "" {
		fmt.Fprintf(&b, " — %s", f.Description)
	}
	fmt.Fprintf(&b, " (%s", f.kind())
	if f.Default != nil {
		fmt.Fprintf(&b, ", default %s", f.shown(f.Default))
	} else if !f.Required {
		b.WriteString(", optional")
	}
	b.WriteString(")")
	if len(f.Choices) == 0 {
		b.WriteString(": ")
		return b.String()
	}
	b.WriteString(":\n")
	for i, c := range f.Choices {
		fmt.Fprintf(&b, "    %d) %s\n", i+1, c.label())
	}
	if f.Multi {
		b.WriteString("  numbers, separated by commas: ")
	} else {
		b.WriteString("  number: ")
	}
	return b.String()
}

// kind says in words what the field takes.
func (f field) kind() string {
	switch {
	case f.Multi && len(f.Choices) == 0:
		return "a list, separated by commas" + countRange(f.MinLen, f.MaxLen, "")
	case f.Multi:
		return "choose" + cmp.Or(countRange(f.MinLen, f.MaxLen, ""), " any")
	case len(f.Choices) > 0:
		return "choose one"
	}
	switch f.Type {
	case "integer":
		return "whole number" + numberRange(f.Min, f.Max)
	case "number":
		return "number" + numberRange(f.Min, f.Max)
	case "boolean":
		return "yes/no"
	}
	kind := "string"
	switch f.Format {
	case "email":
		kind = "email address"
	case "uri":
		kind = "address with its scheme, like https://example.com"
	case "date":
		kind = "date, YYYY-MM-DD"
	case "date-time":
		kind = "date and time, like 2025-11-25T14:30:00Z"
	}
	return kind + countRange(f.MinLen, f.MaxLen, "characters")
}

// shown is a value of the field as the user reads it: a choice by its
// title, a list of them, yes/no.
func (f field) shown(v any) string {
	switch v := v.(type) {
	case bool:
		if v {
			return "yes"
		}
		return "no"
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = f.shown(e)
		}
		return strings.Join(parts, ", ")
	}
	for _, c := range f.Choices {
		if sameValue(c.Value, v) {
			return c.label()
		}
	}
	return fmt.Sprint(v)
}

// parse converts what was typed into the field's JSON value, or says why
// it does not fit (a message to show before the field is asked again).
func (f field) parse(s string) (any, error) {
	switch {
	case f.Multi:
		return f.parseMany(s)
	case len(f.Choices) > 0:
		c, err := f.pick(s)
		return c.Value, err
	}
	switch f.Type {
	case "integer":
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, errors.New("type a whole number" + numberRange(f.Min, f.Max))
		}
		return n, f.inRange(float64(n), "a whole number")
	case "number":
		n, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(n) || math.IsInf(n, 0) {
			return nil, errors.New("type a number" + numberRange(f.Min, f.Max))
		}
		return n, f.inRange(n, "a number")
	case "boolean":
		switch strings.ToLower(s) {
		case "y", "yes", "true":
			return true, nil
		case "n", "no", "false":
			return false, nil
		}
		return nil, errors.New("type yes or no")
	}
	return s, f.checkString(s)
}

func (f field) inRange(n float64, what string) error {
	if (f.Min != nil && n < *f.Min) || (f.Max != nil && n > *f.Max) {
		return errors.New("type " + what + numberRange(f.Min, f.Max))
	}
	return nil
}

// checkString applies a string's length and format.
func (f field) checkString(s string) error {
	n := utf8.RuneCountInString(s)
	if (f.MinLen != nil && n < *f.MinLen) || (f.MaxLen != nil && n > *f.MaxLen) {
		return fmt.Errorf("type%s (that was %d)", countRange(f.MinLen, f.MaxLen, "characters"), n)
	}
	switch f.Format {
	case "email":
		if a, err := mail.ParseAddress(s); err != nil || a.Address != s {
			return errors.New("type an email address, like name@example.com")
		}
	case "uri":
		if u, err := url.Parse(s); err != nil || u.Scheme == "" || (u.Host == "" && u.Opaque == "" && u.Path == "") || strings.ContainsAny(s, " \t") {
			return errors.New("type an address with its scheme, like https://example.com")
		}
	case "date":
		if _, err := time.Parse(time.DateOnly, s); err != nil {
			return errors.New("type a date as YYYY-MM-DD, like 2025-11-25")
		}
	case "date-time":
		if _, err := time.Parse(time.RFC3339, s); err != nil {
			return errors.New("type a date and time as 2025-11-25T14:30:00Z (Z, or an offset such as +02:00, at the end)")
		}
	}
	return nil
}

// pick is the choice typed: its value or title as shown, else its number.
func (f field) pick(s string) (choice, error) {
	for _, c := range f.Choices {
		if fmt.Sprint(c.Value) == s || (c.Title != "" && strings.EqualFold(c.Title, s)) {
			return c, nil
		}
	}
	if i, err := strconv.Atoi(s); err == nil && i >= 1 && i <= len(f.Choices) {
		return f.Choices[i-1], nil
	}
	return choice{}, fmt.Errorf("%q is not one of the choices: type a number from 1 to %d", s, len(f.Choices))
}

// parseMany reads a Multi field's comma-separated answer.
func (f field) parseMany(s string) (any, error) {
	out := []any{}
	for part := range strings.SplitSeq(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		var v any = part
		if len(f.Choices) > 0 {
			c, err := f.pick(part)
			if err != nil {
				return nil, fmt.Errorf("%w, or several separated by commas", err)
			}
			v = c.Value
		}
		if !slices.ContainsFunc(out, func(o any) bool { return sameValue(o, v) }) {
			out = append(out, v)
		}
	}
	if (f.MinLen != nil && len(out) < *f.MinLen) || (f.MaxLen != nil && len(out) > *f.MaxLen) {
		return nil, fmt.Errorf("choose%s (that was %d)", countRange(f.MinLen, f.MaxLen, ""), len(out))
	}
	return out, nil
}

// sameValue compares two JSON values (a number may be an int64 or a float64).
func sameValue(a, b any) bool {
	x, errX := json.Marshal(a)
	y, errY := json.Marshal(b)
	return errX == nil && errY == nil && string(x) == string(y)
}

// numberRange says a number's bounds: " from 1 to 5", " at least 1".
func numberRange(lo, hi *float64) string {
	num := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	switch {
	case lo != nil && hi != nil:
		return fmt.Sprintf(" from %s to %s", num(*lo), num(*hi))
	case lo != nil:
		return " at least " + num(*lo)
	case hi != nil:
		return " at most " + num(*hi)
	}
	return ""
}

// countRange says bounds of a count, of unit: " 3 to 20 characters".
func countRange(lo, hi *int, unit string) string {
	if unit != "" {
		unit = " " + unit
	}
	switch {
	case lo != nil && hi != nil && *lo == *hi:
		return fmt.Sprintf(" exactly %d%s", *lo, unit)
	case lo != nil && hi != nil:
		return fmt.Sprintf(" %d to %d%s", *lo, *hi, unit)
	case lo != nil:
		return fmt.Sprintf(" at least %d%s", *lo, unit)
	case hi != nil:
		return fmt.Sprintf(" at most %d%s", *hi, unit)
	}
	return ""
}

// property is a requested schema's property as the spec shapes it.
type property struct {
	Type        any           `json:"type"` // a string; ["string","null"] is taken as "string"
	Title       string        `json:"title"`
	Description string        `json:"description"`
	Format      string        `json:"format"`
	Enum        []any         `json:"enum"`
	EnumNames   []string      `json:"enumNames"` // legacy titles of enum
	OneOf       []titledValue `json:"oneOf"`
	AnyOf       []titledValue `json:"anyOf"`
	Items       *property     `json:"items"`
	Minimum     *float64      `json:"minimum"`
	Maximum     *float64      `json:"maximum"`
	MinLength   *int          `json:"minLength"`
	MaxLength   *int          `json:"maxLength"`
	MinItems    *int          `json:"minItems"`
	MaxItems    *int          `json:"maxItems"`
	Default     any           `json:"default"`
}

// titledValue is one {const, title} of a titled enum.
type titledValue struct {
	Const any    `json:"const"`
	Title string `json:"title"`
}

// typeName is the property's one JSON type.
func (p property) typeName() string {
	switch t := p.Type.(type) {
	case string:
		return t
	case []any:
		for _, e := range t {
			if s, ok := e.(string); ok && s != "null" {
				return s
			}
		}
	}
	return ""
}

// choices are the values an enum property takes, titled when the
// schema titles them.
func (p property) choices() []choice {
	for _, titled := range [][]titledValue{p.OneOf, p.AnyOf} {
		if len(titled) == 0 {
			continue
		}
		out := make([]choice, 0, len(titled))
		for _, t := range titled {
			out = append(out, choice{Value: t.Const, Title: t.Title})
		}
		return out
	}
	out := make([]choice, 0, len(p.Enum))
	for i, v := range p.Enum {
		c := choice{Value: v}
		if i < len(p.EnumNames) {
			c.Title = p.EnumNames[i]
		}
		out = append(out, c)
	}
	return out
}

// fieldOf is the form field of the property called name.
func fieldOf(name string, p property, required bool) (field, error) {
	f := field{Name: name, Type: p.typeName(), Title: p.Title, Description: p.Description, Format: p.Format,
		Min: p.Minimum, Max: p.Maximum, MinLen: p.MinLength, MaxLen: p.MaxLength, Default: p.Default, Required: required}
	switch f.Type {
	case "array":
		f.Multi, f.MinLen, f.MaxLen = true, p.MinItems, p.MaxItems
		if p.Items != nil {
			f.Choices = p.Items.choices()
		}
	case "", "string", "number", "integer", "boolean":
		f.Choices = p.choices()
		if f.Type == "" && len(f.Choices) == 0 {
			f.Type = "string"
		}
	default:
		return field{}, fmt.Errorf("its field %q is of type %q, which a form may not ask for (only strings, numbers, yes/no and choices)", name, f.Type)
	}
	return f, nil
}

// parseForm reads the requested schema's properties, required ones first,
// each group by name (JSON objects carry no order once decoded).
func parseForm(schema any) ([]field, error) {
	var s struct {
		Properties map[string]property `json:"properties"`
		Required   []string            `json:"required"`
	}
	raw, err := json.Marshal(schema)
	if err == nil {
		err = json.Unmarshal(raw, &s)
	}
	if err != nil {
		return nil, fmt.Errorf("the server's form is not a JSON schema object: %w", err)
	}
	out := make([]field, 0, len(s.Properties))
	for name, p := range s.Properties {
		f, err := fieldOf(name, p, slices.Contains(s.Required, name))
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	slices.SortFunc(out, func(a, b field) int {
		if a.Required != b.Required {
			if a.Required {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out, nil
}
