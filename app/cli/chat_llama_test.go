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
	model := filepath.Join(t.TempDir(), "tiny.gguf")
	if err := testmodel.Write(model, src, testmodel.Tiny, 1); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runModels(t, dir.String(), "models", "add", model); code != 0 {
		t.Fatalf("models add: %s", errOut)
	}
	cfg, err := os.ReadFile(dir.Config())
	if err != nil || !strings.Contains(string(cfg), `"kind": "local"`) {
		t.Fatalf("config.json after models add: %s %v", cfg, err)
	}
	if code, _, errOut := runModels(t, dir.String(), "models", "run", "--context", "1024"); code != 0 {
		t.Fatalf("models run: %s", errOut)
	}
	// As an agent without servers: random weights write no valid tool
	// call, and with tools offered llama-server parses the answer for one.
	var c map[string]any
	if cfg, err = os.ReadFile(dir.Config()); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(cfg, &c); err != nil {
		t.Fatal(err)
	}
	c["settings"].(map[string]any)["chat"].(map[string]any)["agents"] = []any{map[string]any{"id": "plain", "name": "plain", "servers": []any{}}}
	if cfg, err = json.Marshal(c); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir.Config(), cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runChat(t, dir.String(), "", "--json", "--agent", "plain", "Say", "hello.")
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

func runModels(t *testing.T, dataDir string, args ...string) (int, string, string) {
	t.Helper()
	code, out, errOut, _ := run(t, append([]string{"--data-dir", dataDir}, args...)...)
	return code, out, errOut
}
