package host

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/localmodel"
	"github.com/switchboard-app/switchboard/app/localmodel/download"
	"github.com/switchboard-app/switchboard/app/localmodel/gguf"
	"github.com/switchboard-app/switchboard/mcpmanager/plain"
)

// Models are the files of the models that run on this computer: the
// pinned catalog, downloading its models (verified, resumable, one at a
// time per model), GGUF files the user chose instead, and the provider
// "On this computer" that appears once a model is there. The runtime that
// runs them (Local) asks Path for a model's file.
type Models struct {
	h       *Host
	mu      sync.Mutex
	running map[string]*modelDownload // by catalog name, lower case
	ram     sync.Map                  // a chosen file's path → ramAt: its RAM estimate until the file changes
}

// ramAt is a chosen file's RAM estimate and the file it is of.
type ramAt struct {
	mod  time.Time
	size int64
	ram  int64
}

// modelDownload is one download in progress.
type modelDownload struct {
	cancel context.CancelFunc
	done   chan struct{}
}

// ModelBytes is a model's size (a file, a download, the memory it needs)
// as both front doors say it: decimal units, as download sites show them
// (localmodel.Size; the window's formatBytes follows the same rule).
func ModelBytes(n int64) string { return localmodel.Size(n) }

// LocalProviderName is the name of the provider of kind chat.KindLocal
// that a downloaded or chosen model adds.
const LocalProviderName = "On this computer"

// CatalogModel is a catalog entry and how much of it is on this computer.
type CatalogModel struct {
	localmodel.Entry
	Installed   bool   // the verified file is in the models directory
	Path        string // where it is (or will be)
	Partial     int64  // bytes of an unfinished download (a .part)
	Downloading bool   // a download runs now
	// Chosen: not of the catalog but a GGUF file the user chose (List);
	// Entry then has its name, title, file name and size only.
	Chosen bool
}

// InstalledModel is a model that can run: a downloaded catalog file or a
// GGUF file the user chose.
type InstalledModel struct {
	Name  string
	Title string
	Path  string
	Size  int64
	Entry *localmodel.Entry // nil for a chosen file
}

func newModels(h *Host) *Models { return &Models{h: h, running: map[string]*modelDownload{}} }

// entries is the catalog: the pinned one, or the file localmodel.CatalogEnv
// names (tests).
func (m *Models) entries() ([]localmodel.Entry, error) {
	if p := os.Getenv(localmodel.CatalogEnv); p != "" {
		return localmodel.ReadCatalog(p)
	}
	return localmodel.Catalog(), nil
}

func (m *Models) entry(name string) (localmodel.Entry, error) {
	es, err := m.entries()
	if err != nil {
		return localmodel.Entry{}, err
	}
	i := slices.IndexFunc(es, func(e localmodel.Entry) bool { return strings.EqualFold(e.Name, name) })
	if i < 0 {
		names := make([]string, len(es))
		for i, e := range es {
			names[i] = e.Name
		}
		return localmodel.Entry{}, fmt.Errorf("%q %w: choose one of %s, or choose a GGUF file", name, ErrNotInCatalog, strings.Join(names, ", "))
	}
	return es[i], nil
}

// file is where a catalog entry is downloaded to.
func (m *Models) file(e localmodel.Entry) string { return filepath.Join(m.h.dir.Models(), e.File) }

// Catalog is the catalog's models and what of each is on this computer.
func (m *Models) Catalog() ([]CatalogModel, error) {
	es, err := m.entries()
	if err != nil {
		return nil, err
	}
	out := make([]CatalogModel, len(es))
	for i, e := range es {
		c := CatalogModel{Entry: e, Path: m.file(e)}
		if st, err := os.Stat(c.Path); err == nil && st.Mode().IsRegular() {
			c.Installed = true
		}
		if st, err := os.Stat(c.Path + download.Part); err == nil {
			c.Partial = st.Size()
		}
		m.mu.Lock()
		_, c.Downloading = m.running[strings.ToLower(e.Name)]
		m.mu.Unlock()
		out[i] = c
	}
	return out, nil
}

// List is what the window and 'models list' show: the catalog (with how
// much of each is here), then the GGUF files the user chose.
func (m *Models) List() ([]CatalogModel, error) {
	list, err := m.Catalog()
	if err != nil {
		return nil, err
	}
	inst, err := m.Installed()
	if err != nil {
		return nil, err
	}
	for _, im := range inst {
		if im.Entry == nil {
			c := im.Listed()
			c.RAM = m.ramOf(im.Path)
			list = append(list, c)
		}
	}
	return list, nil
}

