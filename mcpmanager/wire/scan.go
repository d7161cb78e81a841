package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// MaxDepth bounds nesting, as encoding/json does.
const MaxDepth = 10000

// Message is the top-level members of one JSON-RPC message, each the raw
// bytes of its value within the parsed line (nil when absent). They alias
// the line: keep the line as long as them.
type Message struct {
	JSONRPC, ID, Method, Params, Result, Error []byte
}

// IsNotification reports a method and no id (or a null one).
func (m Message) IsNotification() bool { return m.Method != nil && !m.hasID() }

// IsRequest reports a method and an id.
func (m Message) IsRequest() bool { return m.Method != nil && m.hasID() }

func (m Message) hasID() bool { return m.ID != nil && string(m.ID) != "null" }

// Parse validates line as one JSON object and returns its JSON-RPC members.
// A key spelled with escapes ("\u0069d") is compared after decoding, as
// encoding/json would.
func Parse(line []byte) (Message, error) {
	var m Message
	err := Walk(line, true, func(key, value []byte) {
		switch unquote(key) {
		case "jsonrpc":
			m.JSONRPC = value
		case "id":
			m.ID = value
		case "method":
			m.Method = value
		case "params":
			m.Params = value
		case "result":
			m.Result = value
		case "error":
			m.Error = value
		}
	})
	return m, err
}

// Walk calls fn with each member of the JSON object b (key with its
// quotes, raw value), in order. With validate, the whole of b is checked
// to be valid JSON (as json.Valid does, in one pass) and ErrSyntax returned
// otherwise; without, b must already be known valid (a part of a parsed
// message) and values are skipped as fast as their bytes can be searched.
func Walk(b []byte, validate bool, fn func(key, value []byte)) error {
	s := scanner{b: b, validate: validate}
	i := s.ws(0)
	if i >= len(b) {
		return fmt.Errorf("%w: empty message", ErrSyntax)
	}
	if b[i] != '{' {
		if _, err := s.value(i, 0); err != nil {
			return err
		}
		return ErrNotObject
	}
	end, err := s.object(i, 0, fn)
	if err != nil {
		return err
	}
	if s.ws(end) != len(b) {
		return s.fail(s.ws(end), "after the top-level value")
	}
	return nil
}

type scanner struct {
	b        []byte
	validate bool
}

func (s *scanner) fail(i int, what string) error {
	if i >= len(s.b) {
		return fmt.Errorf("%w: unexpected end %s", ErrSyntax, what)
	}
	return fmt.Errorf("%w: unexpected %q at offset %d %s", ErrSyntax, s.b[i], i, what)
}

