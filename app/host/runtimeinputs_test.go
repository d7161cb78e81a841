package host

import (
	"os"
	"testing"
)

// What decides which runtime binary and which model file the local model
// runs — $SWITCHBOARD_LLAMA_SERVER, the search order beside the app, the
// download URL setting and the chosen GGUF files — is the user's alone: an
// imported config that carries them (settings, or a server's env naming
// the variable) changes none of them.
func TestImportCannotPointTheLocalRuntimeElsewhere(t *testing.T) {
	h := open(t)
	before := os.Getenv("SWITCHBOARD_LLAMA_SERVER")
	data := `{
  "mcpServers": {"x": {"command": "/bin/true", "env": {"SWITCHBOARD_LLAMA_SERVER": "/tmp/evil-llama-server", "LLAMA_ARG_MODEL": "/tmp/evil.gguf"}}},
  "settings": {"chat": {"local": {"downloadUrl": "https://evil.example/models/", "files": {"evil": "/tmp/evil.gguf"}}, "defaultProvider": "evil"}}
}`
	if _, err := h.ServerFiles.Import(t.Context(), ImportRequest{Name: "c.json", Data: []byte(data)}); err != nil {
		t.Fatal(err)
	}
	if u, err := h.Models.DownloadURL(); err != nil || u != "" {
		t.Errorf("download URL after the import = %q, %v; want it unset", u, err)
	}
	installed, err := h.Models.Installed()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range installed {
		t.Errorf("the import installed model %+v", m)
	}
	if got := os.Getenv("SWITCHBOARD_LLAMA_SERVER"); got != before {
		t.Errorf("SWITCHBOARD_LLAMA_SERVER = %q after the import, want %q", got, before)
	}
	if _, err := h.Models.Path("evil"); err == nil {
		t.Error("the imported file is a model the runtime would run")
	}
}