// Listed is a chosen file as List shows it (without its RAM: see
// Models.List).
func (im InstalledModel) Listed() CatalogModel {
	return CatalogModel{Entry: localmodel.Entry{Name: im.Name, Title: im.Title, File: filepath.Base(im.Path), Size: im.Size},
		Installed: true, Path: im.Path, Chosen: true}
}

// ramOf is the memory a chosen file needs at the catalog's context
// (localmodel.RAM), read from its header once per version of the file; 0
// when it cannot be read.
func (m *Models) ramOf(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	if v, ok := m.ram.Load(path); ok {
		if r := v.(ramAt); r.mod.Equal(st.ModTime()) && r.size == st.Size() {
			return r.ram
		}
	}
	ram, err := localmodel.RAM(path)
	if err != nil {
		return 0
	}
	m.ram.Store(path, ramAt{st.ModTime(), st.Size(), ram})
	return ram
}

// Download fetches a catalog model (from the download URL setting when
// one is set, else the model's own URL), resuming a partial download,
// checks it against its pinned size and SHA-256, and then adds the
// provider "On this computer" if it is missing. progress (may be nil)
// hears bytes done of total. It returns when the download ends: a
// cancelled ctx or Cancel keeps the partial file for a later Download.
func (m *Models) Download(ctx context.Context, name string, progress func(done, total int64)) error {
	e, err := m.entry(name)
	if err != nil {
		return err
	}
	cs, err := m.h.Settings.Chat()
	if err != nil {
		return err
	}
	src, err := downloadSource(cs.Local.DownloadURL, e)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	key := strings.ToLower(e.Name)
	d := &modelDownload{cancel: cancel, done: make(chan struct{})}
	m.mu.Lock()
	if _, ok := m.running[key]; ok {
		m.mu.Unlock()
		return fmt.Errorf("%s %w", e.Title, ErrDownloadRunning)
	}
	m.running[key] = d
	m.mu.Unlock()
	defer func() {
		m.mu.Lock()
		delete(m.running, key)
		m.mu.Unlock()
		close(d.done)
	}()
	dest := m.file(e)
	if _, err := os.Stat(dest); err != nil {
		err = download.Get(ctx, src, dest, e.SHA256, e.Size, progress)
		switch {
		case ctx.Err() != nil:
			return fmt.Errorf("download of %s cancelled; the partial file is kept, so downloading again resumes it: %w", e.Title, ctx.Err())
		case err != nil:
			return &DownloadError{Model: e.Title, Err: err}
		}
	}
	return m.addProvider(e.Name)
}

// DownloadError is a model download that failed (not cancelled; a file
// that did not match its pinned SHA-256 or size is one, WrongFile). Its plain sentence says which model
// and why in a few words ("huggingface.co cannot be found"), without
// advice: the window offers Retry, the download URL (a mirror) and Choose a
// GGUF file beside it, the CLI names its commands for them.
type DownloadError struct {
	Model string // the catalog title
	Err   error
}

func (e *DownloadError) Error() string {
	return fmt.Sprintf("could not download %s: %v", e.Model, e.Err)
}
func (e *DownloadError) Unwrap() error { return e.Err }

// WrongFile says the file arrived but is not the pinned one (its SHA-256
// or size differs), so it was removed: a wrong download URL rather than a
// network failure.
func (e *DownloadError) WrongFile() bool { return errors.Is(e.Err, download.ErrChecksum) }

// Plain is the sentence ("Could not download Qwen3 1.7B: huggingface.co
// cannot be found.") and the technical detail. The sentence always says
// why, in a few words: the technical text when nothing better is known.
func (e *DownloadError) Plain() (sentence, detail string) {
	why := e.why()
	return "Could not download " + e.Model + ": " + why + ".", e.Err.Error()
}

