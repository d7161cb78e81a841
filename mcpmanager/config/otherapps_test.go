package config

import (
	"maps"
	"slices"
	"strings"
	"testing"
	"time"
)

// Another app's "timeout" becomes the tool timeout: Cline's and Roo Code's
// seconds up to 3600, Gemini CLI's and Amazon Q's milliseconds above; the
// warning says which reading was taken.
func TestOtherAppsTimeout(t *testing.T) {
	for _, c := range []struct {
		entry string
		want  time.Duration
		warn  string
	}{
		{`{"command": "x", "timeout": 60}`, time.Minute, "in seconds (Cline's and Roo Code's unit): 1m0s"},
		{`{"command": "x", "timeout": 3600}`, time.Hour, "in seconds"},
		{`{"command": "x", "timeout": 120000}`, 2 * time.Minute, "in milliseconds (Gemini CLI's and Amazon Q's unit): 2m0s"},
		{`{"command": "x", "timeout": 30000, "defaultToolTimeout": 5000}`, 5 * time.Second, `is ignored: "defaultToolTimeout" is set too and wins`},
		{`{"command": "x", "timeout": -1}`, 0, "is ignored: it must be a positive number"},
		{`{"command": "x", "timeout": 1e300}`, 0, "is ignored: it is too large"},
	} {
		f, err := ParseContext(t.Context(), "c.json", []byte(`{"mcpServers": {"s": `+c.entry+`}}`))
		if err != nil {
			t.Fatalf("%s: %v", c.entry, err)
		}
		s := serverNamed(t, f, "s")
		probs := f.Entries[0].Problems
		if s.ToolTimeout != c.want || len(probs) != 1 || probs[0].Severity != SeverityWarning || !strings.Contains(probs[0].Message, c.warn) {
			t.Errorf("%s: timeout %v, problems %v; want %v and %q", c.entry, s.ToolTimeout, probs, c.want, c.warn)
		}
		if raw, _ := s.MarshalJSON(); strings.Contains(string(raw), `"timeout"`) {
			t.Errorf("%s: saved as %s", c.entry, raw)
		}
	}
	f, err := ParseContext(t.Context(), "c.json", []byte(`{"mcpServers": {"s": {"command": "x", "timeout": "60"}}}`))
	if err != nil || !strings.Contains(f.Entries[0].Problems[0].Message, "is ignored: it must be a number, got a string") {
		t.Errorf("a timeout that is not a number: %v %v", err, f.Entries[0].Problems)
	}
}

// VS Code's input "default" fills an input not given, and a pickString's
// "options" (strings or {label, value}) are kept for the window's list.
func TestInputDefaultsAndOptions(t *testing.T) {
	f, err := ParseContext(t.Context(), ".vscode/mcp.json", []byte(`{
  "inputs": [
    {"type": "promptString", "id": "region", "description": "Region", "default": "eu-west-1"},
    {"type": "pickString", "id": "mode", "options": ["ro", {"label": "Read and write", "value": "rw"}], "default": "ro"},
    {"type": "promptString", "id": "token", "password": true}
  ],
  "servers": {"s": {"command": "x", "args": ["${input:region}", "${input:mode}"], "env": {"T": "${input:token}"}}}
}`))
	if err != nil {
		t.Fatal(err)
	}
	if in := f.Inputs[1]; in.Default != "ro" || !slices.Equal(in.Options, []InputOption{{"ro", "ro"}, {"Read and write", "rw"}}) {
		t.Errorf("mode = %+v", in)
	}
	given := map[string]string{"token": "t", "mode": "rw"}
	got := f.InputValues(given)
	if want := map[string]string{"region": "eu-west-1", "mode": "rw", "token": "t"}; !maps.Equal(got, want) || len(given) != 2 {
		t.Errorf("InputValues = %v (given now %v)", got, given)
	}
	if _, err := f.WithInputs(f.InputValues(nil)); err == nil || !strings.Contains(err.Error(), "token") || strings.Contains(err.Error(), "region") {
		t.Errorf("without the token: %v", err)
	}
	if _, err := ParseContext(t.Context(), "mcp.json", []byte(`{"inputs": [{"id": "m", "type": "pickString", "options": [1]}], "servers": {"s": {"command": "x"}}}`)); err == nil ||
		!strings.Contains(err.Error(), `inputs[0].options[0]: must be a string or {"label": "…", "value": "…"}, got a number`) {
		t.Errorf("a bad option: %v", err)
	}
}

