package apps_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/switchboard-app/switchboard/mcpmanager/apps"
)

func TestSafeFileName(t *testing.T) {
	long := strings.Repeat("ä", 100) + ".csv" // 200 bytes of stem
	for _, tc := range []struct {
		name, in, mime, want string
	}{
		{"plain", "report.csv", "", "report.csv"},
		{"unix path", "../../etc/passwd", "", "passwd"},
		{"windows path", `C:\Users\me\..\evil.exe`, "", "evil.exe"},
		{"leading dots", "..hidden.txt", "", "hidden.txt"},
		{"dot dot", "..", "text/plain", "download.txt"},
		{"control characters", "re\x00po\nrt\x1b.csv", "", "report.csv"},
		{"bidi override", "invoice\u202Etxt.exe", "", "invoicetxt.exe"},
		{"reserved characters", `a<b>c:d"e|f?g*h.txt`, "", "abcdefgh.txt"},
		{"spaces collapse and trim", "  my   report \t.pdf. ", "", "my report.pdf"},
		{"trailing dots", "notes...", "", "notes"},
		{"windows device", "CON.txt", "", "_CON.txt"},
		{"windows device lower", "nul", "", "_nul"},
		{"console input", "CONIN$", "", "_CONIN$"},
		{"console output", "conout$.txt", "", "_conout$.txt"},
		{"superscript port", "COM¹.txt", "", "_COM¹.txt"},
		{"superscript printer", "lpt²", "", "_lpt²"},
		{"device with a space", "aux .log", "", "_aux.log"},
		{"empty with mime", "", "application/json", "download.json"},
		{"empty unknown mime", "", "application/x-nothing-known", "download"},
		{"only an extension", ".csv", "", "csv"},
		{"kept unicode", "Überblick 2026.md", "", "Überblick 2026.md"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := apps.SafeFileName(tc.in, tc.mime); got != tc.want {
				t.Errorf("SafeFileName(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
	t.Run("long names keep their extension", func(t *testing.T) {
		got := apps.SafeFileName(long, "")
		if len(got) > apps.MaxNameBytes || !strings.HasSuffix(got, ".csv") || !utf8.ValidString(got) {
			t.Errorf("SafeFileName(long) = %q (%d bytes)", got, len(got))
		}
	})
}

func TestDownloadFiles(t *testing.T) {
	files, err := apps.FilesToSave([]byte(`[
		{"type":"resource","resource":{"uri":"file:///exports/..%2F..%2Fsecret%20report.csv","mimeType":"text/csv","text":"a,b\n1,2\n"}},
		{"type":"resource","resource":{"uri":"file:///image.png","mimeType":"image/png","blob":"iVBORw=="}},
		{"type":"resource_link","uri":"ui://weather/reports/q4.pdf","name":"Q4 Report","mimeType":"application/pdf"}
	]`))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 3 {
		t.Fatalf("%d files, want 3", len(files))
	}
	if f := files[0]; f.Name != "secret report.csv" || string(f.Data) != "a,b\n1,2\n" || f.MIMEType != "text/csv" {
		t.Errorf("text file: %+v", f)
	}
	if f := files[1]; f.Name != "image.png" || string(f.Data) != "\x89PNG" {
		t.Errorf("blob file: %q %q", f.Name, f.Data)
	}
	if f := files[2]; f.Name != "Q4 Report.pdf" || f.Link != "ui://weather/reports/q4.pdf" || f.Data != nil {
		t.Errorf("link: %+v", f)
	}

	for _, bad := range []string{`{}`, `[]`, `[{"type":"text","text":"x"}]`, `[{"type":"resource"}]`,
		`[{"type":"resource","resource":{"uri":"file:///a"}}]`, `[{"type":"resource","resource":{"uri":"file:///a","blob":"%%%"}}]`,
		`[{"type":"resource_link","name":"x"}]`} {
		if _, err := apps.FilesToSave([]byte(bad)); err == nil {
			t.Errorf("FilesToSave(%s) = nil error", bad)
		}
	}
	big := `[{"type":"resource","resource":{"uri":"file:///big","text":"` + strings.Repeat("x", apps.MaxSave+1) + `"}}]`
	if _, err := apps.FilesToSave([]byte(big)); !errors.Is(err, apps.ErrSaveTooBig) {
		t.Errorf("a file past MaxSave: %v", err)
	}
}

func TestSaveFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "report.csv")
	if err := os.WriteFile(p, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	// The user chose to replace it in the dialog: the new contents, whole, and nothing else left beside it.
	if err := apps.SaveFile(p, []byte("a,b\n")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "a,b\n" {
		t.Errorf("saved %q", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("the folder holds %d entries, want only the file", len(ents))
	}
	if err := apps.SaveFile(filepath.Join(dir, "no-such-dir", "x.txt"), []byte("x")); err == nil {
		t.Error("saving into a missing folder succeeded")
	}
}

func TestDownloadsDir(t *testing.T) {
	home := t.TempDir()
	cfg := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", cfg)
	if got := apps.DownloadsDir(); got != home {
		t.Errorf("without a downloads folder: %q, want home %q", got, home)
	}
	dl := filepath.Join(home, "Downloads")
	if err := os.Mkdir(dl, 0o700); err != nil {
		t.Fatal(err)
	}
	if got := apps.DownloadsDir(); got != dl {
		t.Errorf("with ~/Downloads: %q", got)
	}
	xdg := filepath.Join(home, "Herunterladen")
	if err := os.Mkdir(xdg, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cfg, "user-dirs.dirs"), []byte("# written by xdg-user-dirs-update\nXDG_DESKTOP_DIR=\"$HOME/Desktop\"\nXDG_DOWNLOAD_DIR=\"$HOME/Herunterladen\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := apps.DownloadsDir(); got != xdg {
		t.Errorf("with XDG_DOWNLOAD_DIR: %q, want %q", got, xdg)
	}
}

// TestDownloadLimits: a request of more than MaxSaveFiles files, or of
// more than MaxSaveBytes in all, is refused whole (10,000 files were
// accepted, each a save dialog once the user agreed to the batch); an app
// session's Budget takes files until MaxSessionFiles or MaxSessionBytes.
func TestDownloadLimits(t *testing.T) {
	item := `{"type":"resource","resource":{"uri":"file:///a.txt","text":"abc"}}`
	many := "[" + strings.Repeat(item+",", 10_000-1) + item + "]"
	if _, err := apps.FilesToSave([]byte(many)); !errors.Is(err, apps.ErrSaveLimit) || !strings.Contains(err.Error(), "10000 files") {
		t.Fatalf("10,000 files: %v, want ErrSaveLimit", err)
	}
	most := "[" + strings.Repeat(item+",", apps.MaxSaveFiles-1) + item + "]"
	if files, err := apps.FilesToSave([]byte(most)); err != nil || len(files) != apps.MaxSaveFiles {
		t.Fatalf("%d files: %d, %v", apps.MaxSaveFiles, len(files), err)
	}
	// Each file within MaxSave, the request past MaxSaveBytes.
	big := `{"type":"resource","resource":{"uri":"file:///big.txt","text":"` + strings.Repeat("x", apps.MaxSave/2+1) + `"}}`
	if _, err := apps.FilesToSave([]byte("[" + big + "," + big + "]")); !errors.Is(err, apps.ErrSaveLimit) {
		t.Fatalf("two halves of the limit and more: %v, want ErrSaveLimit", err)
	}

	var b apps.Budget
	if err := b.Fits(apps.MaxSessionFiles+1, 0); !errors.Is(err, apps.ErrSaveLimit) {
		t.Fatalf("Fits past the session's files: %v", err)
	}
	for i := range apps.MaxSessionFiles {
		if err := b.Take(1); err != nil {
			t.Fatalf("file %d: %v", i+1, err)
		}
	}
	if err := b.Take(1); !errors.Is(err, apps.ErrSaveLimit) {
		t.Fatalf("file %d of a session: %v, want ErrSaveLimit", apps.MaxSessionFiles+1, err)
	}
	var c apps.Budget
	if err := c.Take(int64(apps.MaxSessionBytes)); err != nil {
		t.Fatal(err)
	}
	if err := c.Take(1); !errors.Is(err, apps.ErrSaveLimit) {
		t.Fatalf("a byte past the session's bytes: %v, want ErrSaveLimit", err)
	}
}
