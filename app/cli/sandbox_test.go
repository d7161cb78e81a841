package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestServersListSandbox: 'servers import --sandbox' sandboxes the local
// servers without an entry of their own, and 'servers list' shows each
// server's sandbox (a column, and the entry in --json).
func TestServersListSandbox(t *testing.T) {
	data := t.TempDir()
	file := writeFile(t, "c.json", `{"mcpServers": {
		"plain": {"command": "/bin/true"},
		"own": {"command": "/bin/true", "sandbox": {"network": true, "allowWrite": ["/srv/a", "/srv/b"], "roots": "write"}},
		"remote": {"url": "https://example.com/mcp"}}}`)
	if code, _, e := runIn(t, data, "servers", "import", "--sandbox", file); code != 0 {
		t.Fatalf("import: %d %s", code, e)
	}
	code, out, e := runIn(t, data, "servers", "list")
	if code != 0 || !strings.Contains(out, "SANDBOX") {
		t.Fatalf("list: %d %s\n%s", code, e, out)
	}
	want := map[string]string{"plain": "on", "own": "on,network,write=2,roots=write", "remote": "-"}
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) > 3 && want[f[0]] != "" {
			if f[3] != want[f[0]] {
				t.Errorf("%s: SANDBOX %q, want %q", f[0], f[3], want[f[0]])
			}
			delete(want, f[0])
		}
	}
	if len(want) > 0 {
		t.Errorf("rows missing from the list: %v\n%s", want, out)
	}
	code, out, _ = runIn(t, data, "--json", "servers", "list")
	var rows []struct {
		Name    string          `json:"name"`
		Sandbox json.RawMessage `json:"sandbox"`
	}
	if err := json.Unmarshal([]byte(out), &rows); code != 0 || err != nil {
		t.Fatalf("list --json: %d %v\n%s", code, err, out)
	}
	got := map[string]string{}
	for _, r := range rows {
		var b strings.Builder
		if len(r.Sandbox) > 0 {
			var v any
			_ = json.Unmarshal(r.Sandbox, &v)
			raw, _ := json.Marshal(v)
			b.Write(raw)
		}
		got[r.Name] = b.String()
	}
	if got["plain"] != "true" || got["own"] != `{"allowWrite":["/srv/a","/srv/b"],"network":true,"roots":"write"}` || got["remote"] != "" {
		t.Errorf("--json sandbox: %v", got)
	}
}
