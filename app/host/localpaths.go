package host

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/switchboard-app/switchboard/app/chat"
)

// ErrNoLocalModel: the model named is not installed here.
var ErrNoLocalModel = errors.New("this model is not on this computer: download it or choose its GGUF file in Settings → Providers")

// modelPath is the GGUF file of the local model named name: a file the
// user chose, else one downloaded to the data dir's models folder.
func (h *Host) modelPath(s chat.Settings, name string) (string, error) {
	if p, ok := s.Local.Files[name]; ok {
		return p, nil
	}
	p := filepath.Join(h.dir.Models(), name+".gguf")
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("%q: %w", name, ErrNoLocalModel)
	}
	return p, nil
}

// localModelNames are the models installed to run here.
func (h *Host) localModelNames(s chat.Settings) ([]string, error) {
	var names []string
	for n := range s.Local.Files {
		names = append(names, n)
	}
	ents, err := os.ReadDir(h.dir.Models())
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	for _, e := range ents {
		if n, ok := strings.CutSuffix(e.Name(), ".gguf"); ok && !e.IsDir() {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return slices.Compact(names), nil
}

func statFile(p string) (os.FileInfo, error) {
	st, err := os.Stat(p)
	if err != nil {
		return nil, fmt.Errorf("the model file: %w", err)
	}
	return st, nil
}
