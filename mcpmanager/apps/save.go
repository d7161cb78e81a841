package apps

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/switchboard-app/switchboard/mcpmanager/filename"
)

// An app's ui/download-file (ext-apps 2.x) hands the host files to save:
// embedded resources (text or base64 blob) or links to resources. The app
// names them (the resource's URI, the link's name), and the name is the
// app's to choose, so it is made safe here before the save dialog offers
// it: a name, never a path.

// MaxSave bounds one file an app may save (the window holds it whole).
const MaxSave = 64 << 20

// Limits on what an app may save: in one ui/download-file request (each
// file is a save dialog once the user agreed to the batch, and every
// byte is held in memory) and in one app session (from opening the app
// to closing it), so an app cannot ask for 10,000 files, or for the same
// large file again and again. Variables, so tests can lower them.
var (
	MaxSaveFiles    = 20        // files in one request
	MaxSaveBytes    = MaxSave   // bytes in one request, all files
	MaxSessionFiles = 100       // files saved in one app session
	MaxSessionBytes = 256 << 20 // bytes saved in one app session
)

// MaxNameBytes bounds a sanitised file name, well below every file system's
// 255, so the save dialog's own suffixes still fit.
const MaxNameBytes = 120

// ErrSaveTooBig means an app's file is larger than MaxSave.
var ErrSaveTooBig = fmt.Errorf("the file is larger than %d MB, the most an app may save", MaxSave>>20)

// ErrSaveLimit means a request, or the app's session, would pass the limits
// on files saved (MaxSaveFiles, MaxSaveBytes, MaxSessionFiles,
// MaxSessionBytes); nothing of the request is saved.
var ErrSaveLimit = errors.New("more than an app may save")

// TooMany checks a request's files against MaxSaveFiles and
// MaxSaveBytes.
func TooMany(files int, bytes int64) error {
	switch {
	case files > MaxSaveFiles:
		return fmt.Errorf("the app asked to save %d files at once, %w: at most %d a request", files, ErrSaveLimit, MaxSaveFiles)
	case bytes > int64(MaxSaveBytes):
		return fmt.Errorf("the app asked to save more than %d MB at once, %w: at most %d MB a request", MaxSaveBytes>>20, ErrSaveLimit, MaxSaveBytes>>20)
	}
	return nil
}

// Budget is what one app session may still save (MaxSessionFiles,
// MaxSessionBytes). It is safe for concurrent use.
type Budget struct {
	mu    sync.Mutex
	files int
	bytes int64
}

// Fits says whether files of bytes in all would fit what the session has
// left, without taking it.
func (b *Budget) Fits(files int, bytes int64) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.fits(files, bytes)
}

func (b *Budget) fits(files int, bytes int64) error {
	switch {
	case b.files+files > MaxSessionFiles:
		return fmt.Errorf("the app has saved %d files and asks for %d more, %w: at most %d while it is open (close it and open it again for more)", b.files, files, ErrSaveLimit, MaxSessionFiles)
	case b.bytes+bytes > int64(MaxSessionBytes):
		return fmt.Errorf("the app has saved %d MB and asks for more, %w: at most %d MB while it is open (close it and open it again for more)", b.bytes>>20, ErrSaveLimit, MaxSessionBytes>>20)
	}
	return nil
}

// Take takes one file of bytes from what the session has left, or says
// why it does not fit.
func (b *Budget) Take(bytes int64) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.fits(1, bytes); err != nil {
		return err
	}
	b.files++
	b.bytes += bytes
	return nil
}

// File is one file of a ui/download-file request, ready to save.
type File struct {
	Name     string // sanitised (SafeFileName)
	MIMEType string
	Data     []byte
	// Link is the resource to read when the request only linked to it
	// (a resource_link); Data is then empty until it is read.
	Link string
}

// saveItem is one of the request's contents: an EmbeddedResource or a
// ResourceLink.
type saveItem struct {
	Type     string `json:"type"`
	URI      string `json:"uri"`
	Name     string `json:"name"`
	Title    string `json:"title"`
	MIMEType string `json:"mimeType"`
	Resource *struct {
		URI      string  `json:"uri"`
		MIMEType string  `json:"mimeType"`
		Text     *string `json:"text"`
		Blob     *string `json:"blob"`
	} `json:"resource"`
}

