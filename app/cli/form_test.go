package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/mark3labs/mcp-go/mcp"
)

// everyKindOfField is a requested schema with a field of each kind MCP
// 2025-11-25 allows, every one required (so asked in name order).
const everyKindOfField = `{"type":"object","properties":{
	"a_color": {"type":"string","enum":["red","green"],"enumNames":["Red","Green"]},
	"b_size":  {"type":"string","oneOf":[{"const":"s","title":"Small"},{"const":"l","title":"Large"}]},
	"c_tags":  {"type":"array","items":{"type":"string","enum":["a","b","c"]},"minItems":1,"maxItems":2},
	"d_team":  {"type":"array","items":{"anyOf":[{"const":"eng","title":"Engineering"},{"const":"ops","title":"Operations"}]}},
	"e_count": {"type":"integer","minimum":1,"maximum":5},
	"f_ratio": {"type":"number","minimum":0,"maximum":1},
	"g_name":  {"type":"string","minLength":2,"maxLength":5},
	"h_email": {"type":"string","format":"email"},
	"i_site":  {"type":"string","format":"uri"},
	"j_day":   {"type":"string","format":"date"},
	"k_at":    {"type":"string","format":"date-time"},
	"l_ok":    {"type":"boolean"}
},"required":["a_color","b_size","c_tags","d_team","e_count","f_ratio","g_name","h_email","i_site","j_day","k_at","l_ok"]}`

// TestFormAnswersFitTheRequestedSchema: each kind of field shows what it
// takes (choices numbered, with their titles), an answer that breaks the
// field's schema is said why and asked again, and the form sent holds
// values of the schema's types (a multi-select as a list, a titled
// choice as its const), which the schema accepts.
func TestFormAnswersFitTheRequestedSchema(t *testing.T) {
	var schema map[string]any
	if err := json.Unmarshal([]byte(everyKindOfField), &schema); err != nil {
		t.Fatal(err)
	}
	input := strings.Join([]string{
		"y",
		"purple", "2", // a_color
		"medium", "Large", // b_size
		"a,d", "a,b,c", "1, 3", // c_tags
		"Operations,eng", // d_team
		"9", "2.5", "3",  // e_count
		"1.5", "0.25", // f_ratio
		"x", "Ada", // g_name
		"ada", "ada@example.com", // h_email
		"example.com", "https://example.com/x", // i_site
		"25/11/2025", "2025-11-25", // j_day
		"2025-11-25 14:30", "2025-11-25T14:30:00Z", // k_at
		"maybe", "yes", // l_ok
	}, "\n") + "\n"
	var out bytes.Buffer
	res, err := newTerminalRequests(strings.NewReader(input), &out, false, true).Elicit(t.Context(), "forms",
		mcp.ElicitationRequest{Params: mcp.ElicitationParams{Message: "Fill this", RequestedSchema: schema}})
	if err != nil {
		t.Fatalf("%v (saw %q)", err, out.String())
	}
	want := map[string]any{
		"a_color": "green", "b_size": "l", "c_tags": []any{"a", "c"}, "d_team": []any{"ops", "eng"},
		"e_count": int64(3), "f_ratio": 0.25, "g_name": "Ada", "h_email": "ada@example.com",
		"i_site": "https://example.com/x", "j_day": "2025-11-25", "k_at": "2025-11-25T14:30:00Z", "l_ok": true,
	}
	if res.Action != mcp.ElicitationResponseActionAccept || !reflect.DeepEqual(res.Content, want) {
		t.Fatalf("answered %s %#v\nwant %#v\nsaw %s", res.Action, res.Content, want, out.String())
	}
	validate(t, everyKindOfField, res.Content)
	saw := out.String()
	for _, s := range []string{
		"  a_color (choose one):\n    1) Red\n    2) Green\n  number: ",
		`"purple" is not one of the choices: type a number from 1 to 2`,
		"    1) Small\n    2) Large\n",
		"  c_tags (choose 1 to 2):\n    1) a\n    2) b\n    3) c\n  numbers, separated by commas: ",
		`"d" is not one of the choices: type a number from 1 to 3, or several separated by commas`,
		"choose 1 to 2 (that was 3)",
		"  d_team (choose any):\n    1) Engineering\n    2) Operations\n",
		"  e_count (whole number from 1 to 5): ",
		"type a whole number from 1 to 5\n  e_count", // 9 and 2.5 alike
		"type a number from 0 to 1",
		"  g_name (string 2 to 5 characters): ",
		"type 2 to 5 characters (that was 1)",
		"type an email address, like name@example.com",
		"type an address with its scheme, like https://example.com",
		"type a date as YYYY-MM-DD",
		"type a date and time as 2025-11-25T14:30:00Z",
		"type yes or no",
	} {
		if !strings.Contains(saw, s) {
			t.Errorf("the user did not see %q in:\n%s", s, saw)
		}
	}
}

