package config

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"
)

// renderParse prints everything Parse returned, for golden files.
func renderParse(f *File, err error) string {
	var b strings.Builder
	kind := "none"
	var ve *ValidationError
	if errors.As(err, &ve) {
		kind = ve.Kind.Error()
	} else if err != nil {
		kind = "unexpected " + fmt.Sprintf("%T", err)
	}
	fmt.Fprintf(&b, "error kind: %s\n", kind)
	if err != nil {
		fmt.Fprintf(&b, "error:\n%s\n", indent(err.Error(), "  "))
	}
	if f == nil {
		b.WriteString("file: nil\n")
		return b.String()
	}
	fmt.Fprintf(&b, "format: %s\n", f.Format)
	fmt.Fprintf(&b, "entries:\n")
	for _, e := range f.Entries {
		renderEntry(&b, e, "  ")
	}
	if len(f.Inputs) > 0 {
		in, _ := json.Marshal(f.Inputs)
		fmt.Fprintf(&b, "inputs: %s\n", in)
	}
	if ids := f.InputIDs(); len(ids) > 0 {
		fmt.Fprintf(&b, "input ids: %q\n", ids)
	}
	for _, p := range f.Projects {
		fmt.Fprintf(&b, "project %s:\n", p.Path)
		for _, e := range p.Entries {
			renderEntry(&b, e, "  ")
		}
		for _, pr := range p.Problems {
			fmt.Fprintf(&b, "  problem: %s\n", pr)
		}
	}
	return b.String()
}

func renderEntry(b *strings.Builder, e Entry, pre string) {
	state := "valid"
	if !e.Valid() {
		state = "INVALID"
	}
	fmt.Fprintf(b, "%s%q %s at %s %d:%d\n", pre, e.Name, state, e.Path, e.Line, e.Col)
	js, err := json.Marshal(e.Server)
	if err != nil {
		js = []byte("marshal error: " + err.Error())
	}
	fmt.Fprintf(b, "%s  %s\n", pre, js)
	for _, p := range e.Problems {
		fmt.Fprintf(b, "%s  - %s\n", pre, p)
	}
}

func TestParseGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "parse", "*.json*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	for _, path := range files {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f, err := ParseContext(context.Background(), name, data)
			golden(t, filepath.Join("parse", strings.TrimSuffix(name, filepath.Ext(name))+".golden"), renderParse(f, err))
		})
	}
}

// appKeys is where the apps Switchboard reads keep their servers, as
// the messages of a file without servers list them (from ClientApps).
const appKeys = `"mcpServers" (Claude Desktop, Claude Code, Cursor, Windsurf, Gemini CLI, Continue, LM Studio, Cline, Roo Code, Kiro), ` +
	`"projects.*.mcpServers" (Claude Code), "servers" or "mcp.servers" (VS Code, VS Code Insiders, VSCodium), "context_servers" (Zed), ` +
	`"mcp_servers" (Codex), "extensions" (Goose), "mcp" (opencode)`

