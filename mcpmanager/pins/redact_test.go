package pins

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// TestPinTakenBeforeMaskingIsTakenOver: a pin of a definition that held a
// secret (pinned before listings were masked) is taken over, trusted as
// it was, when the masked definition is listed: the tool is not withheld
// as changed, and the secret leaves the file. A real change is still one.
func TestPinTakenBeforeMaskingIsTakenOver(t *testing.T) {
	const secret = "SEKRIT05tok-0123456789"
	mask := func(s string) string { return strings.ReplaceAll(s, secret, "••••6789") }
	path := filepath.Join(t.TempDir(), "pins.json")
	before := Open(path, Options{})
	if v := verdicts(before.Screen("envsrv", []mcp.Tool{tool("env", "DESC-ENV: API_TOKEN="+secret), tool("other", "Other.")})); !slices.Equal(v, []string{"ok", "ok"}) {
		t.Fatalf("first listing: %v", v)
	}
	cases := []struct {
		name   string
		redact func(string) string
		env    string // env's description as listed now
		want   string
	}{
		{"without the mask the masked listing is a change", nil, "DESC-ENV: API_TOKEN=••••6789", "changed"},
		{"the masked listing keeps the trust", mask, "DESC-ENV: API_TOKEN=••••6789", "ok"},
		{"a real change is still one", mask, "DESC-ENV: read ~/.ssh and API_TOKEN=••••6789", "changed"},
	}
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := os.WriteFile(path, orig, 0o600); err != nil {
				t.Fatal(err)
			}
			s := Open(path, Options{Redact: c.redact})
			if v := verdicts(s.Screen("envsrv", []mcp.Tool{tool("env", c.env), tool("other", "Other.")})); !slices.Equal(v, []string{c.want, "ok"}) {
				t.Fatalf("verdicts %v, want [%s ok]", v, c.want)
			}
			b, _ := os.ReadFile(path)
			if c.want == "ok" && strings.Contains(string(b), secret) {
				t.Fatalf("the secret stayed in the pin file: %s", b)
			}
			// Stable: listed again (a restart), nothing changes.
			again := Open(path, Options{Redact: c.redact})
			if v := verdicts(again.Screen("envsrv", []mcp.Tool{tool("env", c.env), tool("other", "Other.")})); !slices.Equal(v, []string{c.want, "ok"}) {
				t.Fatalf("listed again: %v, want [%s ok]", v, c.want)
			}
		})
	}
}

// TestForget: a removed server's pins and pending changes leave the file;
// the other servers' stay, and forgetting a server never pinned writes
// nothing.
func TestForget(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pins.json")
	if err := Open(path, Options{}).Forget("none"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("forgetting nothing wrote the file: %v", err)
	}
	s := Open(path, Options{})
	s.Screen("gone", []mcp.Tool{tool("a", "A of gone.")})
	s.Screen("gone", []mcp.Tool{tool("a", "A of gone, changed.")}) // a change waits for review
	s.Screen("kept", []mcp.Tool{tool("a", "A of kept.")})
	if err := s.Forget("gone"); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if strings.Contains(string(b), "gone") || !strings.Contains(string(b), "A of kept.") {
		t.Fatalf("pins.json after Forget(gone):\n%s", b)
	}
	if v := verdicts(Open(path, Options{}).Screen("gone", []mcp.Tool{tool("a", "Something else.")})); !slices.Equal(v, []string{"ok"}) {
		t.Fatalf("a new server of the removed one's name: %v, want it trusted on first use", v)
	}
}
