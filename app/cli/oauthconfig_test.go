package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A remote server's "oauth" entry (a client registered by hand, for
// servers that refuse dynamic registration) survives import, list and
// export; its client secret goes to the keyring, never to config.json or
// the exported file. Claude Code's callbackPort becomes the redirect URI
// Claude Code sends, on localhost.
func TestOAuthEntryRoundTrip(t *testing.T) {
	const secret = "oauth-client-SECRET-4321"
	data := t.TempDir()
	file := writeFile(t, "mcp.json", `{"mcpServers": {"linear": {"url": "https://127.0.0.1:9/mcp",
	  "oauth": {"clientId": "switchboard-app", "clientSecret": "`+secret+`", "callbackPort": 8765, "scopes": ["read", "write"]}}}}`)
	if code, out, errOut := runIn(t, data, "servers", "import", file); code != 0 {
		t.Fatalf("import: %d\n%s\n%s", code, out, errOut)
	}
	disk, err := os.ReadFile(filepath.Join(data, "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	own := ownName(t, data, "linear", "oauth.clientSecret")
	entry := `"oauth": {
        "clientId": "switchboard-app",
        "clientSecret": "${secret:` + own + `}",
        "redirectUri": "http://localhost:8765/callback",
        "scopes": [`
	if strings.Contains(string(disk), secret) || !strings.Contains(string(disk), entry) {
		t.Fatalf("config.json:\n%s", disk)
	}
	if got, err := keyringOf(t, data, own); err != nil || got != secret {
		t.Fatalf("keyring holds %q, %v", got, err)
	}
	if code, out, _ := runIn(t, data, "secrets", "list"); code != 0 || !strings.Contains(out, own) || !strings.Contains(out, "linear") || strings.Contains(out, secret) {
		t.Errorf("secrets list:\n%s", out)
	}
	code, out, errOut := runIn(t, data, "servers", "export")
	if code != 0 || strings.Contains(out, secret) ||
		!strings.Contains(out, `"clientId":"switchboard-app"`) || !strings.Contains(out, `"clientSecret":"${secret:`+own+`}"`) || !strings.Contains(out, `"redirectUri":"http://localhost:8765/callback"`) {
		t.Errorf("export: %d\n%s\n%s", code, out, errOut)
	}
	// What was exported imports again as the same entry.
	if code, out, _ := runIn(t, data, "servers", "import", writeFile(t, "exported.json", out), "--dry-run"); code != 0 || !strings.Contains(out, "unchanged") {
		t.Errorf("re-import of the export:\n%s", out)
	}
	if code, out, _ := runIn(t, data, "servers", "list"); code != 0 || !strings.Contains(out, "linear") {
		t.Errorf("servers list:\n%s", out)
	}
}
