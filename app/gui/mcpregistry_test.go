package gui

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/mcpregistry/mcpregistrytest"
)

// TestRegistryBrowseDoor: what the Browse tab gets. A required value left
// empty is named as the field to fill in, never with the CLI's --set; the
// preview lists them. An mcpb package's form is its bundle's (its
// user_config, the name it installs as), and Add installs it with the
// form's answers.
func TestRegistryBrowseDoor(t *testing.T) {
	raw := probeBundle(t)
	sum := sha256.Sum256(raw)
	files := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write(raw) }))
	t.Cleanup(files.Close)
	reg, err := mcpregistrytest.Start(t.Context(), 0)
	if err != nil {
		t.Fatal(err)
	}
	reg.Add(mcpregistrytest.DatabaseManager)
	reg.Add(fmt.Sprintf(`{"name": "io.github.example/probe", "description": "d", "version": "1.0.0",
		"packages": [{"registryType": "mcpb", "identifier": %q, "fileSha256": %q, "version": "1.0.0", "transport": {"type": "stdio"}}]}`, files.URL+"/probe.mcpb", hex.EncodeToString(sum[:])))
	a, _ := window(t)
	r := a.MCPRegistry
	if err := r.SetRegistryURL(reg.URL); err != nil {
		t.Fatal(err)
	}

	pick := RegistryPick{Name: "io.github.example/database-manager", Values: map[string]string{"DB_USERNAME": "u", "host": "localhost"}}
	p := r.Preview(pick)
	if !p.Missing || !slices.Equal(p.Fill, []string{"db_type", "database_name", "DB_PASSWORD"}) {
		t.Errorf("preview: %+v", p)
	}
	_, err = r.Add(pick)
	if err == nil || err.Error() != "Fill in db_type (Type of database), database_name (Name of the database to connect to), DB_PASSWORD (Database password), then Add again." {
		t.Errorf("add: %v", err)
	}

	f, err := r.InspectBundle("io.github.example/probe", 0)
	if err != nil {
		t.Fatal(err)
	}
	if f.Name != "echo-probe" || len(f.Options) != 1 || f.Options[0].Key != "key" || !f.Options[0].Required {
		t.Fatalf("form: %+v", f)
	}
	_, err = r.Add(RegistryPick{Name: "io.github.example/probe"})
	if err == nil || !strings.Contains(err.Error(), "Key (key) is required") {
		t.Errorf("add without the form's key: %v", err)
	}
	if _, err := r.InspectBundle("io.github.example/probe", 0); err != nil {
		t.Fatal(err)
	}
	added, err := r.Add(RegistryPick{Name: "io.github.example/probe", Bundle: map[string][]string{"key": {"sk-gui-1"}}})
	if err != nil || added.Name != "echo-probe" {
		t.Fatalf("add: %+v %v", added, err)
	}
}

// probeBundle is a small bundle asking for a required key.
func probeBundle(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for name, body := range map[string]string{
		"manifest.json": `{"manifest_version": "0.3", "name": "echo-probe", "version": "1.0.0", "description": "d", "author": {"name": "Probe"},
			"server": {"type": "node", "entry_point": "server/index.js", "mcp_config": {"command": "node", "args": ["${__dirname}/server/index.js"], "env": {"B_KEY": "${user_config.key}"}}},
			"user_config": {"key": {"type": "string", "title": "Key", "sensitive": true, "required": true}}}`,
		"server/index.js": "// the server",
	} {
		f, err := w.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
