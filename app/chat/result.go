package chat

import (
	"encoding/json"
	"fmt"
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
				fmt.Fprintf(&b, "[resource %s, %s, binary]", r.URI, r.MIMEType)
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
