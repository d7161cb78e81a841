package host

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/localmodel"
	"github.com/switchboard-app/switchboard/app/localmodel/download"
	"github.com/switchboard-app/switchboard/app/localmodel/gguf"
	"github.com/switchboard-app/switchboard/app/localmodel/testmodel"
)

// ggufBytes is a small valid GGUF file (metadata only).
func ggufBytes(t *testing.T, name string) []byte {
	t.Helper()
	var b bytes.Buffer
	f := &gguf.File{}
	f.Set("general.name", gguf.TypeString, name)
	if err := testmodel.Encode(&b, f); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// testCatalog points the catalog (localmodel.CatalogEnv) at one entry
// whose file is content, and returns it.
func testCatalog(t *testing.T, content []byte) localmodel.Entry {
	t.Helper()
	sum := sha256.Sum256(content)
	e := localmodel.Entry{Name: "tiny", Title: "Tiny", File: "Tiny-Q4.gguf", Size: int64(len(content)),
		SHA256: hex.EncodeToString(sum[:]), URL: "http://127.0.0.1:1/unused/Tiny-Q4.gguf", Licence: "MIT", GoodFor: "tests", Default: true}
	b, _ := json.Marshal([]localmodel.Entry{e})
	p := filepath.Join(t.TempDir(), "catalog.json")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(localmodel.CatalogEnv, p)
	return e
}

// mirror serves content under the entry's file name on 127.0.0.1.
func mirror(t *testing.T, e localmodel.Entry, content []byte) *httptest.Server {
	t.Helper()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/models/"+e.File {
			http.NotFound(w, r)
			return
		}
		http.ServeContent(w, r, e.File, time.Time{}, bytes.NewReader(content))
	}))
	t.Cleanup(ts.Close)
	return ts
}

func TestModelsDownloadAddsTheProvider(t *testing.T) {
	h := open(t)
	content := ggufBytes(t, "tiny")
	e := testCatalog(t, content)
	ts := mirror(t, e, content)

	if _, err := h.Models.Path("tiny"); !errors.Is(err, ErrModelNotInstalled) {
		t.Fatalf("Path before download = %v, want ErrModelNotInstalled", err)
	}
	if err := h.Models.SetDownloadURL(ts.URL + "/models/"); err != nil {
		t.Fatal(err)
	}
	var last int64
	if err := h.Models.Download(context.Background(), "TINY", func(done, total int64) { last = done }); err != nil {
		t.Fatal(err)
	}
	if last != e.Size {
		t.Errorf("last progress %d, want %d", last, e.Size)
	}
	p, err := h.Models.Path("tiny")
	if want := filepath.Join(h.Dir().Models(), e.File); err != nil || p != want {
		t.Fatalf("Path = %q, %v; want %q", p, err, want)
	}
	cat, err := h.Models.Catalog()
	if err != nil || len(cat) != 1 || !cat[0].Installed || cat[0].Partial != 0 || cat[0].Downloading {
		t.Fatalf("Catalog = %+v, %v", cat, err)
	}
	inst, err := h.Models.Installed()
	if err != nil || len(inst) != 1 || inst[0].Entry == nil || inst[0].Entry.Name != "tiny" || inst[0].Size != e.Size {
		t.Fatalf("Installed = %+v, %v", inst, err)
	}
	cs, _ := h.Settings.Chat()
	p0, err := cs.Provider("")
	if err != nil || p0.Name != LocalProviderName || p0.Kind != chat.KindLocal || p0.DefaultModel != "tiny" {
		t.Fatalf("default provider = %+v, %v; want %q of kind local running tiny", p0, err, LocalProviderName)
	}

	// Removing it deletes the file; the provider stays, with no model.
	if err := h.Models.Remove("tiny"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); !os.IsNotExist(err) {
		t.Errorf("the file is still there after Remove: %v", err)
	}
	if _, err := h.Models.Path("tiny"); !errors.Is(err, ErrModelNotInstalled) || !strings.Contains(err.Error(), "Settings → Models") {
		t.Errorf("Path after Remove = %v", err)
	}
}

