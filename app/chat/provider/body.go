package provider

import "unicode/utf8"

// part is a message or a tool as a request sends it.
type part interface {
	// size is about the bytes the part's JSON takes.
	size() int
}

// writeBody writes a request's body: "stream":true, the members of the
// SDK's encoding of the request's settings (an object), then "messages"
// and "tools" (appendParts). "stream" comes first because the SDK sets it
// again as it sends (sjson), which finds a member at the start at once but
// scans the whole body to learn that one is missing.
func writeBody[M, T part](settings []byte, msgs []M, tools []T,
	message func(m M, b []byte) ([]byte, error), tool func(t T, b []byte, i int) []byte) ([]byte, error) {
	b := make([]byte, 0, len(settings)+partsSize(msgs, tools)+16)
	b = append(b, `{"stream":true`...)
	if len(settings) > 2 {
		b = append(b, ',')
		b = append(b, settings[1:len(settings)-1]...)
	}
	b, err := appendParts(b, msgs, tools, message, tool)
	if err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// partsSize is about the bytes appendParts adds.
func partsSize[M, T part](msgs []M, tools []T) int {
	size := 32
	for _, m := range msgs {
		size += m.size()
	}
	for _, t := range tools {
		size += t.size()
	}
	return size
}

// appendParts appends "messages" and "tools" as members of the object b
// holds open, each item written by its function (an empty list is left
// out).
func appendParts[M, T part](b []byte, msgs []M, tools []T,
	message func(m M, b []byte) ([]byte, error), tool func(t T, b []byte, i int) []byte) ([]byte, error) {
	member := func(name string) {
		if b[len(b)-1] != '{' {
			b = append(b, ',')
		}
		b = append(b, name...)
	}
	if len(msgs) > 0 {
		member(`"messages":[`)
		for i, m := range msgs {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = message(m, b); err != nil {
				return nil, err
			}
		}
		b = append(b, ']')
	}
	if len(tools) > 0 {
		member(`"tools":[`)
		for i, t := range tools {
			if i > 0 {
				b = append(b, ',')
			}
			b = tool(t, b, i)
		}
		b = append(b, ']')
	}
	return b, nil
}

// appendJSONString appends s as a JSON string, escaped as encoding/json
// escapes it with SetEscapeHTML(false), which is how openai-go writes
// request bodies: \" \\ \b \f \n \r \t, other control characters as
// \u00XX, invalid UTF-8 as \ufffd, and U+2028 and U+2029 escaped
// (TestAppendJSONString). anthropic-sdk-go escapes <, > and & as well: the
// same JSON value.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
