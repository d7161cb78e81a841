package bundle

import (
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/switchboard-app/switchboard/mcpmanager/filename"
)

// Dir is where a bundle of name and version is unpacked under root.
func Dir(root, name, version string) string { return filepath.Join(root, name, version) }

// CheckArchive refuses a bundle that cannot be installed as it is, before
// anything is written, so that a form can say so at once: an entry whose
// path is absolute or leaves the folder (zip-slip), a symbolic link or
// other non-regular file, more than MaxFiles entries or more than
// MaxUnpackedBytes in all (*UnsafeError); and an entry point missing from
// the archive while the server's command line runs it (a *ManifestError:
// the server could never start). A command line that does not name the
// entry point (a node bundle that runs "npx -y PACKAGE", as mcpb's npx
// example does) needs none.
func (b *Bundle) CheckArchive() error {
	if len(b.zip.File) > MaxFiles {
		return &UnsafeError{Why: fmt.Sprintf("has %d files, over the limit of %d", len(b.zip.File), MaxFiles)}
	}
	var total uint64
	for _, f := range b.zip.File {
		if err := checkEntry(f.Name); err != nil {
			return &UnsafeError{Path: f.Name, Why: err.Error()}
		}
		mode := f.Mode()
		if mode&os.ModeSymlink != 0 {
			return &UnsafeError{Path: f.Name, Why: "is a symbolic link"}
		}
		if !mode.IsRegular() && !mode.IsDir() {
			return &UnsafeError{Path: f.Name, Why: "is not a regular file"}
		}
		total += f.UncompressedSize64
		if total > uint64(MaxUnpackedBytes) {
			return &UnsafeError{Why: fmt.Sprintf("unpacks to more than %d MB", MaxUnpackedBytes>>20)}
		}
	}
	m := &b.Manifest
	if m.runsEntryPoint("") && !b.hasFile(m.Server.EntryPoint) {
		return &ManifestError{Field: "server.entry_point", Err: fmt.Errorf("%q is not in the bundle, and the server's command line runs it, so it could never start", m.Server.EntryPoint)}
	}
	return nil
}

// hasFile reports whether the archive holds name as a file.
func (b *Bundle) hasFile(name string) bool {
	want := path.Clean(strings.ReplaceAll(name, `\`, "/"))
	for _, f := range b.zip.File {
		if path.Clean(strings.ReplaceAll(f.Name, `\`, "/")) == want && !f.Mode().IsDir() && !strings.HasSuffix(f.Name, "/") {
			return true
		}
	}
	return false
}

// runsEntryPoint reports whether the command line on platform ("" for
// this computer's) names the entry point: as ${__dirname}/ENTRY in the
// command or an argument (uv's own command line does), or as the whole
// command or argument relative to the bundle's folder, the server's
// working directory.
func (m *Manifest) runsEntryPoint(platform string) bool {
	entry := path.Clean(strings.ReplaceAll(m.Server.EntryPoint, `\`, "/"))
	const dir = "\x00"
	norm := strings.NewReplacer("${__dirname}", dir, "${pathSeparator}", "/", "${/}", "/", `\`, "/")
	c := m.Config(platform)
	for _, a := range append([]string{c.Command}, c.Args...) {
		a = norm.Replace(a)
		if a == entry || a == "./"+entry {
			return true
		}
		for rest := a; ; {
			i := strings.Index(rest, dir+"/")
			if i < 0 {
				break
			}
			rest = rest[i+len(dir)+1:]
			p := strings.TrimPrefix(rest, "./")
			if after, ok := strings.CutPrefix(p, entry); ok && (after == "" || strings.ContainsRune(" \t\"',;:=", rune(after[0]))) {
				return true
			}
		}
	}
	return false
}

// Unpack writes the bundle's files to Dir(root, ServerName, version),
// replacing an earlier copy of the same version, and returns that folder.
// CheckArchive runs first: what it refuses refuses the whole bundle before
// anything is written. Files are written under a temporary name and
// renamed into place, so a failed unpack leaves no half folder.
func (b *Bundle) Unpack(root string) (string, error) {
	if err := b.CheckArchive(); err != nil {
		return "", err
	}
	dest := Dir(root, b.Manifest.ServerName(), b.Manifest.Version)
	if err := os.MkdirAll(filepath.Dir(dest), 0o700); err != nil {
		return "", fmt.Errorf("unpack bundle: %w", err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dest), ".unpack-")
	if err != nil {
		return "", fmt.Errorf("unpack bundle: %w", err)
	}
	defer os.RemoveAll(tmp)
	var written int64
	for _, f := range b.zip.File {
		target := filepath.Join(tmp, filepath.FromSlash(f.Name))
		if f.Mode().IsDir() || strings.HasSuffix(f.Name, "/") {
			if err := os.MkdirAll(target, 0o700); err != nil {
				return "", fmt.Errorf("unpack bundle: %w", err)
			}
			continue
		}
		n, err := writeEntry(f, target, MaxUnpackedBytes-written)
		written += n
		if err != nil {
			return "", err
		}
	}
	if err := os.RemoveAll(dest); err != nil {
		return "", fmt.Errorf("unpack bundle: replace %s: %w", dest, err)
	}
	if err := os.Rename(tmp, dest); err != nil {
		return "", fmt.Errorf("unpack bundle: %w", err)
	}
	if b.Manifest.Server.Type == Binary { // zip tools often drop the executable bit
		_ = os.Chmod(filepath.Join(dest, filepath.FromSlash(b.Manifest.Server.EntryPoint)), 0o700)
	}
	return dest, nil
}

// checkEntry refuses a zip entry name that is absolute, leaves the folder,
// or has a part no system may write as it is (filename.Check: a Windows
// device name such as CON or COM¹, a trailing dot or space, a control or
// invisible character, <>:"|?*).
func checkEntry(name string) error {
	n := strings.ReplaceAll(name, `\`, "/")
	if n == "" || strings.HasPrefix(n, "/") || (len(n) > 1 && n[1] == ':') {
		return fmt.Errorf("has an absolute path")
	}
	for _, part := range strings.Split(n, "/") {
		switch {
		case part == "..":
			return fmt.Errorf("leaves the bundle's folder")
		case part == "" || part == ".": // "a//b", "./a", a folder's trailing "/"
			continue
		}
		if err := filename.Check(part); err != nil {
			return fmt.Errorf("has a name that cannot be written on every system: %w", err)
		}
	}
	return nil
}

// writeEntry copies one file, never more than budget bytes (the header's
// size may lie).
func writeEntry(f interface {
	Open() (io.ReadCloser, error)
	Mode() os.FileMode
}, target string, budget int64) (int64, error) {
	if err := os.MkdirAll(filepath.Dir(target), 0o700); err != nil {
		return 0, fmt.Errorf("unpack bundle: %w", err)
	}
	rc, err := f.Open()
	if err != nil {
		return 0, fmt.Errorf("unpack bundle: %w", err)
	}
	defer rc.Close()
	perm := os.FileMode(0o600)
	if f.Mode()&0o111 != 0 {
		perm = 0o700 // a binary server, a script with a shebang
	}
	out, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return 0, fmt.Errorf("unpack bundle: %w", err)
	}
	n, err := io.Copy(out, io.LimitReader(rc, budget+1))
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return n, fmt.Errorf("unpack bundle: %s: %w", target, err)
	}
	if n > budget {
		return n, &UnsafeError{Why: fmt.Sprintf("unpacks to more than %d MB", MaxUnpackedBytes>>20)}
	}
	return n, nil
}
