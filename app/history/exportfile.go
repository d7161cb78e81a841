package history

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// ExportFile writes the chat with id chatID in format f to the file at path,
// atomically: the export goes to a temporary file beside it, is synced and
// renamed over path, so an existing file is either replaced whole or left as
// it was (a failed export never leaves half a chat behind).
func (s *Store) ExportFile(ctx context.Context, chatID string, f Format, path string) error {
	if path == "" {
		return fmt.Errorf("export chat %q: no file chosen: %w", chatID, ErrInvalid)
	}
	var b bytes.Buffer
	if err := s.Export(ctx, chatID, f, &b); err != nil {
		return err
	}
	if err := writeFileAtomic(path, b.Bytes()); err != nil {
		return fmt.Errorf("export chat %q to %s: %w", chatID, path, err)
	}
	return nil
}

// ExportFileName is the file name an export of a chat titled title is offered
// under: the title without characters file systems reject, and the format's extension.
func ExportFileName(title string, f Format) string {
	name := strings.TrimSpace(unsafeName.ReplaceAllString(title, " "))
	name = strings.Join(strings.Fields(name), " ")
	if r := []rune(name); len(r) > 80 {
		name = strings.TrimSpace(string(r[:80]))
	}
	if name == "" {
		name = "chat"
	}
	if f == FormatJSON {
		return name + ".json"
	}
	return name + ".md"
}

var unsafeName = regexp.MustCompile(`[<>:"/\\|?*\x00-\x1f]+`)

func writeFileAtomic(path string, data []byte) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Chmod(0o644); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
