package config

import (
	"context"
	"crypto/sha256"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestStampOf(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.json")
	missing, err := StampOf(path)
	if err != nil || missing != (Stamp{}) {
		t.Fatalf("StampOf(missing) = %v, %v", missing, err)
	}
	write := func(s string) Stamp {
		t.Helper()
		if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
		st, err := StampOf(path)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	a, b, a2 := write(`{"a":1}`), write(`{"b":1}`), write(`{"a":1}`)
	if a == b {
		t.Error("same-size contents written within one second share a stamp")
	}
	if a != a2 {
		t.Error("the same content has two stamps")
	}
}

// TestWatchSeesOtherProcesses changes the file the way another process would
// (Save, then a broken edit by hand, then a fix) and expects one report each.
func TestWatchSeesOtherProcesses(t *testing.T) {
	old := WatchInterval
	WatchInterval = 5 * time.Millisecond
	t.Cleanup(func() { WatchInterval = old })
	path := filepath.Join(t.TempDir(), "config.json")
	if err := Save(path, sampleConfig()); err != nil {
		t.Fatal(err)
	}
	type report struct {
		cfg *Config
		err error
	}
	since, err := StampOf(path)
	if err != nil {
		t.Fatal(err)
	}
	reports := make(chan report)
	ctx, cancel := context.WithCancel(t.Context())
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		Watch(ctx, path, since, func(cfg *Config, err error) { reports <- report{cfg, err} })
	}()
	t.Cleanup(func() { cancel(); <-stopped })
	next := func() report {
		t.Helper()
		select {
		case r := <-reports:
			return r
		case <-time.After(10 * time.Second):
			t.Fatal("Watch reported nothing")
			return report{}
		}
	}
	if _, err := Edit(t.Context(), path, func(cfg *Config) error {
		cfg.Servers = cfg.Servers[:1]
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if r := next(); r.err != nil || names(r.cfg) != "zeta" {
		t.Fatalf("edit reported as %v, %v", r.cfg, r.err)
	}
	// By hand, as an editor would (atomically, so no look sees half a file).
	if err := osFS.writeAtomic(path, []byte(`{"mcpServers": {"x": {}}}`)); err != nil {
		t.Fatal(err)
	}
	var ve *ValidationError
	if r := next(); r.cfg != nil || !errors.As(r.err, &ve) {
		t.Fatalf("broken file reported as %v, %v", r.cfg, r.err)
	}
	if err := osFS.writeAtomic(path, []byte(`{"mcpServers": {"x": {"command": "y"}}}`)); err != nil {
		t.Fatal(err)
	}
	if r := next(); r.err != nil || names(r.cfg) != "x" {
		t.Fatalf("fixed file reported as %v, %v", r.cfg, r.err)
	}
}

// TestWatchWaitsForInPlaceSaves: a file caught midway through an in-place
// save (empty, or half written) is reported only if a second look finds
// the same bytes; complete JSON is reported at once, and nothing twice.
func TestWatchWaitsForInPlaceSaves(t *testing.T) {
	full := []byte(`{"mcpServers": {"x": {"command": "y"}}}`)
	stamp := func(b []byte) Stamp { return Stamp{Size: int64(len(b)), Sum: sha256.Sum256(b)} }
	w := watchState{last: stamp(full)}
	steps := []struct {
		what   string
		data   string
		report bool
	}{
		{"unchanged", string(full), false},
		{"truncated by an editor", "", false},
		{"half written", `{"mcpServers": {"x": {"comm`, false},
		{"written", `{"mcpServers": {"z": {"command": "y"}}}`, true},
		{"the same again", `{"mcpServers": {"z": {"command": "y"}}}`, false},
		{"emptied", "", false},
		{"still empty at the next look: the user emptied it", "", true},
		{"JSON with a comment", "// mine\n{\"mcpServers\": {}}", false},
		{"the same comment again", "// mine\n{\"mcpServers\": {}}", true},
		{"a BOM before the JSON", "\ufeff{\"mcpServers\": {}}", true},
	}
	for _, s := range steps {
		if got := w.see([]byte(s.data), stamp([]byte(s.data))); got != s.report {
			t.Fatalf("%s: reported %v, want %v", s.what, got, s.report)
		}
	}
}