// why is the download's failure in a few words.
func (e *DownloadError) why() string {
	if why := plain.Cause(e.Err); why != "" {
		return why
	}
	var pe *fs.PathError
	switch {
	case errors.Is(e.Err, download.ErrChanged):
		return "the file was changed on disk during the download (by another program), so it was removed; download it again"
	case e.WrongFile():
		return "the file that arrived is not the expected one (its SHA-256 or size differs), so it was removed"
	case errors.Is(e.Err, download.ErrStalled):
		return "the server stopped sending; what arrived is kept, so downloading again resumes it"
	case errors.Is(e.Err, io.ErrUnexpectedEOF), errors.Is(e.Err, syscall.ECONNRESET), errors.Is(e.Err, syscall.EPIPE):
		return "the connection broke off; what arrived is kept, so downloading again resumes it"
	case errors.As(e.Err, &pe) && errors.Is(pe.Err, fs.ErrNotExist):
		return "there is no file " + pe.Path + " in the download folder"
	}
	if st, ok := errors.AsType[*download.StatusError](e.Err); ok {
		if u, err := url.Parse(st.URL); err == nil && u.Host != "" {
			return u.Host + " answered " + st.Status
		}
		return "the server answered " + st.Status
	}
	inner := e.Err
	for u := errors.Unwrap(inner); u != nil; u = errors.Unwrap(inner) {
		inner = u
	}
	return plain.FirstLine(inner.Error(), 160)
}

// downloadSource is where entry e is downloaded from: base (the download
// URL setting: a mirror's URL or a directory) joined with its file name,
// else its own URL.
func downloadSource(base string, e localmodel.Entry) (string, error) {
	if base == "" {
		return e.URL, nil
	}
	if err := checkDownloadURL(base); err != nil {
		return "", err
	}
	if u, err := url.Parse(base); err == nil && (u.Scheme == "http" || u.Scheme == "https") {
		return strings.TrimSuffix(base, "/") + "/" + url.PathEscape(e.File), nil
	}
	return filepath.Join(localPath(base), e.File), nil
}

// localPath is the directory of a file:// URL or a plain path.
func localPath(s string) string {
	if u, err := url.Parse(s); err == nil && u.Scheme == "file" {
		return filepath.FromSlash(u.Path)
	}
	return s
}

// checkDownloadURL accepts an http(s) URL with a host, or a file:// URL or
// a path naming an existing directory.
func checkDownloadURL(s string) error {
	if u, err := url.Parse(s); err == nil && (u.Scheme == "http" || u.Scheme == "https") {
		if u.Host == "" {
			return fmt.Errorf("download URL %q has no host: write it as https://mirror.example/models/", s)
		}
		return nil
	}
	if u, err := url.Parse(s); err == nil && len(u.Scheme) > 1 && u.Scheme != "file" {
		return fmt.Errorf("download URL %q: use https://, http://, file:// or a folder on this computer", s)
	}
	if st, err := os.Stat(localPath(s)); err != nil || !st.IsDir() {
		return fmt.Errorf("download URL %q is not a folder on this computer: give an existing folder, or an https:// URL", s)
	}
	return nil
}

// DownloadURL is the download URL setting ("" when models come from their
// own URLs).
func (m *Models) DownloadURL() (string, error) {
	cs, err := m.h.Settings.Chat()
	return cs.Local.DownloadURL, err
}

// SetDownloadURL saves where models are downloaded from: an http(s) base
// URL (a mirror), or a folder (file:// or a path); "" goes back to each
// model's own URL.
func (m *Models) SetDownloadURL(u string) error {
	u = strings.TrimSpace(u)
	if u != "" {
		if err := checkDownloadURL(u); err != nil {
			return err
		}
	}
	return m.h.Settings.EditChat(func(s *ChatSettings) error {
		s.Local.DownloadURL = u
		return nil
	})
}

// Cancel stops the download of a model (the partial file stays); false
// when none runs.
func (m *Models) Cancel(name string) bool {
	m.mu.Lock()
	d, ok := m.running[strings.ToLower(name)]
	m.mu.Unlock()
	if ok {
		d.cancel()
	}
	return ok
}

// Discard stops a download and removes its partial file.
func (m *Models) Discard(name string) error {
	e, err := m.entry(name)
	if err != nil {
		return err
	}
	m.mu.Lock()
	d, ok := m.running[strings.ToLower(e.Name)]
	m.mu.Unlock()
	if ok { // wait until it stopped writing the file
		d.cancel()
		<-d.done
	}
	if err := os.Remove(m.file(e) + download.Part); err != nil && !os.IsNotExist(err) {
		return err
	}
	return nil
}