// validate fails t unless content is valid against the JSON schema raw
// (as a server checks an accepted form).
func validate(t *testing.T, raw string, content any) {
	t.Helper()
	var s jsonschema.Schema
	if err := json.Unmarshal([]byte(raw), &s); err != nil {
		t.Fatal(err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(content) // as sent
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	if err := rs.Validate(v); err != nil {
		t.Fatalf("the server would refuse the form %s: %v", b, err)
	}
}

// TestFormDefaultsAndOptionalChoices: an empty answer keeps a field's
// default (filled in by the manager), which is shown by its title; an
// optional multi-select left empty is left out; a form with a field no
// terminal form may hold (an object) is declined, not failed.
func TestFormDefaultsAndOptionalChoices(t *testing.T) {
	schema := map[string]any{"type": "object", "properties": map[string]any{
		"size": map[string]any{"type": "string", "oneOf": []any{map[string]any{"const": "s", "title": "Small"}, map[string]any{"const": "l", "title": "Large"}}, "default": "l"},
		"tags": map[string]any{"type": "array", "items": map[string]any{"type": "string", "enum": []any{"a", "b"}}, "default": []any{"a", "b"}},
		"more": map[string]any{"type": "array", "items": map[string]any{"type": "string", "enum": []any{"x"}}},
		"ok":   map[string]any{"type": "boolean", "default": true},
	}}
	var out bytes.Buffer
	res, err := newTerminalRequests(strings.NewReader("y\n\n\n\n\n"), &out, false, true).Elicit(t.Context(), "forms",
		mcp.ElicitationRequest{Params: mcp.ElicitationParams{Message: "Fill this", RequestedSchema: schema}})
	if err != nil || res.Action != mcp.ElicitationResponseActionAccept || !reflect.DeepEqual(res.Content, map[string]any{}) {
		t.Fatalf("%+v %v, saw %q", res, err, out.String())
	}
	for _, s := range []string{"size (choose one, default Large)", "tags (choose any, default a, b)", "more (choose any, optional)", "ok (yes/no, default yes)"} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("the user did not see %q in:\n%s", s, out.String())
		}
	}

	out.Reset()
	nested := map[string]any{"type": "object", "properties": map[string]any{"address": map[string]any{"type": "object"}}}
	res, err = newTerminalRequests(strings.NewReader("y\n"), &out, false, true).Elicit(t.Context(), "forms",
		mcp.ElicitationRequest{Params: mcp.ElicitationParams{Message: "Where?", RequestedSchema: nested}})
	if err != nil || res.Action != mcp.ElicitationResponseActionDecline || !strings.Contains(out.String(), `its field "address" is of type "object"`) {
		t.Fatalf("%+v %v, saw %q", res, err, out.String())
	}
}

// TestNullDeviceIsNoTerminal: a command run with stdin from /dev/null (a
// character device, not a terminal) declines a server's form with
// {"action":"decline"}, as any other stdin that is not a terminal, instead
// of asking and failing the server's request when the read meets its end.
func TestNullDeviceIsNoTerminal(t *testing.T) {
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { null.Close() })
	if isTTY(null) {
		t.Fatalf("%s taken for a terminal", os.DevNull)
	}
	var out bytes.Buffer
	res, err := newTerminalRequests(null, &out, false, isTTY(null)).Elicit(t.Context(), "forms",
		mcp.ElicitationRequest{Params: mcp.ElicitationParams{Message: "Who are you?", RequestedSchema: map[string]any{"type": "object"}}})
	if err != nil || res.Action != mcp.ElicitationResponseActionDecline {
		t.Fatalf("%+v %v, saw %q", res, err, out.String())
	}
}

// TestStdinClosedMidFormDeclines: a stdin that ends before the form is
// answered declines the form (the server hears no), instead of answering
// the server's request with an internal error.
func TestStdinClosedMidFormDeclines(t *testing.T) {
	schema := map[string]any{"type": "object", "required": []any{"name"}, "properties": map[string]any{"name": map[string]any{"type": "string"}}}
	for _, input := range []string{"", "y\n"} {
		var out bytes.Buffer
		res, err := newTerminalRequests(strings.NewReader(input), &out, false, true).Elicit(t.Context(), "forms",
			mcp.ElicitationRequest{Params: mcp.ElicitationParams{Message: "Who are you?", RequestedSchema: schema}})
		if err != nil || res.Action != mcp.ElicitationResponseActionDecline || !strings.Contains(out.String(), "declined: stdin is not a terminal") {
			t.Errorf("input %q: %+v %v, saw %q", input, res, err, out.String())
		}
	}
}