// A download whose file is not the pinned one is refused, leaves nothing
// and adds no provider; a missing file says to check the download URL.
func TestModelsDownloadRefusesAWrongFile(t *testing.T) {
	h := open(t)
	e := testCatalog(t, ggufBytes(t, "tiny"))
	ts := mirror(t, e, ggufBytes(t, "another"))
	dir := t.TempDir()
	for _, tt := range []struct {
		url      string
		is       error
		mention  string
		sentence string // the first line a person reads: which model, why, no pointer to a page
	}{
		{ts.URL + "/models", download.ErrChecksum, "SHA-256", "Could not download Tiny: the file that arrived is not the expected one (its SHA-256 or size differs), so it was removed."},
		// A file the mirror folder lacks: the sentence says so, not only the detail.
		{dir, nil, "no such file", "Could not download Tiny: there is no file " + filepath.Join(dir, e.File) + " in the download folder."},
	} {
		if err := h.Models.SetDownloadURL(tt.url); err != nil {
			t.Fatal(err)
		}
		err := h.Models.Download(context.Background(), "tiny", nil)
		if err == nil || tt.is != nil && !errors.Is(err, tt.is) || !strings.Contains(err.Error(), tt.mention) {
			t.Errorf("%s: Download = %v, want an error mentioning %q", tt.url, err, tt.mention)
		}
		if first, _, _ := strings.Cut(Plain(err), "\n"); first != tt.sentence {
			t.Errorf("%s: the sentence is %q, want %q", tt.url, first, tt.sentence)
		}
		cat, _ := h.Models.Catalog()
		if cat[0].Installed || cat[0].Partial != 0 {
			t.Errorf("%s: after a failed download: %+v", tt.url, cat[0])
		}
	}
	if cs, _ := h.Settings.Chat(); len(cs.Providers) != 0 {
		t.Errorf("a failed download added providers: %+v", cs.Providers)
	}
}

// Cancel stops a download keeping its partial file (Catalog shows how
// much); a second download of the same model meanwhile is refused; Discard
// removes the partial file.
func TestModelsCancelAndDiscard(t *testing.T) {
	h := open(t)
	content := append(ggufBytes(t, "tiny"), make([]byte, 2<<20)...) // several copy buffers
	testCatalog(t, content)
	started, release := make(chan struct{}), make(chan struct{})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write(content[:1<<20])
		w.(http.Flusher).Flush()
		close(started)
		<-release // hold the rest until the test is done
	}))
	defer ts.Close()
	defer close(release)
	if err := h.Models.SetDownloadURL(ts.URL); err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	got1MiB := make(chan struct{})
	go func() {
		once := false
		errc <- h.Models.Download(context.Background(), "tiny", func(done, _ int64) {
			if done >= 1<<20 && !once {
				once = true
				close(got1MiB)
			}
		})
	}()
	<-started
	<-got1MiB
	if err := h.Models.Download(context.Background(), "tiny", nil); !errors.Is(err, ErrDownloadRunning) {
		t.Errorf("a second Download = %v, want ErrDownloadRunning", err)
	}
	if cat, _ := h.Models.Catalog(); !cat[0].Downloading {
		t.Errorf("Catalog does not show the download running: %+v", cat[0])
	}
	if !h.Models.Cancel("tiny") {
		t.Fatal("Cancel found no download")
	}
	if err := <-errc; !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "kept") {
		t.Fatalf("Download after Cancel = %v", err)
	}
	cat, _ := h.Models.Catalog()
	if cat[0].Partial != 1<<20 || cat[0].Installed || cat[0].Downloading {
		t.Fatalf("after Cancel: %+v, want 1 MiB partial", cat[0])
	}
	if err := h.Models.Discard("tiny"); err != nil {
		t.Fatal(err)
	}
	if cat, _ := h.Models.Catalog(); cat[0].Partial != 0 {
		t.Errorf("Discard left %d bytes", cat[0].Partial)
	}
}

func TestModelsChoose(t *testing.T) {
	h := open(t)
	testCatalog(t, []byte("x"))
	dir := t.TempDir()
	good := filepath.Join(dir, "My-Model.Q5.gguf")
	os.WriteFile(good, ggufBytes(t, "mine"), 0o644)
	notGGUF := filepath.Join(dir, "notes.gguf")
	os.WriteFile(notGGUF, []byte("hello, not a model"), 0o644)
	clash := filepath.Join(dir, "tiny.gguf")
	os.WriteFile(clash, ggufBytes(t, "tiny"), 0o644)

	for _, tt := range []struct{ path, want string }{
		{notGGUF, "is not a GGUF model file llama.cpp can run: choose a .gguf file"},
		{filepath.Join(dir, "missing.gguf"), "is not a file"},
		{dir, "is not a file"},
		{clash, "name of a model of the catalog"},
	} {
		if _, err := h.Models.Choose(tt.path); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Choose(%s) = %v, want %q", tt.path, err, tt.want)
		}
	}
	im, err := h.Models.Choose(good)
	if err != nil || im.Name != "My-Model.Q5" || im.Path != good {
		t.Fatalf("Choose = %+v, %v", im, err)
	}
	if p, err := h.Models.Path("my-model.q5"); err != nil || p != good {
		t.Errorf("Path = %q, %v", p, err)
	}
	cs, _ := h.Settings.Chat()
	if cs.Local.Files["My-Model.Q5"] != good || len(cs.Providers) != 1 || cs.Providers[0].DefaultModel != "My-Model.Q5" {
		t.Errorf("settings after Choose: %+v, providers %+v", cs.Local, cs.Providers)
	}
	if err := h.Models.Remove("My-Model.Q5"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(good); err != nil {
		t.Errorf("Remove deleted the user's own file: %v", err)
	}
	if inst, _ := h.Models.Installed(); len(inst) != 0 {
		t.Errorf("Installed after Remove = %+v", inst)
	}
}

