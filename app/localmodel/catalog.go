package localmodel

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
)

// Entry is one model of the catalog: a GGUF file pinned by its size and
// SHA-256, so that a download (from Hugging Face or a mirror) is used only
// when it is exactly the file the catalog names.
type Entry struct {
	Name    string // the model's name in the app ("qwen3-1.7b")
	Title   string // how the window shows it ("Qwen3 1.7B")
	File    string // the GGUF file's name, also its name in the models directory
	URL     string // its own download URL
	Size    int64  // bytes
	SHA256  string // lower-case hex
	Licence string // SPDX identifier
	GoodFor string // one line: what it is good for
	// KVBytesPerToken is what one token of context costs in the KV cache
	// at f16 (layers × KV heads × head size × 2 (K and V) × 2 bytes), for
	// the RAM figure shown before the download; once the file is here, Fit
	// reads the same from the GGUF's own header.
	KVBytesPerToken int64
	// RAM is the memory it needs to run at DefaultContext: the weights,
	// the KV cache and the compute buffers.
	RAM     int64
	Default bool // the one offered first
}

// DefaultContext is the context size (tokens) the catalog's RAM figures
// are for.
const DefaultContext = 8192

// hf is a Hugging Face file's download URL at the repository's main branch;
// the pinned SHA-256 is what guards against the branch moving.
func hf(repo, file string) string {
	return "https://huggingface.co/" + repo + "/resolve/main/" + file
}

// catalog is the short pinned list. Sizes and hashes are Hugging Face's
// (the Git LFS object id is the file's SHA-256), each confirmed by a second
// independent listing of the same file.
var catalog = func() []Entry {
	// Qwen3 0.6B and 1.7B have the same attention shape: 28 layers, 8 KV
	// heads of 128.
	const qwen3KV = 28 * 8 * 128 * 2 * 2
	es := []Entry{
		{
			Name: "qwen3-1.7b", Title: "Qwen3 1.7B", File: "Qwen3-1.7B-Q4_K_M.gguf",
			URL:  hf("unsloth/Qwen3-1.7B-GGUF", "Qwen3-1.7B-Q4_K_M.gguf"),
			Size: 1_107_409_472, SHA256: "b139949c5bd74937ad8ed8c8cf3d9ffb1e99c866c823204dc42c0d91fa181897",
			Licence: "Apache-2.0", GoodFor: "Everyday chat with tools on a laptop: the best small all-rounder",
			KVBytesPerToken: qwen3KV, Default: true,
		},
		{
			Name: "qwen3-0.6b", Title: "Qwen3 0.6B", File: "Qwen3-0.6B-Q4_K_M.gguf",
			URL:  hf("unsloth/Qwen3-0.6B-GGUF", "Qwen3-0.6B-Q4_K_M.gguf"),
			Size: 396_705_472, SHA256: "ac2d97712095a558e31573f62f466a3f9d93990898b0ec79d7c974c1780d524a",
			Licence: "Apache-2.0", GoodFor: "Small or older machines: fast, simple tool calls, weaker reasoning",
			KVBytesPerToken: qwen3KV,
		},
	}
	for i := range es {
		es[i].RAM = es[i].Size + es[i].KVBytesPerToken*DefaultContext + computeBytes
	}
	return es
}()

// Catalog is the pinned list, the default first (a copy: callers may
// change it).
func Catalog() []Entry { return slices.Clone(catalog) }

// CatalogEnv names a JSON file (a list of Entry, their Go field names as
// keys) that replaces the pinned catalog. It is for tests: the end-to-end
// test downloads a small random-weights model whose hash no pin can know.
// A download URL pointing at a mirror is deliberately not enough to change
// what is checked — the pins must hold whatever the mirror serves — so the
// only way to trust another file is to change the catalog itself, which
// a person does knowingly, outside the app's settings.
const CatalogEnv = "SWITCHBOARD_MODEL_CATALOG"

// ReadCatalog reads a catalog file (see CatalogEnv): each entry needs a
// name, a .gguf file, a size and a SHA-256.
func ReadCatalog(path string) ([]Entry, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("the model catalog %s (%s): %w", path, CatalogEnv, err)
	}
	var es []Entry
	if err := json.Unmarshal(b, &es); err != nil {
		return nil, fmt.Errorf("the model catalog %s (%s): %w", path, CatalogEnv, err)
	}
	for i, e := range es {
		if e.Name == "" || !strings.HasSuffix(e.File, ".gguf") || e.Size <= 0 || len(e.SHA256) != 64 || strings.ContainsAny(e.File, `/\`) {
			return nil, fmt.Errorf("the model catalog %s (%s): entry %d needs a Name, a File ending in .gguf (a name, not a path), a Size and a SHA256", path, CatalogEnv, i)
		}
	}
	return es, nil
}
