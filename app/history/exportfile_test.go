package history

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestExportFile(t *testing.T) {
	s, c := exportFixture(t)
	for _, f := range []Format{FormatMarkdown, FormatJSON} {
		t.Run(string(f), func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, ExportFileName(c.Title, f))
			// A file already there is replaced whole.
			if err := os.WriteFile(path, []byte(strings.Repeat("old ", 10000)), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := s.ExportFile(t.Context(), c.ID, f, path); err != nil {
				t.Fatal(err)
			}
			var want bytes.Buffer
			if err := s.Export(t.Context(), c.ID, f, &want); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want.Bytes()) {
				t.Errorf("file holds %d bytes, the export is %d:\n%.300s", len(got), want.Len(), got)
			}
			if left := leftovers(t, dir, filepath.Base(path)); len(left) > 0 {
				t.Errorf("temporary files left beside the export: %v", left)
			}
		})
	}
}

func TestExportFileFails(t *testing.T) {
	s, c := exportFixture(t)
	dir := t.TempDir()
	keep := filepath.Join(dir, "kept.md")
	if err := os.WriteFile(keep, []byte("as it was"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, chat, path string
		want             error
	}{
		{"no path", c.ID, "", ErrInvalid},
		{"unknown chat", "nope", keep, ErrNotFound},
		{"missing folder", c.ID, filepath.Join(dir, "no", "such", "x.md"), os.ErrNotExist},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := s.ExportFile(t.Context(), tt.chat, FormatMarkdown, tt.path)
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			if b, _ := os.ReadFile(keep); string(b) != "as it was" {
				t.Errorf("a failed export changed an existing file: %q", b)
			}
			if left := leftovers(t, dir, "kept.md"); len(left) > 0 {
				t.Errorf("files left behind: %v", left)
			}
		})
	}
}

func TestExportFileName(t *testing.T) {
	tests := []struct {
		title string
		f     Format
		want  string
	}{
		{"Tidy the <notes> folder", FormatMarkdown, "Tidy the notes folder.md"},
		{"a/b\\c: d?", FormatJSON, "a b c d.json"},
		{"   ", FormatMarkdown, "chat.md"},
		{strings.Repeat("é", 100), FormatMarkdown, strings.Repeat("é", 80) + ".md"},
	}
	for _, tt := range tests {
		if got := ExportFileName(tt.title, tt.f); got != tt.want {
			t.Errorf("ExportFileName(%q, %s) = %q, want %q", tt.title, tt.f, got, tt.want)
		}
	}
}

// leftovers lists the files in dir other than keep.
func leftovers(t *testing.T, dir, keep string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		if e.Name() != keep && !e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out
}