func TestModelsSetDownloadURL(t *testing.T) {
	h := open(t)
	dir := t.TempDir()
	for _, tt := range []struct {
		url string
		ok  bool
	}{
		{"https://mirror.example/models/", true},
		{"http://127.0.0.1:8080", true},
		{"file://" + filepath.ToSlash(dir), true},
		{dir, true},
		{"", true},
		{"https://", false},
		{"ftp://mirror.example/", false},
		{filepath.Join(dir, "missing"), false},
	} {
		err := h.Models.SetDownloadURL(tt.url)
		if (err == nil) != tt.ok {
			t.Errorf("SetDownloadURL(%q) = %v, want ok=%v", tt.url, err, tt.ok)
		}
		if got, _ := h.Models.DownloadURL(); tt.ok && got != tt.url {
			t.Errorf("DownloadURL = %q after setting %q", got, tt.url)
		}
	}
}

// writeGGUF writes a GGUF at path holding one f32 tensor of n values,
// with the metadata set adds (split keys), and returns its bytes' length.
func writeGGUF(t *testing.T, path string, n int, set func(*gguf.File)) int64 {
	t.Helper()
	f := &gguf.File{Tensors: []gguf.Tensor{{Name: "w", Dims: []uint64{uint64(n)}, Type: gguf.F32, Data: make([]byte, 4*n)}}}
	f.Set("general.architecture", gguf.TypeString, "qwen3")
	if set != nil {
		set(f)
	}
	var b bytes.Buffer
	if err := testmodel.Encode(&b, f); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return int64(b.Len())
}

func splitPart(no, count uint16) func(*gguf.File) {
	return func(f *gguf.File) {
		f.Set("split.no", gguf.TypeUint16, no)
		f.Set("split.count", gguf.TypeUint16, count)
	}
}

// A file llama.cpp would refuse is refused when it is chosen, saying what
// to do: a split model's later part, a first part without its parts, a
// file cut short. A split model's first part with its parts is taken, and
// weighs all of them.
func TestModelsChooseRefusesFilesThatCannotRun(t *testing.T) {
	h := open(t)
	testCatalog(t, []byte("x"))
	dir := t.TempDir()
	var whole int64
	for i := range uint16(3) {
		whole += writeGGUF(t, filepath.Join(dir, "big", fmt.Sprintf("big-%05d-of-00003.gguf", i+1)), 1000, splitPart(i, 3))
	}
	writeGGUF(t, filepath.Join(dir, "lone", "lone-00001-of-00002.gguf"), 1000, splitPart(0, 2))
	cut := filepath.Join(dir, "cut.gguf")
	n := writeGGUF(t, cut, 100_000, nil)
	if err := os.Truncate(cut, n/2); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ file, want string }{
		{"big/big-00002-of-00003.gguf", "is part 2 of 3 of a model split in parts: choose its first part, big-00001-of-00003.gguf"},
		{"lone/lone-00001-of-00002.gguf", "part 2, lone-00002-of-00002.gguf, is not beside it: put every part in the same folder"},
		{"cut.gguf", "cut.gguf cannot run: it is cut short"},
	} {
		_, err := h.Models.Choose(filepath.Join(dir, tt.file))
		if !errors.Is(err, localmodel.ErrModelFile) || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "cannot run") {
			t.Errorf("Choose(%s) = %v, want it refused saying %q", tt.file, err, tt.want)
		}
	}
	if inst, _ := h.Models.Installed(); len(inst) != 0 {
		t.Fatalf("refused files were added: %+v", inst)
	}
	im, err := h.Models.Choose(filepath.Join(dir, "big", "big-00001-of-00003.gguf"))
	if err != nil || im.Name != "big-00001-of-00003" || im.Size != whole {
		t.Fatalf("Choose(the first part) = %+v, %v; want it, weighing the three parts' %d bytes", im, err, whole)
	}
	list, _ := h.Models.List()
	if c := list[len(list)-1]; c.Size != whole || c.RAM <= whole {
		t.Fatalf("List shows %+v: want %d bytes, and the memory it needs", c, whole)
	}
}

