package library

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// Template is a server entry with {{param}} placeholders in its command,
// args, env values, cwd, url or header values, and a JSON Schema (an object
// schema) describing the parameters.
type Template struct {
	ID          string          `json:"id"`
	Title       string          `json:"title"`
	Description string          `json:"description,omitempty"`
	Tags        []string        `json:"tags,omitempty"`
	DocsURL     string          `json:"docsUrl,omitempty"`
	Server      config.Server   `json:"server"`
	Parameters  json.RawMessage `json:"parameters"`
	// FromConfig is set for a template declared in a config (TemplateOf).
	FromConfig bool `json:"-"`
}

// Param is one parameter, as a form shows it.
type Param struct {
	Name        string   `json:"name"`
	Title       string   `json:"title"`
	Description string   `json:"description"`
	Type        string   `json:"type"` // string, integer, number, boolean
	Default     string   `json:"default"`
	Enum        []string `json:"enum"`
	Required    bool     `json:"required"`
	// Secret values (schema "writeOnly": true or "format": "password") go to
	// the keyring, never into config.json.
	Secret bool `json:"secret"`
	// Format is the schema's format hint (directory, uri, password, ...).
	Format string `json:"format"`
}

// Values are the parameter values a user typed, by name.
type Values map[string]any

// Options change how Instantiate writes values.
type Options struct {
	// Secret stores a secret parameter's value and returns what to write in
	// its place (a ${secret:NAME} reference). Nil writes secrets verbatim,
	// which only tests should do.
	Secret func(param, value string) (string, error)
}

var placeholder = regexp.MustCompile(`\{\{\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*\}\}`)

//go:embed catalogue.json
var catalogueJSON []byte

// Catalogue is the built-in list of well-known servers, sorted by title.
func Catalogue() []Template {
	var ts []Template
	if err := json.Unmarshal(catalogueJSON, &ts); err != nil {
		panic("library: catalogue.json: " + err.Error()) // caught by TestCatalogue
	}
	for i := range ts {
		ts[i].Server.Name = ts[i].ID
	}
	slices.SortFunc(ts, func(a, b Template) int { return strings.Compare(a.Title, b.Title) })
	return ts
}

// Templates lists the catalogue, then the templates declared among servers
// (see TemplateOf).
func Templates(servers []config.Server) []Template {
	ts := Catalogue()
	for _, s := range servers {
		if t, ok := TemplateOf(s); ok {
			ts = append(ts, t)
		}
	}
	return ts
}

// FindIn returns the template with the given ID from Templates(servers).
func FindIn(servers []config.Server, id string) (Template, error) {
	for _, t := range Templates(servers) {
		if t.ID == id {
			return t, nil
		}
	}
	return Template{}, fmt.Errorf("%w %q; `switchboard servers templates` lists them", ErrUnknownTemplate, id)
}

// TemplateOf returns the template a config entry declares: an entry with a
// "parameters" object and at least one {{param}} in its fields. Such an
// entry is not run as it is: a user adds servers from it. An entry with a
// "parameters" key of some other meaning (no placeholders) runs as usual.
func TemplateOf(s config.Server) (Template, bool) {
	raw, ok := s.Extra[ParamsKey]
	if !ok || len(bytes.TrimSpace(raw)) == 0 || bytes.TrimSpace(raw)[0] != '{' {
		return Template{}, false
	}
	if len((Template{Server: s}).Placeholders()) == 0 {
		return Template{}, false
	}
	m, _ := MetaOf(s)
	base := s.Clone()
	delete(base.Extra, ParamsKey)
	delete(base.Extra, MetaKey)
	if len(base.Extra) == 0 {
		base.Extra = nil
	}
	return Template{ID: s.Name, Title: s.Name, Description: m.Description, Tags: m.Tags, DocsURL: m.DocsURL, Server: base, Parameters: raw, FromConfig: true}, true
}

// schema parses and resolves the parameter schema.
func (t Template) schema() (*jsonschema.Schema, *jsonschema.Resolved, error) {
	raw := t.Parameters
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = []byte(`{"type":"object"}`)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, nil, fmt.Errorf("%w %s: parameters: %v", ErrBadTemplate, t.ID, err)
	}
	if s.Type != "" && s.Type != "object" {
		return nil, nil, fmt.Errorf("%w %s: parameters must be an object schema with \"properties\", not type %q", ErrBadTemplate, t.ID, s.Type)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		return nil, nil, fmt.Errorf("%w %s: parameters: %v", ErrBadTemplate, t.ID, err)
	}
	return &s, rs, nil
}