// What another app decided about approvals (Cline's autoApprove, Roo
// Code's alwaysAllow, Gemini CLI's trust) is said not to carry over, at
// the import; an empty list or false says nothing. Cline's transportType
// is the transport.
func TestForeignKeysNoted(t *testing.T) {
	f, err := ParseContext(t.Context(), "cline_mcp_settings.json", []byte(`{"mcpServers": {
  "a": {"command": "x", "autoApprove": ["list_issues"], "alwaysAllow": []},
  "b": {"command": "x", "trust": true},
  "c": {"command": "x", "trust": false, "autoApprove": []},
  "d": {"url": "https://mcp.example.com/sse", "transportType": "sse"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	got := f.NoteForeignKeys()
	var notes []string
	for _, e := range got.Entries {
		for _, p := range e.Problems {
			notes = append(notes, p.Path+": "+p.Message)
		}
	}
	want := []string{
		`mcpServers.a.autoApprove: is not carried over: the tools ["list_issues"] ran without asking in the app this comes from (Cline, Roo Code, Kiro); here a chat asks first unless you allow them on the Tools page`,
		`mcpServers.b.trust: is not carried over: Gemini CLI ran this server's tools without asking (true); here a chat asks first unless you allow them on the Tools page`,
	}
	if !slices.Equal(notes, want) {
		t.Errorf("notes:\n%s\nwant:\n%s", strings.Join(notes, "\n"), strings.Join(want, "\n"))
	}
	if len(f.Entries[0].Problems) != 0 {
		t.Error("NoteForeignKeys changed f itself")
	}
	if d := serverNamed(t, f, "d"); d.Transport != SSE {
		t.Errorf("transportType sse → %q", d.Transport)
	}
}

// Gemini CLI's "timeout" is in milliseconds: in a file that is Gemini
// CLI's, by its path or by keys only Gemini CLI writes, 1500 is 1.5s
// (not 25 minutes), and the warning says why; elsewhere the seconds
// reading stays.
func TestGeminiTimeoutIsMilliseconds(t *testing.T) {
	const timeout = `"timeout": 1500`
	for _, c := range []struct {
		name, file, doc string
		want            time.Duration
		why             string
	}{
		{"the user's settings", "/home/me/.gemini/settings.json", `{"mcpServers": {"s": {"command": "x", ` + timeout + `}}}`, 1500 * time.Millisecond, "its path ends in .gemini/settings.json"},
		{"a project's, on Windows", `C:\work\app\.gemini\settings.json`, `{"mcpServers": {"s": {"command": "x", ` + timeout + `}}}`, 1500 * time.Millisecond, "its path ends in .gemini/settings.json"},
		{"httpUrl", "pasted", `{"mcpServers": {"s": {"command": "x", ` + timeout + `}, "r": {"httpUrl": "https://example.com/mcp"}}}`, 1500 * time.Millisecond, `its server "r" has "httpUrl"`},
		{"trust", "pasted", `{"mcpServers": {"s": {"command": "x", "trust": true, ` + timeout + `}}}`, 1500 * time.Millisecond, `its server "s" has "trust"`},
		{"includeTools", "pasted", `{"mcpServers": {"s": {"command": "x", "includeTools": ["a"], ` + timeout + `}}}`, 1500 * time.Millisecond, `its server "s" has "includeTools"`},
		{"mcp.allowed", "pasted", `{"mcp": {"allowed": ["s"]}, "mcpServers": {"s": {"command": "x", ` + timeout + `}}}`, 1500 * time.Millisecond, `it has "mcp.allowed"`},
		{"mcp.excluded", "pasted", `{"mcp": {"excluded": []}, "mcpServers": {"s": {"command": "x", ` + timeout + `}}}`, 1500 * time.Millisecond, `it has "mcp.excluded"`},
		{"a bare entry", "pasted", `{"s": {"httpUrl": "https://example.com/mcp", ` + timeout + `}}`, 1500 * time.Millisecond, `its server "s" has "httpUrl"`},
		{"Cline's file", "/home/me/cline_mcp_settings.json", `{"mcpServers": {"s": {"command": "x", "autoApprove": [], ` + timeout + `}}}`, 25 * time.Minute, "in seconds (Cline's and Roo Code's unit)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := ParseContext(t.Context(), c.file, []byte(c.doc))
			if err != nil {
				t.Fatal(err)
			}
			s := serverNamed(t, f, "s")
			var msgs []string
			for _, e := range f.Entries {
				for _, p := range e.Problems {
					msgs = append(msgs, p.Message)
				}
			}
			if s.ToolTimeout != c.want || len(msgs) != 1 || !strings.Contains(msgs[0], c.why) {
				t.Errorf("timeout %v, warnings %q; want %v and %q", s.ToolTimeout, msgs, c.want, c.why)
			}
		})
	}
}
