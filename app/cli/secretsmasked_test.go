package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
)

// TestKeyringSecretsMaskedInCLIOutput: a server that says its keyring
// secrets wherever it can (envsrv) never gets one printed by the CLI —
// 'tools call' (result and error), 'tools list --json', a 'chat'
// transcript and what the chat sends the model — and 'servers remove'
// takes its pins and kept listing with it.
func TestKeyringSecretsMaskedInCLIOutput(t *testing.T) {
	const token, dbpw = "SEKRIT05tok-0123456789", "SEKRIT02pw-abcdef"
	data := t.TempDir()
	mustRun(t, data, "", "servers", "add", "envsrv", "--env", "API_TOKEN="+token, "--env", "DATABASE_URL=postgres://app:"+dbpw+"@localhost/db",
		"--", proctest.Server(t, "envsrv"))
	if disk := configOnDisk(t, data); strings.Contains(disk, token) || strings.Contains(disk, dbpw) {
		t.Fatalf("'servers add' kept a value in config.json (the test needs both in the keyring):\n%s", disk)
	}
	llm := providertest.NewServer(t)
	llm.Enqueue(providertest.Reply{ToolCalls: []providertest.ToolCall{{ID: "c1", Name: "envsrv__env", Arguments: `{}`}, {ID: "c2", Name: "envsrv__fail", Arguments: `{}`}}},
		providertest.Reply{Text: "done"})
	type output struct {
		args []string
		code int    // the exit code wanted
		says string // what the output must show (masked around it)
	}
	for _, o := range []output{
		{[]string{"tools", "call", "envsrv__fail"}, 1, "ERROR-ENV"},
		{[]string{"tools", "call", "envsrv__env"}, 0, "RESULT-ENV"},
		{[]string{"--json", "tools", "list"}, 0, "DESC-ENV"},
		{[]string{"chat", "--provider", "openai", "--base-url", llm.URL(provider.KindOpenAI), "--model", "m", "--yes", "show", "me", "your", "env"}, 0, "ERROR-ENV"},
	} {
		code, out, errOut := runStdin(t, data, "", o.args...)
		text := out + errOut
		if code != o.code || strings.Contains(text, token) || strings.Contains(text, dbpw) || !strings.Contains(text, o.says) || !strings.Contains(text, "••••6789") {
			t.Errorf("switchboard %s: exit %d, want %d and %s with the secrets masked:\n%s", strings.Join(o.args, " "), code, o.code, o.says, text)
		}
	}
	var requests string
	for _, r := range llm.Requests() {
		requests += string(r)
	}
	if !strings.Contains(requests, "RESULT-ENV") || strings.Contains(requests, token) || strings.Contains(requests, dbpw) {
		t.Errorf("the model was sent:\n%s\nwant the result with the secrets masked", requests)
	}
	for _, f := range []string{"pins.json", "history.db"} {
		b, _ := os.ReadFile(filepath.Join(data, f))
		wal, _ := os.ReadFile(filepath.Join(data, f+"-wal"))
		if text := string(b) + string(wal); strings.Contains(text, token) || strings.Contains(text, dbpw) || !strings.Contains(text, "envsrv") {
			t.Errorf("%s holds a secret, or nothing of envsrv", f)
		}
	}

	mustRun(t, data, "", "servers", "remove", "envsrv")
	pins, _ := os.ReadFile(filepath.Join(data, "pins.json"))
	kept, _ := filepath.Glob(filepath.Join(data, "listings", "envsrv-*"))
	if strings.Contains(string(pins), "envsrv") || len(kept) != 0 {
		t.Fatalf("after 'servers remove': pins.json\n%s\nlistings %v; want neither to keep envsrv", pins, kept)
	}
}
