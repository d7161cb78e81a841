package chat

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"mime"
	"strings"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"
)

// ResultBudget is how many characters of one tool result the model sees by
// default; the rest is cut with a note, so one huge result cannot push the
// conversation out of the model's context window.
var ResultBudget = 24_000

// resultText renders a tool result the way the model reads it: text content
// as is, structured content as JSON when there is no text, other content
// described in one line.
func resultText(res *mcp.CallToolResult) string {
	if res == nil {
		return ""
	}
	var b strings.Builder
	for _, c := range res.Content {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		switch c := c.(type) {
		case mcp.TextContent:
			b.WriteString(c.Text)
		case mcp.ImageContent:
			fmt.Fprintf(&b, "[image %s, %d bytes base64]", c.MIMEType, len(c.Data))
		case mcp.AudioContent:
			fmt.Fprintf(&b, "[audio %s, %d bytes base64]", c.MIMEType, len(c.Data))
		case mcp.EmbeddedResource:
			switch r := c.Resource.(type) {
			case mcp.TextResourceContents:
				fmt.Fprintf(&b, "[resource %s]\n%s", r.URI, r.Text)
			case mcp.BlobResourceContents:
				if text, ok := blobText(r); ok {
					fmt.Fprintf(&b, "[resource %s]\n%s", r.URI, text)
				} else {
					fmt.Fprintf(&b, "[resource %s, %s, binary]", r.URI, r.MIMEType)
				}
			}
		case mcp.ResourceLink:
			fmt.Fprintf(&b, "[resource link %s: %s]", c.URI, c.Name)
		default:
			raw, _ := json.Marshal(c)
			b.Write(raw)
		}
	}
	if b.Len() == 0 && res.StructuredContent != nil {
		raw, err := json.Marshal(res.StructuredContent)
		if err == nil {
			b.Write(raw)
		}
	}
	return b.String()
}

// blobText is an embedded blob resource's content as text, when it is
// text a server sent base64-encoded (server-everything's text/plain blobs,
// a file server's Markdown): its MIME type is text-like (textMIME), or it
// has none and its bytes hold no NUL; and they are valid UTF-8 (a leading
// byte-order mark dropped). The text then counts against the result's
// budget, and is capped and kept like any text result.
func blobText(r mcp.BlobResourceContents) (string, bool) {
	typed := strings.TrimSpace(r.MIMEType) != ""
	if typed && !textMIME(r.MIMEType) {
		return "", false
	}
	raw, err := base64.StdEncoding.DecodeString(r.Blob)
	if err != nil {
		// Some servers leave out the padding.
		if raw, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(r.Blob, "=")); err != nil {
			return "", false
		}
	}
	if !utf8.Valid(raw) || !typed && bytes.IndexByte(raw, 0) >= 0 {
		return "", false
	}
	return strings.TrimPrefix(string(raw), "\uFEFF"), true
}

// textMIME says whether a MIME type is text a person reads: text/*, JSON,
// XML, YAML (also as a +json, +xml or +yaml suffix: application/ld+json,
// image/svg+xml), and the scripting and data types servers send files as.
func textMIME(mimeType string) bool {
	t, _, err := mime.ParseMediaType(mimeType)
	if err != nil {
		t, _, _ = strings.Cut(strings.ToLower(strings.TrimSpace(mimeType)), ";")
	}
	if strings.HasPrefix(t, "text/") {
		return true
	}
	for _, suffix := range []string{"+json", "+xml", "+yaml"} {
		if strings.HasSuffix(t, suffix) {
			return true
		}
	}
	switch strings.TrimPrefix(t, "application/") {
	case "json", "xml", "yaml", "x-yaml", "toml", "x-toml", "javascript", "x-javascript", "ecmascript", "typescript",
		"x-sh", "x-shellscript", "sql", "graphql", "x-ndjson", "jsonl", "x-jsonlines", "csv", "x-httpd-php", "x-python":
		return strings.HasPrefix(t, "application/")
	}
	return false
}

// truncate cuts s to budget characters (runes), at a line break when one is
// near, and says so to the model.
func truncate(s string, budget int) string {
	if fitsBudget(s, budget) {
		return s
	}
	total := utf8.RuneCountInString(s)
	s = truncateHead(s, budget)
	return fmt.Sprintf("%s\n[truncated: showing %d of %d characters; ask the tool for a narrower range if you need the rest]",
		s, utf8.RuneCountInString(s), total)
}

// truncateHead is the head of s that truncate and cappedText show: at most
// budget runes and at most budget's worth of tokens (text that takes more
// tokens a character is cut shorter), ending at a line break when one is
// in the last quarter.
func truncateHead(s string, budget int) string {
	if budget <= 0 || utf8.RuneCountInString(s) <= budget && textTokens(s) <= (budget+3)/charsPerToken {
		return s
	}
	tokens := (budget + 3) / charsPerToken
	cut, ascii, other := 0, 0, 0
	for i, c := range s {
		if cut == budget || (ascii+3)/4+other > tokens {
			s = s[:i]
			break
		}
		cut++
		if c < utf8.RuneSelf {
			ascii++
		} else {
			other++
		}
	}
	if nl := strings.LastIndexByte(s, '\n'); nl > len(s)*3/4 {
		s = s[:nl]
	}
	return s
}
