package clients

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// A config kept in a dotfiles folder and linked into place stays linked:
// the file it points to gets the change, the backup sits beside the link.
func TestWriteFileKeepsASymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "dotfiles", "settings.json")
	link := filepath.Join(dir, "app", "settings.json")
	for _, d := range []string{filepath.Dir(real), filepath.Dir(link)} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(real, []byte("{}"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../dotfiles/settings.json", link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(link, []byte(`{"a":1}`), []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced by a file: %v %v", fi.Mode(), err)
	}
	got, err := os.ReadFile(real)
	if err != nil || string(got) != `{"a":1}` {
		t.Fatalf("the linked file holds %q (%v)", got, err)
	}
	if fi, _ := os.Stat(real); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode = %v, want 0640", fi.Mode().Perm())
	}
	if b, err := os.ReadFile(link + BackupSuffix); err != nil || string(b) != "{}" {
		t.Errorf("backup beside the link: %q %v", b, err)
	}
}

// A file made read-only is left as it is, with what to do.
func TestWriteFileRefusesReadOnly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "opencode.jsonc")
	if err := os.WriteFile(path, []byte("{}"), 0o444); err != nil {
		t.Fatal(err)
	}
	err := WriteFile(path, []byte(`{"a":1}`), nil)
	if !errors.Is(err, ErrReadOnly) {
		t.Fatalf("err = %v, want ErrReadOnly", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "{}" {
		t.Errorf("a read-only file was written: %q", got)
	}
	if _, err := os.Stat(path + BackupSuffix); !os.IsNotExist(err) {
		t.Errorf("a backup was written for a refused write: %v", err)
	}
}

// A file written on Windows (every line ending in CRLF) keeps its line
// endings in the lines connect adds, in each syntax.
func TestConnectKeepsCRLF(t *testing.T) {
	for _, c := range []struct {
		file  string
		style config.ClientStyle
		key   string
		data  string
	}{
		{"mcp.json", config.StyleMCPServers, "mcpServers", "{\r\n  \"mcpServers\": {\r\n    \"a\": {\"command\": \"x\"}\r\n  }\r\n}\r\n"},
		{"config.toml", config.StyleCodex, "mcp_servers", "model = \"o3\"\r\n\r\n[mcp_servers.a]\r\ncommand = \"x\"\r\n"},
		{"config.yaml", config.StyleGoose, "extensions", "extensions:\r\n  a:\r\n    cmd: x\r\n    enabled: true\r\n    type: stdio\r\n"},
	} {
		d, err := Read(config.ClientFile{Path: c.file, Key: []string{c.key}, Style: c.style}, []byte(c.data))
		if err != nil {
			t.Fatal(err)
		}
		out, err := d.Add(Entry{Command: "/usr/bin/switchboard", Args: []string{"serve"}})
		if err != nil {
			t.Fatal(err)
		}
		if n := bytes.Count(out, []byte("\n")); n == 0 || bytes.Count(out, []byte("\r\n")) != n || !bytes.Contains(out, []byte("switchboard")) {
			t.Errorf("%s: a line without CR:\n%q", c.file, out)
		}
	}
}