// TestParseCorpus pins the outcome per server and the exact problems of the
// corpus; the golden files above hold the full detail.
func TestParseCorpus(t *testing.T) {
	tests := []struct {
		file     string
		format   Format
		kind     error // sentinel the error unwraps to; nil for no error
		valid    []string
		invalid  []string
		problems []string // every problem, as printed, in file order
	}{
		{
			file:   "claude_desktop.json",
			format: FormatMCPServers,
			valid:  []string{"filesystem", "github", "fetch", "github-docker", "sqlite"},
		},
		{
			file:   "cursor.json",
			format: FormatMCPServers,
			valid:  []string{"linear", "context7", "local-dev", "browser"},
			problems: []string{
				`cursor.json:11:22: warning: mcpServers.context7.headers.X-Retries: number 3 was converted to the string "3"; put it in quotes to silence this warning`,
			},
		},
		{
			file:   "vscode_mcp.json",
			format: FormatVSCode,
			valid:  []string{"Perplexity", "github", "fetch", "playwright"},
			problems: []string{
				`vscode_mcp.json:35:5: warning: servers.fetch: uses ${input:fetch-key}, which is not declared in "inputs"; declare it, or supply its value when importing`,
			},
		},
		{
			file:   "vscode_settings.json",
			format: FormatVSCodeSettings,
			kind:   ErrInvalid,
			valid:  []string{"brave-search", "memory"},
			problems: []string{
				`vscode_settings.json:8:13: mcp.inputs[1]: needs an "id"; servers refer to it as ${input:ID}`,
			},
		},
		{
			file:   "legacy_array.json",
			format: FormatLegacy,
			valid:  []string{"filesystem", "remote", "local-ws"},
		},
		{
			file:    "legacy_duplicates.json",
			format:  FormatLegacy,
			kind:    ErrInvalid,
			valid:   []string{"memory", "time"},
			invalid: []string{"memory", "", "", "", ""},
			problems: []string{
				`legacy_duplicates.json:5:14: servers[2].name: duplicate server name "memory" (first at servers[0]); rename or remove one of them`,
				`legacy_duplicates.json:6:5: servers[3]: needs a "name"; give each server a unique name`,
				`legacy_duplicates.json:7:14: servers[4].name: must not be empty; give each server a unique name`,
				`legacy_duplicates.json:8:14: servers[5].name: must be a string, got a number`,
				`legacy_duplicates.json:9:5: servers[6]: must be an object with "command" (stdio) or "url" (http/sse), got a string`,
			},
		},
		{
			file:    "langchain.json",
			format:  FormatMCPServers,
			kind:    ErrInvalid,
			valid:   []string{"math", "weather", "weather2", "weather3", "events"},
			invalid: []string{"bad-transport", "mismatch", "bad-options"},
			problems: []string{
				`langchain.json:17:37: warning: mcpServers.weather.restart.backoff: unknown restart option is ignored; the options are "enabled", "maxAttempts" and "delayMs"`,
				`langchain.json:23:36: mcpServers.bad-transport.transport: "carrier-pigeon" is not a known transport; use "stdio", "http" or "sse"`,
				`langchain.json:24:46: mcpServers.mismatch.transport: says "http" but "type" says "sse"; keep only one of them`,
				`langchain.json:27:17: mcpServers.bad-options.stderr: "loud" is not a stderr mode; use "pipe", "inherit", "ignore" or "overlapped"`,
				`langchain.json:28:30: mcpServers.bad-options.restart.enabled: must be true or false, got a string`,
				`langchain.json:28:52: mcpServers.bad-options.restart.maxAttempts: must be a whole number of attempts, 0 or more`,
				`langchain.json:28:67: mcpServers.bad-options.restart.delayMs: must be a number, got a string`,
				`langchain.json:29:29: mcpServers.bad-options.defaultToolTimeout: must be a number of milliseconds, 0 or more`,
			},
		},
		{
			file:   "jsonc_bom.jsonc",
			format: FormatMCPServers,
			valid:  []string{"memory"},
		},
		{
			file:    "wrong_types.json",
			format:  FormatMCPServers,
			kind:    ErrInvalid,
			valid:   []string{"nulls"},
			invalid: []string{"github", "numbers", "headers", "notobject"},
			problems: []string{
				`wrong_types.json:5:15: mcpServers.github.args: must be an array of strings, got a string`,
				`wrong_types.json:8:18: mcpServers.numbers.command: must be a string, got a number`,
				`wrong_types.json:9:26: mcpServers.numbers.args[1]: must be a string, got a number; put it in quotes`,
				`wrong_types.json:9:32: mcpServers.numbers.args[2]: must be a string, got a boolean; put it in quotes`,
				`wrong_types.json:10:14: mcpServers.numbers.env: must be an object of variable names to string values, got an array`,
				`wrong_types.json:11:14: mcpServers.numbers.cwd: must be a string, got a boolean`,
				`wrong_types.json:12:19: mcpServers.numbers.disabled: must be true or false, got a string`,
				`wrong_types.json:16:28: mcpServers.headers.headers.X-Obj: must be a string, got an object`,
				`wrong_types.json:16:38: mcpServers.headers.headers[""]: header name must not be empty`,
				`wrong_types.json:18:5: mcpServers.notobject: must be an object with "command" (stdio) or "url" (http/sse), got a string`,
			},
		},
		{
			file:    "missing_command.json",
			format:  FormatMCPServers,
			kind:    ErrInvalid,
			invalid: []string{"nothing", "only-args", "stdio-no-command", "http-no-url", "empty-command", "stdio-with-url", "sse-with-command"},
			problems: []string{
				`missing_command.json:3:5: mcpServers.nothing: needs "command" (stdio) or "url" (http/sse)`,
				`missing_command.json:4:5: mcpServers.only-args: needs "command" (stdio) or "url" (http/sse)`,
				`missing_command.json:5:5: mcpServers.stdio-no-command: needs "command": a stdio server is started as a local program`,
				`missing_command.json:6:5: mcpServers.http-no-url: needs "url": an HTTP server is reached over the network`,
				`missing_command.json:7:34: mcpServers.empty-command.command: must not be empty; give the program to run, e.g. "npx"`,
				`missing_command.json:8:66: mcpServers.stdio-with-url.url: is not used by a stdio server; remove it, or set "type" to "http" or "sse"`,
				`missing_command.json:9:52: mcpServers.sse-with-command.command: is not used by an SSE server; remove it, or set "type" to "stdio"`,
			},
		},
		{
			file:    "bad_urls.json",
			format:  FormatMCPServers,
			kind:    ErrInvalid,
			valid:   []string{"loopback-v4", "loopback-v6", "localhost", "placeholder-host", "windsurf"},
			invalid: []string{"ftp", "no-scheme", "plain-remote", "plain-lan", "no-host", "bad-escape", "ws-for-http", "http-for-ws", "two-urls"},
			problems: []string{
				`bad_urls.json:3:20: mcpServers.ftp.url: scheme "ftp" is not supported for an HTTP server; use https://`,
				`bad_urls.json:4:26: mcpServers.no-scheme.url: has no scheme; write it like https://example.com/mcp`,
				`bad_urls.json:5:29: mcpServers.plain-remote.url: uses plain http to mcp.example.com; use https:// (plain http is only allowed to localhost, 127.0.0.1 and ::1)`,
				`bad_urls.json:6:41: mcpServers.plain-lan.url: uses plain http to 192.168.1.10; use https:// (plain http is only allowed to localhost, 127.0.0.1 and ::1)`,
				`bad_urls.json:10:24: mcpServers.no-host.url: has no host; write it like https://example.com/mcp`,
				`bad_urls.json:11:27: mcpServers.bad-escape.url: is not a valid URL (invalid URL escape "%zz"); write it like https://example.com/mcp`,
				`bad_urls.json:12:28: mcpServers.ws-for-http.url: scheme "wss" is not supported for an HTTP server; use https://`,
				`bad_urls.json:13:54: mcpServers.http-for-ws.url: scheme "https" is not supported for a WebSocket server; use wss://`,
				`bad_urls.json:16:63: mcpServers.two-urls.serverUrl: only one of "url", "serverUrl" and "httpUrl" may be set; remove the others`,
			},
		},
		{
			file:   "env_coercion.json",
			format: FormatMCPServers,
			valid:  []string{"db"},
			problems: []string{
				`env_coercion.json:7:19: warning: mcpServers.db.env.PGPORT: number 5432 was converted to the string "5432"; put it in quotes to silence this warning`,
				`env_coercion.json:8:18: warning: mcpServers.db.env.PGSSL: boolean false was converted to the string "false"; put it in quotes to silence this warning`,
				`env_coercion.json:9:18: warning: mcpServers.db.env.RATIO: number 0.75 was converted to the string "0.75"; put it in quotes to silence this warning`,
			},
		},
		{
			file:     "empty.json",
			kind:     ErrEmpty,
			problems: []string{`empty.json: file is empty; expected an object such as {"mcpServers": {...}}`},
		},
		{
			file:     "comments_only.jsonc",
			kind:     ErrEmpty,
			problems: []string{`comments_only.jsonc: file is empty; expected an object such as {"mcpServers": {...}}`},
		},
		{
			file: "top_level_array.json",
			kind: ErrUnknownFormat,
			problems: []string{
				`top_level_array.json:1:1: top level is an array; expected an object with the servers under one of the keys the apps Switchboard reads use: ` + appKeys,
			},
		},
		{
			file: "unknown_format.json",
			kind: ErrUnknownFormat,
			problems: []string{
				`unknown_format.json:1:1: this does not look like an MCP config: no servers under any of the keys the apps Switchboard reads keep them under, ` + appKeys + `; its top-level keys are "editor.fontSize", "mcp"`,
			},
		},
		// Files people committed or pasted that are not an MCP config as
		// it is (from public repositories and READMEs): each says what it
		// is instead and what to do.
		{
			file: "not_mcp_tools.json", // a .cursor/mcp.json of a tool list
			kind: ErrUnknownFormat,
			problems: []string{
				`not_mcp_tools.json:1:1: this does not look like an MCP config: no servers under any of the keys the apps Switchboard reads keep them under, ` + appKeys + `; its top-level keys are "tools"`,
			},
		},
		{
			file: "symlink_stub.json", // a symbolic link git checked out as a file
			kind: ErrSyntax,
			problems: []string{
				`symlink_stub.json:1:1: the file holds only the path "/Users/someone/Library/Application Support/Claude/claude_desktop_config.json", not JSON: it is likely a symbolic link that git checked out as a plain file (or a note of where the config is); import the file that path names`,
			},
		},
		{
			file: "markdown_prose.json", // a README's text and block
			kind: ErrSyntax,
			problems: []string{
				"markdown_prose.json:1:1: this looks like Markdown (a ``` line at line 3): paste or import only what is between the ``` lines",
			},
		},
		{
			file:   "markdown_fenced.json", // a README's block with its fence
			format: FormatMCPServers,
			valid:  []string{"memory"},
			problems: []string{
				"markdown_fenced.json:1:1: warning: the text is a Markdown code block: only what is between its ``` lines was read",
			},
		},
		{
			file:     "syntax_error.json",
			kind:     ErrSyntax,
			problems: []string{`syntax_error.json:5:1: there is more text after the end of the JSON, starting with '}': remove it, or look for a } or ] that closes too early`},
		},
		{
			file:     "syntax_missing_comma.json",
			kind:     ErrSyntax,
			problems: []string{`syntax_missing_comma.json:5:7: a comma (,) is missing before "args": put one after the value before it`},
		},
		{
			file:     "truncated.json",
			kind:     ErrSyntax,
			problems: []string{`truncated.json:4:1: unexpected end of file; a closing } or ] or a value is missing`},
		},
		{
			file:     "unterminated_comment.jsonc",
			kind:     ErrSyntax,
			problems: []string{`unterminated_comment.jsonc:2:3: comment is never closed; add */ to end it`},
		},
		{
			file:   "windsurf.json",
			format: FormatMCPServers,
			valid:  []string{"figma", "gemini-style", "git"},
			problems: []string{
				`windsurf.json:4:75: warning: mcpServers.gemini-style.timeout: is read as the tool timeout in milliseconds, Gemini CLI's unit, as this looks like Gemini CLI's settings (its server "gemini-style" has "httpUrl"): 30s; saved as "defaultToolTimeout"`,
			},
		},
		{
			file:   "claude_code.json",
			format: FormatClaudeCode,
			valid:  []string{"sentry", "airtable"},
		},
		{
			file:   "server_map.json",
			format: FormatServerMap,
			valid:  []string{"memory", "time"},
		},
		{
			file:    "duplicate_names.json",
			format:  FormatMCPServers,
			kind:    ErrInvalid,
			valid:   []string{"Memory", "memory"}, // the last "memory", as JSON.parse reads it
			invalid: []string{"memory", "", "my.server"},
			problems: []string{
				`duplicate_names.json:3:5: mcpServers.memory: duplicate server name: the one at line 5 is used, as the app reading this file uses the last; remove this one`,
				`duplicate_names.json:5:58: warning: mcpServers.memory.command: duplicate key (first at line 5); the last one is used, remove the other`,
				`duplicate_names.json:6:5: mcpServers[""]: server name must not be empty; give the server a name`,
				`duplicate_names.json:7:50: mcpServers["my.server"].env.A: must be a string, got null`,
			},
		},
		{
			file:   "mcpservers_not_object.json",
			format: FormatMCPServers,
			kind:   ErrInvalid,
			problems: []string{
				`mcpservers_not_object.json:1:16: mcpServers: must be an object mapping server names to their definitions, like {"github": {"command": "npx", "args": [...]}}; got an array`,
			},
		},
		{
			file:   "empty_servers.json",
			format: FormatMCPServers,
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "parse", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			f, err := ParseContext(context.Background(), tt.file, data)
			if tt.kind == nil && err != nil {
				t.Fatalf("unexpected error:\n%v", err)
			}
			if tt.kind != nil && !errors.Is(err, tt.kind) {
				t.Fatalf("error = %v, want one wrapping %v", err, tt.kind)
			}
			var got []string
			if err != nil {
				var ve *ValidationError
				if !errors.As(err, &ve) {
					t.Fatalf("error is %T, want *ValidationError", err)
				}
				got = strings.Split(err.Error(), "\n")
			} else {
				for _, p := range f.Problems {
					got = append(got, tt.file+":"+p.String())
				}
			}
			if strings.Join(got, "\n") != strings.Join(tt.problems, "\n") {
				t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.problems, "\n"))
			}
			switch tt.kind {
			case ErrEmpty, ErrSyntax, ErrUnknownFormat:
				if f != nil {
					t.Fatalf("file = %+v, want nil", f)
				}
				return
			}
			if f == nil {
				t.Fatal("file is nil")
			}
			if f.Format != tt.format {
				t.Errorf("format = %q, want %q", f.Format, tt.format)
			}
			var valid, invalid, servers []string
			for _, e := range f.Entries {
				if e.Valid() {
					valid = append(valid, e.Name)
				} else {
					invalid = append(invalid, e.Name)
				}
			}
			for _, s := range f.Servers {
				servers = append(servers, s.Name)
			}
			if fmt.Sprint(valid) != fmt.Sprint(tt.valid) || fmt.Sprint(servers) != fmt.Sprint(tt.valid) {
				t.Errorf("valid = %q, Servers = %q, want %q", valid, servers, tt.valid)
			}
			if fmt.Sprint(invalid) != fmt.Sprint(tt.invalid) {
				t.Errorf("invalid = %q, want %q", invalid, tt.invalid)
			}
		})
	}
}