// Choose makes a GGUF file the user picked a model that can run. It is
// checked first as llama.cpp will load it (localmodel.CheckModel: a split
// model's first part with its parts beside it, a file not cut short), so
// one that cannot run is refused now, saying what to do. Its name is the
// file's name without .gguf; an Ollama blob's (sha256-…) is the name
// Ollama gives it (qwen3:0.6b), else the model's own general.name. A
// name another file has already gets a number (NAME-2), so a file is
// never replaced by another of the same name; a file added before keeps
// its name. The file stays where it is.
func (m *Models) Choose(path string) (InstalledModel, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return InstalledModel{}, err
	}
	st, err := os.Stat(abs)
	if err != nil || !st.Mode().IsRegular() {
		return InstalledModel{}, fmt.Errorf("%s is not a file: choose a .gguf model file", path)
	}
	meta, err := localmodel.CheckModel(abs)
	if mf, ok := errors.AsType[*localmodel.ModelFileError](err); ok {
		return InstalledModel{}, mf // "X.gguf cannot run: it is …: do this"
	}
	if err != nil {
		// The sentence, then the reader's detail (a window shows it behind a disclosure).
		return InstalledModel{}, fmt.Errorf("%s is not a GGUF model file llama.cpp can run: choose a .gguf file (GGUF version 2 or 3)\n%w", filepath.Base(abs), err)
	}
	name := modelName(abs, meta)
	if _, err := m.entry(name); err == nil {
		return InstalledModel{}, fmt.Errorf("%q is the name of a model of the catalog: rename the file, or download that model instead", name)
	}
	err = m.h.Settings.EditChat(func(s *ChatSettings) error {
		if s.Local.Files == nil {
			s.Local.Files = map[string]string{}
		}
		name = freeName(s.Local.Files, name, abs)
		s.Local.Files[name] = abs
		return nil
	})
	if err != nil {
		return InstalledModel{}, err
	}
	if err := m.addProvider(name); err != nil {
		return InstalledModel{}, err
	}
	size, err := localmodel.ModelSize(abs)
	if err != nil {
		size = st.Size()
	}
	return InstalledModel{Name: name, Title: name, Path: abs, Size: size}, nil
}

// freeName is the name a chosen file at path is added under: the name it
// has already when it was added before, else name, or name-2, -3, … when
// another file that is still there has that name (whatever its case).
func freeName(files map[string]string, name, path string) string {
	for k, p := range files {
		if p == path {
			return k
		}
	}
	for k, p := range files { // a name whose file is gone is free again (the file moved)
		if _, err := os.Stat(p); strings.EqualFold(k, name) && errors.Is(err, os.ErrNotExist) {
			delete(files, k)
		}
	}
	taken := func(n string) bool {
		for k := range files {
			if strings.EqualFold(k, n) {
				return true
			}
		}
		return false
	}
	free := name
	for i := 2; taken(free); i++ {
		free = fmt.Sprintf("%s-%d", name, i)
	}
	return free
}

// modelName is the name a chosen file runs under: its file name without
// .gguf, or for an Ollama blob (a name of sha256-… that says nothing), the
// name Ollama knows it by, else its metadata's general.name.
func modelName(path string, meta *gguf.File) string {
	base := filepath.Base(path)
	name := strings.TrimSuffix(base, filepath.Ext(base))
	if !ollamaBlob.MatchString(base) {
		return name
	}
	if n := ollamaName(path); n != "" {
		return n
	}
	if n := strings.TrimSpace(meta.String("general.name")); n != "" {
		return n
	}
	return name
}

// addProvider adds the provider "On this computer" with model as its
// model, or gives the existing one that model when it has none; Put makes
// it the default provider when there is none.
func (m *Models) addProvider(model string) error {
	return m.h.Settings.EditChat(func(s *ChatSettings) error {
		i := slices.IndexFunc(s.Providers, func(p ProviderSettings) bool { return p.Kind == chat.KindLocal })
		if i >= 0 {
			if s.Providers[i].DefaultModel == "" {
				s.Providers[i].DefaultModel = model
			}
			return nil
		}
		return s.Put(ProviderSettings{Name: LocalProviderName, Kind: chat.KindLocal, DefaultModel: model})
	})
}

