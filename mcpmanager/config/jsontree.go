package config

import (
	"bytes"
	"context"
)

// JSONValue is one value of a JSONC file and where it sits in it, for
// code that edits a file in place (the clients package splices bytes
// rather than re-serialising, so comments and formatting stay). Off and
// End are byte offsets into the data given to ParseJSONC (a UTF-8 BOM
// included), End one past the value's last byte.
type JSONValue struct {
	Kind     string // "object", "array", "string", "number", "bool" or "null"
	Off, End int
	Text     string // a string's decoded value, a number's or boolean's text
	Members  []JSONMember
	Elems    []*JSONValue
}

// JSONMember is one key of an object: KeyOff is its opening quote.
type JSONMember struct {
	Key    string
	KeyOff int
	Value  *JSONValue
}

// Get returns the last member named key (JSON.parse's rule), or nil.
func (v *JSONValue) Get(key string) *JSONValue {
	if v == nil {
		return nil
	}
	for i := len(v.Members) - 1; i >= 0; i-- {
		if v.Members[i].Key == key {
			return v.Members[i].Value
		}
	}
	return nil
}

// Member returns the index of the last member named key, or -1.
func (v *JSONValue) Member(key string) int {
	if v == nil {
		return -1
	}
	for i := len(v.Members) - 1; i >= 0; i-- {
		if v.Members[i].Key == key {
			return i
		}
	}
	return -1
}

// ParseJSONC reads JSON with comments and trailing commas into a tree of
// positions; nil with no error for a file of only whitespace and
// comments. A syntax error is a *ValidationError (ErrSyntax) naming name,
// line and column.
func ParseJSONC(name string, data []byte) (*JSONValue, error) {
	shift := 0
	if bytes.HasPrefix(data, utf8BOM) {
		shift = len(utf8BOM)
	}
	d, serr := parseDocContext(context.Background(), data[shift:])
	if serr != nil {
		return nil, syntaxFailure(name, data[shift:], serr)
	}
	if d.root == nil {
		return nil, nil
	}
	return exportNode(d.root, shift), nil
}

func exportNode(n *node, shift int) *JSONValue {
	v := &JSONValue{Kind: [...]string{"null", "bool", "number", "string", "array", "object"}[n.kind],
		Off: n.off + shift, End: n.end + shift, Text: n.text}
	for _, m := range n.members {
		v.Members = append(v.Members, JSONMember{Key: m.key, KeyOff: m.off + shift, Value: exportNode(m.val, shift)})
	}
	for _, e := range n.elems {
		v.Elems = append(v.Elems, exportNode(e, shift))
	}
	return v
}