// Gemini CLI's "mcp.excluded" and "mcp.allowed" keep servers from
// starting there: they come switched off, each saying why.
func TestGeminiExcludedAndAllowed(t *testing.T) {
	for _, c := range []struct {
		doc string
		off []string
	}{
		{`{"mcp": {"excluded": ["b"]}, "mcpServers": {"a": {"command": "a"}, "b": {"command": "b"}}}`, []string{"b"}},
		{`{"mcp": {"allowed": ["a"]}, "mcpServers": {"a": {"command": "a"}, "b": {"command": "b"}, "c": {"command": "c"}}}`, []string{"b", "c"}},
		{`{"mcpServers": {"a": {"command": "a"}}}`, nil},
	} {
		f, err := ParseContext(t.Context(), "settings.json", []byte(c.doc))
		if err != nil {
			t.Fatal(err)
		}
		var off []string
		for _, e := range f.Entries {
			if e.Server.Disabled {
				off = append(off, e.Name)
				if len(e.Problems) != 1 || !strings.Contains(e.Problems[0].Message, "Gemini CLI does not start it") {
					t.Errorf("%s: problems %v", e.Name, e.Problems)
				}
			}
		}
		if !slices.Equal(off, c.off) {
			t.Errorf("%s: switched off %v, want %v", c.doc, off, c.off)
		}
	}
}