// Params lists the parameters in the order the template's fields use them,
// then any others by name.
func (t Template) Params() ([]Param, error) {
	s, _, err := t.schema()
	if err != nil {
		return nil, err
	}
	return t.params(s)
}

// params lists the parameters of the parsed schema s.
func (t Template) params(s *jsonschema.Schema) ([]Param, error) {
	order := t.Placeholders()
	for _, n := range slices.Sorted(maps.Keys(s.Properties)) {
		if !slices.Contains(order, n) {
			order = append(order, n)
		}
	}
	var out []Param
	for _, n := range order {
		p := s.Properties[n]
		if p == nil {
			return nil, fmt.Errorf("%w %s: {{%s}} is used but not declared in \"parameters.properties\"", ErrBadTemplate, t.ID, n)
		}
		v := Param{Name: n, Title: cmpOr(p.Title, n), Description: p.Description, Type: cmpOr(p.Type, "string"),
			Required: slices.Contains(s.Required, n), Format: p.Format, Secret: p.WriteOnly || p.Format == "password"}
		if len(p.Default) > 0 {
			var d any
			if json.Unmarshal(p.Default, &d) == nil {
				v.Default = text(d)
			}
		}
		for _, e := range p.Enum {
			v.Enum = append(v.Enum, text(e))
		}
		out = append(out, v)
	}
	return out, nil
}

// Placeholders lists the parameter names the template's fields use, in
// order of first use.
func (t Template) Placeholders() []string {
	var out []string
	s := t.Server.Clone()
	eachField(&s, func(_ string, p *string) {
		for _, m := range placeholder.FindAllStringSubmatch(*p, -1) {
			if !slices.Contains(out, m[1]) {
				out = append(out, m[1])
			}
		}
	})
	return out
}

// eachField calls fn with every string field placeholders may appear in.
func eachField(s *config.Server, fn func(field string, p *string)) {
	fn("command", &s.Command)
	fn("cwd", &s.Cwd)
	fn("url", &s.URL)
	for i := range s.Args {
		fn("args["+strconv.Itoa(i)+"]", &s.Args[i])
	}
	for _, k := range slices.Sorted(maps.Keys(s.Env)) {
		v := s.Env[k]
		fn("env."+k, &v)
		s.Env[k] = v
	}
	for _, k := range slices.Sorted(maps.Keys(s.Headers)) {
		v := s.Headers[k]
		fn("headers."+k, &v)
		s.Headers[k] = v
	}
}

