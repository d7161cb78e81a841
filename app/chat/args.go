package chat

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// The model is offered each tool's schema translated for its provider
// (provider.ToolSchemaJSON), which may say less than the server's own: a
// merged top-level anyOf, a keyword moved into a description. So a call's
// arguments are checked against the tool's own input schema before the
// server (or the user, for approval) sees them: arguments that do not
// match go back to the model as a tool error naming the field, for it to
// call again.

// Limits on the schemas checked: compiling a hostile one (thousands of
// levels deep) takes the validator seconds, and such a schema is the
// server's to judge.
const (
	maxArgsSchema = 512 << 10
	maxArgsDepth  = 64
)

// argSchemas caches compiled input schemas by their JSON text; a schema
// that does not compile (a remote $ref, an unknown draft) is cached as nil
// and not checked.
var argSchemas sync.Map // string → *jsonschema.Resolved (nil: not checked)

func argSchema(raw json.RawMessage) *jsonschema.Resolved {
	if v, ok := argSchemas.Load(string(raw)); ok {
		return v.(*jsonschema.Resolved)
	}
	var rs *jsonschema.Resolved
	if len(raw) <= maxArgsSchema && depth(raw) <= maxArgsDepth {
		var s jsonschema.Schema
		if json.Unmarshal(raw, &s) == nil {
			if r, err := s.Resolve(nil); err == nil {
				rs = r
			}
		}
	}
	argSchemas.Store(string(raw), rs)
	return rs
}

// depth is how deep raw's objects and arrays nest.
func depth(raw []byte) int {
	d, deepest, inString := 0, 0, false
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			d++
			deepest = max(deepest, d)
		case c == '}' || c == ']':
			d--
		}
	}
	return deepest
}

// argsProblem is what is wrong with args for tool t, as a tool error for
// the model; "" when they match its input schema, or it has none that
// compiles (the server then judges them).
func argsProblem(t router.Tool, named string, args map[string]any) string {
	raw, err := t.Schema()
	if err != nil || len(bytes.TrimSpace(raw)) == 0 {
		return ""
	}
	rs := argSchema(raw)
	if rs == nil {
		return ""
	}
	var v any = args
	if args == nil {
		v = map[string]any{}
	}
	err = rs.Validate(v)
	if err == nil {
		return ""
	}
	field, why := splitValidation(err.Error())
	where := "The arguments of " + named + " do"
	if field != "" {
		where = fmt.Sprintf("The argument %q of %s does", field, named)
	}
	return fmt.Sprintf("%s not match the tool's input schema: %s. The tool was not called; call it again with arguments that match.", where, why)
}

// splitValidation parses the validator's "validating root: validating
// /properties/a/items/0: type: ..." into the field it names ("a[0]") and
// the reason.
func splitValidation(msg string) (field, why string) {
	path := ""
	for strings.HasPrefix(msg, "validating ") {
		rest := msg[len("validating "):]
		i := strings.Index(rest, ": ")
		if i < 0 {
			break
		}
		if p := rest[:i]; p != "root" {
			path = p
		}
		msg = rest[i+2:]
	}
	var b strings.Builder
	parts := strings.Split(strings.TrimPrefix(path, "/"), "/")
	for i := 0; i < len(parts); i++ {
		switch p := parts[i]; {
		case p == "":
		case p == "properties" && i+1 < len(parts):
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(parts[i+1])
			i++
		case (p == "items" || p == "prefixItems") && i+1 < len(parts) && isIndex(parts[i+1]):
			b.WriteString("[" + parts[i+1] + "]")
			i++
		case p == "items" || p == "prefixItems":
			b.WriteString("[]")
		case isIndex(p):
			b.WriteString("[" + p + "]")
		}
	}
	return b.String(), strings.TrimSpace(msg)
}

func isIndex(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
