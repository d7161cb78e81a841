//go:build llama

// switchboard chat on the model on this computer, with the real runtime
// (make test-llama sets SWITCHBOARD_LLAMA_SERVER and SWITCHBOARD_LLAMA_SRC).
package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/datadir"
	"github.com/switchboard-app/switchboard/app/localmodel/testmodel"
)

func TestLocalModelChatFromTheTerminal(t *testing.T) {
	src := os.Getenv("SWITCHBOARD_LLAMA_SRC")
	if src == "" || os.Getenv("SWITCHBOARD_LLAMA_SERVER") == "" {
		t.Fatal("SWITCHBOARD_LLAMA_SERVER and SWITCHBOARD_LLAMA_SRC must be set: run 'make test-llama'")
	}
	dir := datadir.Dir(t.TempDir())
	if err := dir.Ensure(); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir.Models(), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := testmodel.Write(filepath.Join(dir.Models(), "tiny.gguf"), src, testmodel.Tiny, 1); err != nil {
		t.Fatal(err)
	}
	cfg := `{"mcpServers": {}, "settings": {"chat": {"providers": [{"name": "On this computer", "kind": "local", "defaultModel": "tiny"}], "defaultProvider": "On this computer", "local": {"context": 1024}}}}`
	if err := os.WriteFile(dir.Config(), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runChat(t, dir.String(), "", "--json", "Say", "hello.")
	if code != 0 {
		b, _ := os.ReadFile(filepath.Join(dir.Logs(), "local-model.log"))
		t.Fatalf("exit %d: %s\nllama-server's log (end):\n%s", code, errOut, b[max(0, len(b)-4000):])
	}
	var res struct{ Status, Text string }
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.Status != "complete" {
		t.Fatalf("stdout %q: %v", out, err)
	}
	if !strings.Contains(errOut, "Loading tiny on this computer (context 1024 tokens") {
		t.Fatalf("stderr does not say the model is loading: %q", errOut)
	}
}