// Instantiate returns the server named name with every placeholder replaced.
// Values are checked against the schema first (defaults applied, then
// required, types, enums, patterns, bounds); a parameter's problem comes back
// as a *ParamError. An optional parameter left empty removes each argument,
// env variable and header that uses it ("--user-agent={{ua}}" goes whole).
func (t Template) Instantiate(name string, values Values, opts Options) (config.Server, error) {
	s, rs, err := t.schema()
	if err != nil {
		return config.Server{}, err
	}
	params, err := t.params(s)
	if err != nil {
		return config.Server{}, err
	}
	in := map[string]any{}
	for k, v := range values {
		if _, ok := s.Properties[k]; !ok {
			return config.Server{}, &ParamError{Template: t.ID, Param: k, Err: fmt.Errorf("%w; this template takes %s", ErrUnknownParam, names(params))}
		}
		if str, ok := v.(string); ok {
			v = strings.TrimSpace(str)
			if v == "" {
				continue // an empty field is no value
			}
		}
		in[k] = coerce(s.Properties[k], v)
	}
	if err := rs.ApplyDefaults(&in); err != nil {
		return config.Server{}, fmt.Errorf("%w %s: defaults: %v", ErrBadTemplate, t.ID, err)
	}
	for _, p := range params {
		if _, ok := in[p.Name]; !ok && p.Required {
			return config.Server{}, &ParamError{Template: t.ID, Param: p.Name, Err: fmt.Errorf("%w: %s is required%s", ErrMissingParam, p.Title, hint(p))}
		}
	}
	for _, p := range params {
		v, ok := in[p.Name]
		if !ok {
			continue
		}
		one := map[string]any{p.Name: v}
		sub := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{p.Name: s.Properties[p.Name]}}
		srs, err := sub.Resolve(nil)
		if err == nil {
			err = srs.Validate(one)
		}
		if err != nil {
			msg, h := schemaMessage(err), hint(p)
			if p.Secret { // the validator quotes the value
				msg = strings.ReplaceAll(msg, text(v), "(hidden)")
			}
			if strings.HasPrefix(msg, "pattern:") && p.Description != "" {
				// A regular expression tells a user less than the parameter's own words.
				msg, h = "it must be "+p.Description, ""
			}
			return config.Server{}, &ParamError{Template: t.ID, Param: p.Name, Err: fmt.Errorf("%w %s: %s%s", ErrInvalidParam, quoteValue(p, v), msg, h)}
		}
	}
	if err := rs.Validate(in); err != nil { // rules across properties
		return config.Server{}, fmt.Errorf("%w: template %s: %s", ErrInvalidParam, t.ID, schemaMessage(err))
	}

	out := t.Server.Clone()
	out.Name = name
	secret := map[string]bool{}
	for _, p := range params {
		secret[p.Name] = p.Secret
	}
	refs := map[string]string{}
	value := func(n string) (string, bool, error) {
		v, ok := in[n]
		if !ok {
			return "", false, nil
		}
		str := text(v)
		if secret[n] && opts.Secret != nil {
			if r, ok := refs[n]; ok {
				return r, true, nil
			}
			r, err := opts.Secret(n, str)
			if err != nil {
				return "", false, &ParamError{Template: t.ID, Param: n, Err: err}
			}
			refs[n] = r
			return r, true, nil
		}
		return str, true, nil
	}
	var ferr error
	drop := map[string]bool{}
	eachField(&out, func(field string, p *string) {
		if ferr != nil {
			return
		}
		*p = placeholder.ReplaceAllStringFunc(*p, func(ph string) string {
			v, ok, err := value(placeholder.FindStringSubmatch(ph)[1])
			if err != nil && ferr == nil {
				ferr = err
			}
			if !ok {
				drop[field] = true
			}
			return v
		})
	})
	if ferr != nil {
		return config.Server{}, ferr
	}
	var args []string
	for i, a := range out.Args {
		if !drop["args["+strconv.Itoa(i)+"]"] {
			args = append(args, a)
		}
	}
	out.Args = args
	for k := range out.Env {
		if drop["env."+k] {
			delete(out.Env, k)
		}
	}
	for k := range out.Headers {
		if drop["headers."+k] {
			delete(out.Headers, k)
		}
	}
	delete(out.Extra, ParamsKey)
	m, _ := MetaOf(out)
	m.Description = cmpOr(m.Description, t.Description)
	if len(m.Tags) == 0 {
		m.Tags = t.Tags
	}
	m.DocsURL = cmpOr(m.DocsURL, t.DocsURL)
	m.Template = t.ID
	if err := SetMeta(&out, m); err != nil {
		return config.Server{}, err
	}
	if err := out.Validate(); err != nil {
		return config.Server{}, fmt.Errorf("template %s: the server it makes is not valid: %w", t.ID, err)
	}
	return out, nil
}

// coerce turns form text into the schema's type ("8080" for an integer).
func coerce(s *jsonschema.Schema, v any) any {
	str, ok := v.(string)
	if !ok || s == nil {
		return v
	}
	switch s.Type {
	case "integer":
		if n, err := strconv.ParseInt(str, 10, 64); err == nil {
			return n
		}
	case "number":
		if f, err := strconv.ParseFloat(str, 64); err == nil {
			return f
		}
	case "boolean":
		if b, err := strconv.ParseBool(str); err == nil {
			return b
		}
	}
	return v
}

// text renders a value the way it is written into a field.
func text(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case nil:
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// schemaMessage drops the validator's "validating root:" prefixes.
func schemaMessage(err error) string {
	msg := err.Error()
	for {
		i := strings.Index(msg, "validating ")
		j := strings.Index(msg, ": ")
		if i != 0 || j < 0 {
			break
		}
		msg = msg[j+2:]
	}
	return msg
}

func quoteValue(p Param, v any) string {
	if p.Secret {
		return "(hidden)"
	}
	return strconv.Quote(text(v))
}

func hint(p Param) string {
	switch {
	case len(p.Enum) > 0:
		return " (one of: " + strings.Join(p.Enum, ", ") + ")"
	case p.Description != "":
		return " (" + p.Description + ")"
	}
	return ""
}

func names(ps []Param) string {
	var n []string
	for _, p := range ps {
		n = append(n, p.Name)
	}
	if len(n) == 0 {
		return "no parameters"
	}
	return strings.Join(n, ", ")
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
