//go:build linux

package chat_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/mcpmanager"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// TestAScriptCannotGetPastASandbox: the real filesystem server, sandboxed
// with its root read-only, refuses a script's write; the refusal is an
// exception the script catches, and nothing is written.
func TestAScriptCannotGetPastASandbox(t *testing.T) {
	work := t.TempDir()
	if err := os.WriteFile(filepath.Join(work, "in.txt"), []byte("inside"), 0o644); err != nil {
		t.Fatal(err)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal(err)
	}
	bin := proctest.NPM(t, "mcp-server-filesystem")
	entry, err := filepath.EvalSymlinks(bin) // node_modules/.bin links to the package's dist/index.js
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"files": map[string]any{
		"command": node, "args": []string{entry}, "roots": []string{work}, "sandbox": true,
		"env": map[string]string{"HOME": filepath.Join(t.TempDir(), "home")},
	}}})
	cfg, err := config.ParseContext(t.Context(), "config.json", raw)
	if err != nil {
		t.Fatal(err)
	}
	m := mcpmanager.New(mcpmanager.Options{})
	t.Cleanup(func() { _ = m.Close(context.WithoutCancel(t.Context())) })
	m.Apply(mcpmanager.Specs(cfg.Servers, func(s string) (string, error) { return s, nil }))
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	m.WaitSettled(ctx)
	// The server asks for its roots after initialize: wait until it reads in them.
	mcptest.UntilNil(t, "the sandboxed server reads in its root", func() error {
		r, err := m.Router().Call(t.Context(), "files", "read_text_file", map[string]any{"path": filepath.Join(work, "in.txt")}, router.CallOptions{})
		if err != nil {
			return err
		}
		if r.IsError || mcptest.Text(r) != "inside" {
			return errors.New(mcptest.Text(r))
		}
		return nil
	})

	f := newFixture(t, provider.KindOpenAI, nil)
	f.eng = chat.New(chat.Options{Tools: m.Router(), History: f.hist, Approver: chat.ApproveAll{}})
	out := filepath.Join(work, "out.txt")
	src := `const seen = await tools.files.read_text_file({path: ` + jsonArgs(filepath.Join(work, "in.txt")) + `});
try { await tools.files.write_file({path: ` + jsonArgs(out) + `, content: "x"}); return "wrote"; }
catch (e) { return "refused after reading " + (seen.content ?? seen.text) + ": " + e.message; }`
	f.llm.Enqueue(providertest.Reply{ToolCalls: []providertest.ToolCall{script("s1", src)}}, providertest.Reply{Text: "ok"})
	res, err := f.send(t.Context(), "write", codeMode)
	if err != nil {
		t.Fatal(err)
	}
	v, _ := scriptValue(t, res.ToolCalls[0]).(string)
	if !strings.HasPrefix(v, "refused after reading inside: ") {
		t.Errorf("the script returned %q", v)
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the sandboxed server wrote %s: %v", out, err)
	}
}
