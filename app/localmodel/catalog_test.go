package localmodel

import (
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The catalog's pins are what a download is checked against: a malformed
// hash or a URL that does not name the file would make every download fail
// (or, worse, never be checked), so each entry is checked for shape.
func TestCatalogPins(t *testing.T) {
	defaults := 0
	seen := map[string]bool{}
	for _, e := range Catalog() {
		t.Run(e.Name, func(t *testing.T) {
			if b, err := hex.DecodeString(e.SHA256); err != nil || len(b) != 32 || strings.ToLower(e.SHA256) != e.SHA256 {
				t.Errorf("SHA256 %q is not 64 lower-case hex digits", e.SHA256)
			}
			if !strings.HasPrefix(e.URL, "https://huggingface.co/") || !strings.HasSuffix(e.URL, "/resolve/main/"+e.File) {
				t.Errorf("URL %q does not download %s from Hugging Face", e.URL, e.File)
			}
			if !strings.HasSuffix(e.File, ".gguf") || e.Size < 100<<20 || e.Licence == "" || e.GoodFor == "" || e.Title == "" {
				t.Errorf("entry incomplete: %+v", e)
			}
			if want := e.Size + e.KVBytesPerToken*DefaultContext; e.RAM <= want {
				t.Errorf("RAM %d does not cover the weights and the KV cache (%d)", e.RAM, want)
			}
			if seen[strings.ToLower(e.Name)] {
				t.Errorf("name %q twice", e.Name)
			}
			seen[strings.ToLower(e.Name)] = true
		})
		if e.Default {
			defaults++
		}
	}
	if defaults != 1 || !Catalog()[0].Default {
		t.Errorf("%d defaults (want one, listed first)", defaults)
	}
}

// A catalog file replaces the pins only with complete entries: one without
// a hash would download a file nothing checks.
func TestReadCatalog(t *testing.T) {
	sum := strings.Repeat("a", 64)
	for _, tt := range []struct {
		json string
		ok   bool
	}{
		{`[{"Name":"t","File":"t.gguf","Size":10,"SHA256":"` + sum + `"}]`, true},
		{`[{"Name":"t","File":"t.gguf","Size":10}]`, false},
		{`[{"Name":"t","File":"../t.gguf","Size":10,"SHA256":"` + sum + `"}]`, false},
		{`[{"Name":"t","File":"t.bin","Size":10,"SHA256":"` + sum + `"}]`, false},
		{`{`, false},
	} {
		p := filepath.Join(t.TempDir(), "c.json")
		os.WriteFile(p, []byte(tt.json), 0o644)
		es, err := ReadCatalog(p)
		if (err == nil) != tt.ok || tt.ok && (len(es) != 1 || es[0].SHA256 != sum) {
			t.Errorf("ReadCatalog(%s) = %+v, %v; want ok=%v", tt.json, es, err, tt.ok)
		}
	}
}