func (s *scanner) ws(i int) int {
	for i < len(s.b) {
		switch s.b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// value returns the end of the value starting at i (no leading space).
func (s *scanner) value(i, depth int) (int, error) {
	if i >= len(s.b) {
		return i, s.fail(i, "looking for a value")
	}
	switch c := s.b[i]; {
	case c == '"':
		return s.str(i)
	case c == '{':
		return s.object(i, depth, nil)
	case c == '[':
		return s.array(i, depth)
	case c == 't':
		return s.literal(i, "true")
	case c == 'f':
		return s.literal(i, "false")
	case c == 'n':
		return s.literal(i, "null")
	case c == '-' || c >= '0' && c <= '9':
		return s.number(i)
	}
	return i, s.fail(i, "looking for a value")
}

func (s *scanner) object(i, depth int, fn func(key, value []byte)) (int, error) {
	if depth++; depth > MaxDepth {
		return i, fmt.Errorf("%w: nested too deeply", ErrSyntax)
	}
	i = s.ws(i + 1)
	if i < len(s.b) && s.b[i] == '}' {
		return i + 1, nil
	}
	for {
		if i >= len(s.b) || s.b[i] != '"' {
			return i, s.fail(i, "looking for an object key")
		}
		kend, err := s.str(i)
		if err != nil {
			return i, err
		}
		key := s.b[i:kend]
		i = s.ws(kend)
		if i >= len(s.b) || s.b[i] != ':' {
			return i, s.fail(i, "after an object key")
		}
		i = s.ws(i + 1)
		vend, err := s.value(i, depth)
		if err != nil {
			return i, err
		}
		if fn != nil {
			fn(key, s.b[i:vend])
		}
		i = s.ws(vend)
		if i >= len(s.b) {
			return i, s.fail(i, "in an object")
		}
		switch s.b[i] {
		case ',':
			i = s.ws(i + 1)
		case '}':
			return i + 1, nil
		default:
			return i, s.fail(i, "in an object")
		}
	}
}

func (s *scanner) array(i, depth int) (int, error) {
	if depth++; depth > MaxDepth {
		return i, fmt.Errorf("%w: nested too deeply", ErrSyntax)
	}
	i = s.ws(i + 1)
	if i < len(s.b) && s.b[i] == ']' {
		return i + 1, nil
	}
	for {
		end, err := s.value(i, depth)
		if err != nil {
			return i, err
		}
		i = s.ws(end)
		if i >= len(s.b) {
			return i, s.fail(i, "in an array")
		}
		switch s.b[i] {
		case ',':
			i = s.ws(i + 1)
		case ']':
			return i + 1, nil
		default:
			return i, s.fail(i, "in an array")
		}
	}
}

// plain marks the bytes a string may hold without a second look.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// str returns the end of the string starting at i (after its closing quote).
func (s *scanner) str(i int) (int, error) {
	b := s.b
	j := i + 1
	if !s.validate {
		// Known valid: the string ends at the first quote not escaped.
		for {
			k := bytes.IndexByte(b[j:], '"')
			if k < 0 {
				return len(b), s.fail(len(b), "in a string")
			}
			j += k
			n := 0
			for n < j-i-1 && b[j-1-n] == '\\' {
				n++
			}
			if n%2 == 0 {
				return j + 1, nil
			}
			j++
		}
	}
	for {
		for j < len(b) && plain[b[j]] {
			j++
		}
		if j >= len(b) {
			return j, s.fail(j, "in a string")
		}
		switch c := b[j]; {
		case c == '"':
			return j + 1, nil
		case c == '\\':
			if j+1 >= len(b) {
				return j, s.fail(j+1, "in a string escape")
			}
			switch b[j+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				j += 2
			case 'u':
				if j+6 > len(b) || !hex(b[j+2]) || !hex(b[j+3]) || !hex(b[j+4]) || !hex(b[j+5]) {
					return j, s.fail(j+1, "in a \\u escape")
				}
				j += 6
			default:
				return j, s.fail(j+1, "in a string escape")
			}
		default: // a control character
			return j, s.fail(j, "in a string (control characters must be escaped)")
		}
	}
}

func hex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func (s *scanner) literal(i int, lit string) (int, error) {
	if len(s.b)-i < len(lit) || string(s.b[i:i+len(lit)]) != lit {
		return i, s.fail(i, "in a literal")
	}
	return i + len(lit), nil
}

func (s *scanner) number(i int) (int, error) {
	b := s.b
	j := i
	if b[j] == '-' {
		j++
	}
	digits := func() int {
		k := j
		for j < len(b) && b[j] >= '0' && b[j] <= '9' {
			j++
		}
		return j - k
	}
	switch {
	case j < len(b) && b[j] == '0':
		j++
	case digits() == 0:
		return j, s.fail(j, "in a number")
	}
	if j < len(b) && b[j] == '.' {
		j++
		if digits() == 0 {
			return j, s.fail(j, "in a number's fraction")
		}
	}
	if j < len(b) && (b[j] == 'e' || b[j] == 'E') {
		j++
		if j < len(b) && (b[j] == '+' || b[j] == '-') {
			j++
		}
		if digits() == 0 {
			return j, s.fail(j, "in a number's exponent")
		}
	}
	return j, nil
}

// String decodes a raw JSON string ("" when raw is not one).
func String(raw []byte) string { return unquote(raw) }

// unquote decodes a raw JSON string ("" when b is not one).
func unquote(b []byte) string {
	if len(b) < 2 || b[0] != '"' || b[len(b)-1] != '"' {
		return ""
	}
	inner := b[1 : len(b)-1]
	for _, c := range inner {
		if c == '\\' {
			return unescape(b)
		}
	}
	return string(inner)
}

func unescape(b []byte) string {
	var v string
	if json.Unmarshal(b, &v) != nil {
		return ""
	}
	return v
}