// FilesToSave reads a ui/download-file request's contents (its params'
// "contents" array, as JSON) into files with safe names. An embedded
// resource's bytes come with it; a resource_link is left to the caller to
// read (File.Link).
func FilesToSave(contents []byte) ([]File, error) {
	var items []saveItem
	if err := json.Unmarshal(contents, &items); err != nil {
		return nil, fmt.Errorf("the app's download is not a list of resources: %w", err)
	}
	if len(items) == 0 {
		return nil, errors.New("the app asked to download nothing")
	}
	if err := TooMany(len(items), 0); err != nil {
		return nil, err
	}
	files := make([]File, 0, len(items))
	var total int64
	for i, it := range items {
		switch it.Type {
		case "resource":
			r := it.Resource
			if r == nil {
				return nil, fmt.Errorf("item %d: an embedded resource without its resource", i+1)
			}
			f := File{MIMEType: r.MIMEType}
			switch {
			case r.Blob != nil:
				if base64.StdEncoding.DecodedLen(len(*r.Blob)) > MaxSave+3 {
					return nil, ErrSaveTooBig
				}
				b, err := base64.StdEncoding.DecodeString(*r.Blob)
				if err != nil {
					return nil, fmt.Errorf("item %d: its blob is not base64: %w", i+1, err)
				}
				f.Data = b
			case r.Text != nil:
				f.Data = []byte(*r.Text)
			default:
				return nil, fmt.Errorf("item %d: an embedded resource with neither text nor blob", i+1)
			}
			if len(f.Data) > MaxSave {
				return nil, ErrSaveTooBig
			}
			if total += int64(len(f.Data)); total > int64(MaxSaveBytes) {
				return nil, TooMany(len(items), total)
			}
			f.Name = SafeFileName(uriBase(r.URI), r.MIMEType)
			files = append(files, f)
		case "resource_link":
			if it.URI == "" {
				return nil, fmt.Errorf("item %d: a resource link without its uri", i+1)
			}
			name := it.Name
			if ext := path.Ext(uriBase(it.URI)); ext != "" && path.Ext(name) == "" {
				name += ext // "Q4 Report" of …/q4.pdf is saved as "Q4 Report.pdf"
			}
			files = append(files, File{Name: SafeFileName(name, it.MIMEType), MIMEType: it.MIMEType, Link: it.URI})
		default:
			return nil, fmt.Errorf("item %d: %q is not a resource or a resource_link", i+1, it.Type)
		}
	}
	return files, nil
}

// uriBase is the last segment of a URI's path ("export.json" of
// file:///export.json), unescaped; "" when it has none.
func uriBase(raw string) string {
	p := raw
	if u, err := url.Parse(raw); err == nil {
		p = u.Path
		if p == "" {
			p = u.Opaque
		}
	}
	p = strings.TrimRight(p, "/")
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		p = p[i+1:]
	}
	return p
}

// SafeFileName turns the name an app gave a file into one the save dialog
// may offer: only its last path element (no directories, on any system),
// made safe by filename.Sanitize (no control or invisible characters, none
// of <>:"/\|?*, no trailing dots or spaces, not a Windows device name),
// no leading dots (no hidden file or ".."), at most MaxNameBytes bytes
// with the extension kept, and "download" (with an extension from
// mimeType) when nothing is left.
func SafeFileName(name, mimeType string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	name = strings.TrimLeft(filename.Sanitize(name), ". ")
	ext := path.Ext(name)
	if len(ext) > 16 || ext == name {
		ext = ""
	}
	stem := strings.TrimSuffix(name, ext)
	if stem == "" {
		stem = "download"
		if ext == "" {
			ext = extensionOf(mimeType)
		}
	}
	for len(stem)+len(ext) > MaxNameBytes {
		_, size := utf8.DecodeLastRuneInString(stem)
		stem = stem[:len(stem)-size]
	}
	// Cutting the stem may leave a device name or a trailing dot: once
	// more through the one check.
	if out := filename.Sanitize(strings.TrimRight(stem, ". ") + ext); filename.Check(out) == nil && out != "" {
		return out
	}
	return "download" + extensionOf(mimeType)
}

// extensionOf is the usual extension of a MIME type ("" when unknown).
func extensionOf(mimeType string) string {
	mt, _, err := mime.ParseMediaType(mimeType)
	if err != nil {
		return ""
	}
	common := map[string]string{"text/plain": ".txt", "text/csv": ".csv", "application/json": ".json", "text/html": ".html",
		"text/markdown": ".md", "application/pdf": ".pdf", "image/png": ".png", "image/jpeg": ".jpg", "image/svg+xml": ".svg"}
	if e, ok := common[mt]; ok {
		return e
	}
	if exts, _ := mime.ExtensionsByType(mt); len(exts) > 0 {
		return exts[0]
	}
	return ""
}

// SaveFile writes data to path (the one the user chose in the save
// dialog) through a temporary file in the same folder, so a failure never
// leaves half a file under the user's name.
func SaveFile(path string, data []byte) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.part")
	if err != nil {
		return fmt.Errorf("the file could not be saved in %s: %w", dir, err)
	}
	defer os.Remove(tmp.Name()) // gone after the rename; cleans up after a failure
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("the file could not be written: %w", err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("the file could not be written: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("the file could not be saved as %s: %w", path, err)
	}
	return nil
}

// DownloadsDir is the folder the save dialog opens in: the user's
// downloads folder (XDG_DOWNLOAD_DIR from user-dirs.dirs on Linux,
// ~/Downloads elsewhere or without it) when it exists, else home.
func DownloadsDir() string {
	home, _ := os.UserHomeDir()
	cfg := os.Getenv("XDG_CONFIG_HOME")
	if cfg == "" && home != "" {
		cfg = filepath.Join(home, ".config")
	}
	if d := xdgDownloadDir(filepath.Join(cfg, "user-dirs.dirs"), home); d != "" && isDir(d) {
		return d
	}
	if d := filepath.Join(home, "Downloads"); home != "" && isDir(d) {
		return d
	}
	return home
}

// xdgDownloadDir reads XDG_DOWNLOAD_DIR="$HOME/…" from a user-dirs.dirs file.
func xdgDownloadDir(file, home string) string {
	f, err := os.Open(file)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		v, ok := strings.CutPrefix(line, "XDG_DOWNLOAD_DIR=")
		if !ok {
			continue
		}
		v = strings.Trim(v, `"`)
		if rest, ok := strings.CutPrefix(v, "$HOME"); ok {
			v = home + rest
		}
		if filepath.IsAbs(v) {
			return v
		}
	}
	return ""
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
