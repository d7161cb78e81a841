package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
)

func TestTermSafe(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain text is kept", "hello, world", "hello, world"},
		{"newlines and tabs are kept", "a\tb\nc\n", "a\tb\nc\n"},
		{"unicode is kept", "café ✓ 日本 👍", "café ✓ 日本 👍"},
		{"bidi marks are kept", "a\u200fb\u200ec", "a\u200fb\u200ec"},
		{"colour (CSI SGR)", "\x1b[31mred\x1b[0m", "red"},
		{"cursor movement and erase", "ok\x1b[2K\x1b[1A\x1b[10;20Hfake", "okfake"},
		{"private CSI", "\x1b[?1049hscreen", "screen"},
		{"window title (OSC BEL)", "\x1b]0;pwned\x07text", "text"},
		{"clipboard write (OSC 52, ST)", "\x1b]52;c;Y3VybCBldmlsIHwgc2g=\x1b\\text", "text"},
		{"hyperlink (OSC 8)", "\x1b]8;;http://evil\x1b\\click\x1b]8;;\x1b\\", "click"},
		{"DCS", "\x1bPq#0;2;0;0;0\x1b\\after", "after"},
		{"two-byte ESC (reset)", "\x1bcafter", "after"},
		{"charset designation", "\x1b(Bafter", "after"},
		{"trailing ESC", "text\x1b", "text"},
		{"unterminated OSC drops only its introducer", "\x1b]0;title", "0;title"},
		{"carriage return", "safe\rEVIL", "safeEVIL"},
		{"backspace, bell, NUL, DEL", "a\bb\x07c\x00d\x7fe", "abcde"},
		{"C1 CSI", "\u009b31mred", "red"},
		{"C1 OSC with C1 ST", "\u009d0;t\u009ctext", "text"},
		{"other C1 controls", "a\u0085b\u008dc", "abc"},
		{"lone 8-bit CSI byte", "a\x9b31mb", "a" + string(utf8.RuneError) + "31mb"},
		{"bidi override (Trojan Source)", "rm -rf \u202e/ tmp\u202c", "rm -rf / tmp"},
		{"bidi isolates", "a\u2066b\u2067c\u2068d\u2069e", "abcde"},
		{"bidi embeddings", "a\u202ab\u202bc\u202dd", "abcd"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := termSafe(tt.in); got != tt.want {
				t.Errorf("termSafe(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// FuzzTermSafe checks the promise for any input: nothing a terminal acts on
// survives, valid UTF-8 comes out, and safe text is left alone.
func FuzzTermSafe(f *testing.F) {
	for _, s := range []string{"", "plain\n", "\x1b[31mx", "\x1b]0;t\x07", "\u009b1m", "\u202e", "\x1bP\x1b\\", "\xff\x9b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := termSafe(in)
		if !utf8.ValidString(out) {
			t.Fatalf("termSafe(%q) = %q: invalid UTF-8", in, out)
		}
		for _, r := range out {
			if (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r <= 0x9f) || isBidiControl(r) {
				t.Fatalf("termSafe(%q) = %q: kept control %U", in, out, r)
			}
		}
		if termSafe(out) != out {
			t.Fatalf("termSafe is not idempotent on %q", in)
		}
	})
}

// TestServerTextReachesTheTerminalSafe runs the CLI against a server whose
// name, stderr and tool results carry escape sequences and a bidi override:
// the text output shows the words without them, --json keeps them exactly.
func TestServerTextReachesTheTerminalSafe(t *testing.T) {
	const hostile = "\x1b]0;pwned\x07\x1b[2K\x1b[31mevil\u202etxt.exe\x1b]52;c;cm0gLXJm\x07"
	const shown = "eviltxt.exe"
	fs := proctest.FaultServer(t)
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	file := writeFile(t, "mcp.json", fmt.Sprintf(`{"mcpServers": {
		"fault": {"command": %q, "args": ["-name", %s]},
		"dies": {"command": %q, "args": ["-mode", "exit-init"], "env": {"FAULT_LEAK": "HOSTILE", "HOSTILE": %s}}}}`, fs, q(hostile), fs, q(hostile)))
	data := t.TempDir()
	args, _ := json.Marshal(map[string]string{"text": hostile})

	checks := []struct {
		name     string
		args     []string
		wantCode int
		want     string
	}{
		{"tool result", []string{"tools", "call", "fault__echo", "--args", string(args), "--config", file}, ExitOK, shown + "\n"},
		{"server name", []string{"servers", "test", "fault", "--config", file}, ExitOK, "(" + shown + " "},
		{"server stderr", []string{"servers", "test", "dies", "--config", file}, ExitRuntime, "starting with HOSTILE=" + shown},
	}
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := runIn(t, data, c.args...)
			if code != c.wantCode || !strings.Contains(out, c.want) {
				t.Fatalf("exit %d, want %d; stdout lacks %q:\n%q\nstderr: %q", code, c.wantCode, c.want, out, errOut)
			}
			for _, s := range []string{out, errOut} {
				if strings.ContainsAny(s, "\x1b\x07\u202e") {
					t.Errorf("a control character reached the terminal: %q", s)
				}
			}
		})
	}
	t.Run("json stays exact", func(t *testing.T) {
		code, out, errOut := runIn(t, data, "--json", "tools", "call", "fault__echo", "--args", string(args), "--config", file)
		var res struct {
			Content []struct{ Text string } `json:"content"`
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil || code != ExitOK || len(res.Content) != 1 || res.Content[0].Text != hostile {
			t.Fatalf("--json: exit %d, %v, %+v\n%s", code, err, res, errOut)
		}
	})
}

// TestTableCellsAreSafe: what a registry or a server names and describes
// is printed in a table without its escape sequences, bidi overrides,
// tabs or line breaks.
func TestTableCellsAreSafe(t *testing.T) {
	var out bytes.Buffer
	inv := &Invocation{Env: Env{Stdout: &out}}
	err := inv.Table("none", []string{"NAME", "DESCRIPTION"}, [][]string{
		{"evil\x1b]52;c;cm0gLXJmIH4=\x07", "safe\u202Etxt.exe\nFAKE ROW\tX"},
	})
	if err != nil {
		t.Fatal(err)
	}
	got := out.String()
	if strings.ContainsAny(got, "\x1b\x07\u202E") || strings.Count(got, "\n") != 2 || !strings.Contains(got, "safetxt.exe FAKE ROW X") {
		t.Fatalf("table printed %q", got)
	}
}