// Remove deletes a downloaded model's file, or forgets a chosen one (the
// file stays where it is); the window confirms first. A local provider
// whose model it was moves to another installed model.
func (m *Models) Remove(name string) error {
	cs, err := m.h.Settings.Chat()
	if err != nil {
		return err
	}
	chosen := ""
	for k := range cs.Local.Files {
		if strings.EqualFold(k, name) {
			chosen = k
		}
	}
	// The runtime lets go of the file first (Windows cannot delete a file
	// in use; elsewhere it would keep the memory of a model that is gone).
	if st := m.h.Local.Status(); strings.EqualFold(st.Model, name) && st.State != "stopped" {
		if err := m.h.Local.Stop(m.h.ctx); err != nil {
			return err
		}
	}
	if chosen == "" {
		e, err := m.entry(name)
		if err != nil {
			return fmt.Errorf("%q %w", name, ErrModelNotInstalled)
		}
		if err := m.Discard(e.Name); err != nil {
			return err
		}
		if err := os.Remove(m.file(e)); err != nil {
			if os.IsNotExist(err) {
				return fmt.Errorf("%s %w", e.Title, ErrModelNotInstalled)
			}
			return err
		}
		_ = os.Remove(m.file(e) + download.Lock)
	}
	m.h.Local.forget(name) // Settings no longer shows it as the model that runs
	rest, err := m.Installed()
	if err != nil {
		return err
	}
	return m.h.Settings.EditChat(func(s *ChatSettings) error {
		delete(s.Local.Files, chosen)
		for i, p := range s.Providers {
			if p.Kind == chat.KindLocal && strings.EqualFold(p.DefaultModel, name) {
				s.Providers[i].DefaultModel = ""
				for _, r := range rest {
					if !strings.EqualFold(r.Name, name) {
						s.Providers[i].DefaultModel = r.Name
						break
					}
				}
			}
		}
		return nil
	})
}

// Installed are the models that can run: the catalog's downloaded ones,
// then the chosen files (by name).
func (m *Models) Installed() ([]InstalledModel, error) {
	es, err := m.entries()
	if err != nil {
		return nil, err
	}
	cs, err := m.h.Settings.Chat()
	if err != nil {
		return nil, err
	}
	var out []InstalledModel
	for _, e := range es {
		if st, err := os.Stat(m.file(e)); err == nil && st.Mode().IsRegular() {
			out = append(out, InstalledModel{Name: e.Name, Title: e.Title, Path: m.file(e), Size: st.Size(), Entry: &e})
		}
	}
	var chosen []InstalledModel
	for name, p := range cs.Local.Files {
		if size, err := localmodel.ModelSize(p); err == nil { // every part of a split model
			chosen = append(chosen, InstalledModel{Name: name, Title: name, Path: p, Size: size})
		}
	}
	slices.SortFunc(chosen, func(a, b InstalledModel) int { return cmp.Compare(a.Name, b.Name) })
	return append(out, chosen...), nil
}

// Path is the GGUF file of an installed model (downloaded or chosen), or
// an error wrapping ErrModelNotInstalled that says where to get it.
func (m *Models) Path(name string) (string, error) {
	all, err := m.Installed()
	if err != nil {
		return "", err
	}
	for _, im := range all {
		if strings.EqualFold(im.Name, name) {
			return im.Path, nil
		}
	}
	miss := &ModelMissingError{Name: name}
	if e, err := m.entry(name); err == nil {
		miss.Name, miss.Title, miss.Catalog = e.Name, e.Title, true
	}
	if cs, err := m.h.Settings.Chat(); err == nil {
		for k, p := range cs.Local.Files {
			if strings.EqualFold(k, name) {
				miss.Name, miss.File = k, p
			}
		}
	}
	return "", miss
}

// ModelMissingError is a model a chat (or a command) asks for that is not
// on this computer: a catalog model not downloaded (or removed since), a
// chosen file that is gone, or a name neither knows. Its sentence says
// what to do in both front doors' words (it is stored with the chat's
// answer, which either may show).
type ModelMissingError struct {
	Name    string
	Title   string // the catalog's title (Catalog)
	Catalog bool   // a model of the catalog
	File    string // the chosen file that is gone ("" for none)
}

func (e *ModelMissingError) Error() string {
	switch {
	case e.Catalog:
		return fmt.Sprintf("%s (%s) is not on this computer: download it in Settings → Models or with 'switchboard models download %s', or choose another model for this chat", e.Title, e.Name, e.Name)
	case e.File != "":
		return fmt.Sprintf("the model %s is not on this computer any more (its file %s is gone): add the file again in Settings → Models (Choose a GGUF file…) or with 'switchboard models add FILE', or choose another model for this chat", e.Name, e.File)
	}
	return fmt.Sprintf("the model %q is not on this computer: download one or add a GGUF file in Settings → Models, or with 'switchboard models download NAME' or 'switchboard models add FILE'", e.Name)
}

func (e *ModelMissingError) Unwrap() error { return ErrModelNotInstalled }