// A file saved as UTF-16 (Windows PowerShell 5's redirect) is read as the
// text it holds.
func TestUTF16File(t *testing.T) {
	text := `{"mcpServers": {"é": {"command": "x"}}}`
	units := utf16.Encode([]rune(text))
	for _, order := range []binary.AppendByteOrder{binary.LittleEndian, binary.BigEndian} {
		data := []byte{0xFF, 0xFE}
		if order == binary.BigEndian {
			data = []byte{0xFE, 0xFF}
		}
		for _, u := range units {
			data = order.AppendUint16(data, u)
		}
		f, err := ParseContext(t.Context(), "mcp.json", data)
		if err != nil || len(f.Servers) != 1 || f.Servers[0].Name != "é" {
			t.Errorf("%v: %+v %v", order, f, err)
		}
	}
}

// VS Code's settings.json may spell "mcp": {"servers": …} as the flat
// key "mcp.servers", as it spells every other setting.
func TestVSCodeSettingsFlatKeys(t *testing.T) {
	f, err := ParseContext(t.Context(), "settings.json", []byte(`{
  "editor.fontSize": 14,
  "mcp.inputs": [{"type": "promptString", "id": "tok", "password": true}],
  "mcp.servers": {"github": {"command": "npx", "env": {"TOKEN": "${input:tok}"}}}
}`))
	if err != nil {
		t.Fatal(err)
	}
	if f.Format != FormatVSCodeSettings || len(f.Servers) != 1 || f.Servers[0].Name != "github" || len(f.Inputs) != 1 || !f.Inputs[0].Password {
		t.Fatalf("format %s, servers %+v, inputs %+v", f.Format, f.Servers, f.Inputs)
	}
	if f.Entries[0].Path != "mcp.servers.github" {
		t.Errorf("path = %q", f.Entries[0].Path)
	}
}