// Two files of one name (the same GGUF from two LM Studio publishers) are
// both kept, the second under a number; adding a file again keeps its name.
func TestModelsChooseKeepsFilesOfOneName(t *testing.T) {
	h := open(t)
	testCatalog(t, []byte("x"))
	dir := t.TempDir()
	a, b := filepath.Join(dir, "pub-a", "Qwen3-4B-Q4_K_M.gguf"), filepath.Join(dir, "pub-b", "Qwen3-4B-Q4_K_M.gguf")
	writeGGUF(t, a, 64, nil)
	writeGGUF(t, b, 64, nil)
	for _, tt := range []struct{ path, want string }{{a, "Qwen3-4B-Q4_K_M"}, {b, "Qwen3-4B-Q4_K_M-2"}, {a, "Qwen3-4B-Q4_K_M"}} {
		if im, err := h.Models.Choose(tt.path); err != nil || im.Name != tt.want {
			t.Fatalf("Choose(%s) = %+v, %v; want the name %s", tt.path, im, err, tt.want)
		}
	}
	cs, _ := h.Settings.Chat()
	if len(cs.Local.Files) != 2 || cs.Local.Files["Qwen3-4B-Q4_K_M"] != a || cs.Local.Files["Qwen3-4B-Q4_K_M-2"] != b {
		t.Fatalf("files: %+v", cs.Local.Files)
	}
}

// Ollama's and LM Studio's models are found in their folders, each once,
// an Ollama blob named as Ollama names it; adding one uses that name.
func TestModelsFoundOnThisComputer(t *testing.T) {
	h := open(t)
	testCatalog(t, []byte("x"))
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)
	t.Setenv("OLLAMA_MODELS", "")
	// LM Studio: PUBLISHER/REPOSITORY/FILE.gguf, in today's folder and the older one.
	lms := filepath.Join(home, ".lmstudio", "models")
	writeGGUF(t, filepath.Join(lms, "lmstudio-community", "Qwen3-4B-GGUF", "Qwen3-4B-Q4_K_M.gguf"), 64, nil)
	writeGGUF(t, filepath.Join(lms, "lmstudio-community", "Qwen3-4B-GGUF", "mmproj-Qwen3-4B-F16.gguf"), 64, nil)
	writeGGUF(t, filepath.Join(lms, "unsloth", "Big-GGUF", "Big-00001-of-00002.gguf"), 64, splitPart(0, 2))
	writeGGUF(t, filepath.Join(lms, "unsloth", "Big-GGUF", "Big-00002-of-00002.gguf"), 64, splitPart(1, 2))
	writeGGUF(t, filepath.Join(home, ".cache", "lm-studio", "models", "old", "Repo", "Phi-2.Q4.gguf"), 64, nil)
	// Ollama: a manifest per name and tag, pointing at the model's blob.
	ollama := filepath.Join(home, ".ollama", "models")
	hex := strings.Repeat("ab", 32)
	blob := filepath.Join(ollama, "blobs", "sha256-"+hex)
	writeGGUF(t, blob, 64, func(f *gguf.File) { f.Set("general.name", gguf.TypeString, "Qwen3 0.6B") })
	manifest := fmt.Sprintf(`{"schemaVersion":2,"layers":[{"mediaType":"application/vnd.ollama.image.template","digest":"sha256:%s"},{"mediaType":"application/vnd.ollama.image.model","digest":"sha256:%s"}]}`, strings.Repeat("cd", 32), hex)
	for _, tag := range []string{"latest", "0.6b"} {
		p := filepath.Join(ollama, "manifests", "registry.ollama.ai", "library", "qwen3", tag)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(manifest), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	found, err := h.Models.Found()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range found {
		got = append(got, f.App+" "+f.Name)
	}
	want := []string{"LM Studio Big-00001-of-00002", "LM Studio Phi-2.Q4", "LM Studio Qwen3-4B-Q4_K_M", "Ollama qwen3:0.6b"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("found %q, want %q", got, want)
	}
	im, err := h.Models.Choose(blob)
	if err != nil || im.Name != "qwen3:0.6b" {
		t.Fatalf("Choose(the blob) = %+v, %v; want it named qwen3:0.6b", im, err)
	}
	if found, _ = h.Models.Found(); found[3].Added != "qwen3:0.6b" {
		t.Fatalf("after adding it: %+v", found[3])
	}
	// A blob no manifest names: the model's own name.
	for _, p := range []string{filepath.Join(ollama, "manifests", "registry.ollama.ai", "library", "qwen3", "latest"), filepath.Join(ollama, "manifests", "registry.ollama.ai", "library", "qwen3", "0.6b")} {
		os.Remove(p)
	}
	other := filepath.Join(ollama, "blobs", "sha256-"+strings.Repeat("ef", 32))
	writeGGUF(t, other, 64, func(f *gguf.File) { f.Set("general.name", gguf.TypeString, "Mystery 1B") })
	if im, err := h.Models.Choose(other); err != nil || im.Name != "Mystery 1B" {
		t.Fatalf("Choose(an unnamed blob) = %+v, %v; want its general.name", im, err)
	}
}
