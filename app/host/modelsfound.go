package host

import (
	"cmp"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/switchboard-app/switchboard/app/localmodel"
)

// FoundModel is a GGUF model another app keeps on this computer, which
// can run here as it is (Models.Found): Ollama's and LM Studio's.
type FoundModel struct {
	// Name is what it would be added as: Ollama's name for it
	// ("qwen3:0.6b"), or LM Studio's file name without .gguf.
	Name string
	App  string // "Ollama", "LM Studio"
	Path string // the file to add (a split model's first part)
	Size int64  // bytes, every part
	// Added is the name it is added under already ("" when it is not).
	Added string
}

// The folders Found looks in, from the home folder; variables so tests
// can point them elsewhere. $OLLAMA_MODELS, when set, is Ollama's, as
// Ollama reads it.
var (
	// ollamaModels is Ollama's models folder: manifests/ and blobs/.
	ollamaModels = []string{".ollama/models"}
	// lmStudioModels are LM Studio's models folders
	// (PUBLISHER/REPOSITORY/FILE.gguf), today's and its older one.
	lmStudioModels = []string{".lmstudio/models", ".cache/lm-studio/models"}
)

// ollamaModelType is the media type of the layer of an Ollama manifest
// that is the model's GGUF file.
const ollamaModelType = "application/vnd.ollama.image.model"

// ollamaBlob is the name of a file in Ollama's blobs folder.
var ollamaBlob = regexp.MustCompile(`^sha256[-:][0-9a-f]{64}$`)

// Found is the GGUF models Ollama and LM Studio keep on this computer,
// which Choose can add as they are (nothing is copied): found by their
// folders, not by asking the apps, so neither needs to run. A vision
// projector (mmproj) and a split model's later parts are left out.
func (m *Models) Found() ([]FoundModel, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return nil, err
	}
	found := append(foundOllama(ollamaDirs(home)), foundLMStudio(home)...)
	cs, err := m.h.Settings.Chat()
	if err != nil {
		return nil, err
	}
	for i := range found {
		for k, p := range cs.Local.Files {
			if p == found[i].Path {
				found[i].Added = k
			}
		}
		if size, err := localmodel.ModelSize(found[i].Path); err == nil {
			found[i].Size = size
		}
	}
	slices.SortFunc(found, func(a, b FoundModel) int { return cmp.Or(cmp.Compare(a.App, b.App), cmp.Compare(a.Name, b.Name)) })
	return found, nil
}

// ollamaDirs are the Ollama models folders to look in.
func ollamaDirs(home string) []string {
	if d := os.Getenv("OLLAMA_MODELS"); d != "" {
		return []string{d}
	}
	var dirs []string
	for _, d := range ollamaModels {
		dirs = append(dirs, filepath.Join(home, filepath.FromSlash(d)))
	}
	return dirs
}

// ollamaManifest is the part of an Ollama manifest Found reads.
type ollamaManifest struct {
	Layers []struct {
		MediaType string `json:"mediaType"`
		Digest    string `json:"digest"`
	} `json:"layers"`
}

// foundOllama is the models of Ollama's folders: one per model blob,
// named by its manifests (manifests/HOST/NAMESPACE/MODEL/TAG).
func foundOllama(dirs []string) []FoundModel {
	var out []FoundModel
	for _, dir := range dirs {
		names := map[string][]string{} // blob path → the names of the manifests naming it
		root := filepath.Join(dir, "manifests")
		_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return nil
			}
			blob := ollamaModelBlob(dir, p)
			if blob == "" {
				return nil
			}
			if name := ollamaNameOf(filepath.ToSlash(rel)); name != "" {
				names[blob] = append(names[blob], name)
			}
			return nil
		})
		for blob, ns := range names {
			out = append(out, FoundModel{Name: preferredName(ns), App: "Ollama", Path: blob})
		}
	}
	return out
}

// ollamaModelBlob is the model blob an Ollama manifest names, "" when it
// names none that is there.
func ollamaModelBlob(dir, manifest string) string {
	b, err := os.ReadFile(manifest)
	if err != nil || len(b) > 1<<20 {
		return ""
	}
	var mf ollamaManifest
	if json.Unmarshal(b, &mf) != nil {
		return ""
	}
	for _, l := range mf.Layers {
		if l.MediaType != ollamaModelType {
			continue
		}
		hex, ok := strings.CutPrefix(l.Digest, "sha256:")
		if !ok {
			return ""
		}
		for _, name := range []string{"sha256-" + hex, "sha256:" + hex} { // the older name too
			p := filepath.Join(dir, "blobs", name)
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && ollamaBlob.MatchString(name) {
				return p
			}
		}
	}
	return ""
}

// ollamaNameOf is the name Ollama gives the model of the manifest at rel
// (HOST/NAMESPACE/MODEL/TAG): MODEL:TAG for its own library,
// NAMESPACE/MODEL:TAG from its registry, the whole path from another
// (hf.co/…).
func ollamaNameOf(rel string) string {
	parts := strings.Split(rel, "/")
	if len(parts) < 4 {
		return ""
	}
	host, ns, model, tag := strings.Join(parts[:len(parts)-3], "/"), parts[len(parts)-3], parts[len(parts)-2], parts[len(parts)-1]
	switch {
	case host == "registry.ollama.ai" && ns == "library":
		return model + ":" + tag
	case host == "registry.ollama.ai":
		return ns + "/" + model + ":" + tag
	}
	return host + "/" + ns + "/" + model + ":" + tag
}

// preferredName is the name of a blob several tags name: one that says
// its size (qwen3:0.6b) rather than :latest.
func preferredName(names []string) string {
	slices.Sort(names)
	for _, n := range names {
		if !strings.HasSuffix(n, ":latest") {
			return n
		}
	}
	return names[0]
}

// ollamaName is the name Ollama knows the blob at path by ("" when no
// manifest beside it names it).
func ollamaName(path string) string {
	dir := filepath.Dir(filepath.Dir(path)) // …/models from …/models/blobs/sha256-…
	for _, f := range foundOllama([]string{dir}) {
		if f.Path == path {
			return f.Name
		}
	}
	return ""
}

// foundLMStudio is the models of LM Studio's folders.
func foundLMStudio(home string) []FoundModel {
	var out []FoundModel
	seen := map[string]bool{}
	for _, d := range lmStudioModels {
		files, _ := filepath.Glob(filepath.Join(home, filepath.FromSlash(d), "*", "*", "*.gguf"))
		for _, p := range files {
			base := filepath.Base(p)
			if strings.HasPrefix(strings.ToLower(base), "mmproj") || localmodel.Parts(p)[0] != p || seen[p] {
				continue // a vision projector, or not a model's first part
			}
			if st, err := os.Stat(p); err != nil || !st.Mode().IsRegular() {
				continue
			}
			seen[p] = true
			out = append(out, FoundModel{Name: strings.TrimSuffix(base, filepath.Ext(base)), App: "LM Studio", Path: p})
		}
	}
	return out
}
