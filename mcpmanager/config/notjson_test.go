package config

import (
	"errors"
	"strings"
	"testing"
)

// A README's block pasted with its fence is read from inside the fence
// (any fence: ``` or ~~~, a language tag or none, CRLF), its positions
// unchanged; Markdown that is more than one block is refused, saying to
// paste only the block; text that is not JSON says what it is instead.
func TestNotJSONSaysWhatItIs(t *testing.T) {
	const servers = `{"mcpServers": {"memory": {"command": "npx"}}}`
	for _, c := range []struct {
		name, text string
		kind       error  // nil: parsed
		want       string // in the problem's message
		line       int    // of the problem
	}{
		{"json fence", "```json\n" + servers + "\n```\n", nil, "only what is between its ``` lines was read", 1},
		{"no language", "\n\n```\n" + servers + "\n```", nil, "Markdown code block", 3},
		{"tilde fence", "~~~jsonc\n" + servers + "\n~~~\n", nil, "Markdown code block", 1},
		{"CRLF and indented", "  ```json\r\n" + servers + "\r\n  ```\r\n", nil, "Markdown code block", 1},
		{"text around the block", "Add this:\n```json\n" + servers + "\n```\n", ErrSyntax, "this looks like Markdown (a ``` line at line 2): paste or import only what is between the ``` lines", 1},
		{"an opening fence only", "```json\n" + servers + "\n", ErrSyntax, "a ``` line at line 1", 1},
		{"not JSON in the fence", "```yaml\nmcpServers:\n  x: {}\n```\n", ErrSyntax, "the text is a Markdown code block, and what is between its ``` lines is not JSON: mcpServers is not a JSON value", 2},
		{"a symbolic link", "../shared/mcp.json\n", ErrSyntax, `the file holds only the path "../shared/mcp.json", not JSON`, 1},
		{"a Windows path", `C:\Users\me\AppData\Roaming\Claude\claude_desktop_config.json`, ErrSyntax, "symbolic link", 1},
		{"a web page", "<!DOCTYPE html>\n<html>", ErrSyntax, "the file is HTML or XML, not JSON", 1},
		{"YAML", "servers:\n  - name: x\n", ErrSyntax, "looks like YAML or TOML, not JSON", 1},
		{"TOML", "[mcp]\nx = 1\n", ErrSyntax, "looks like YAML or TOML, not JSON", 1},
		{"plain text", "hello", ErrSyntax, `the file is not JSON; expected a JSON object such as {"mcpServers"`, 1},
		{"a mistake inside JSON", "{\"mcpServers\": {\"a\": }}", ErrSyntax, `a value is missing after "a":`, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := ParseContext(t.Context(), "pasted", []byte(c.text))
			var probs []Problem
			switch {
			case c.kind == nil && err != nil:
				t.Fatalf("error %v", err)
			case c.kind == nil:
				if len(f.Servers) != 1 || len(f.Entries[0].Problems) != 1 || f.Entries[0].Line != c.line+1 {
					t.Fatalf("servers %v, entries %+v", f.Servers, f.Entries)
				}
				probs = f.Entries[0].Problems
			default:
				var ve *ValidationError
				if !errors.Is(err, c.kind) || !errors.As(err, &ve) {
					t.Fatalf("error %v, want %v", err, c.kind)
				}
				probs = ve.Problems
			}
			if len(probs) != 1 || !strings.Contains(probs[0].Message, c.want) || probs[0].Line != c.line {
				t.Errorf("problems %v, want %q at line %d", probs, c.want, c.line)
			}
		})
	}
}
