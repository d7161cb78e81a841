package config

import (
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
