package config

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
)

func sampleConfig() *Config {
	return &Config{
		Servers: []Server{
			{Name: "zeta", Transport: Stdio, Command: "npx", Args: []string{"-y", "z"}, Env: map[string]string{"TOKEN": "${secret:zeta}"},
				Extra: map[string]json.RawMessage{"autoApprove": json.RawMessage(`["read"]`)}},
			{Name: "alpha", Transport: HTTP, URL: "https://alpha.example.com/mcp", Headers: map[string]string{"X-Key": "${secret:alpha}"}},
			{Name: "mid", Transport: Stdio, Command: "uvx", Args: []string{"mcp-server-time"}, Disabled: true},
		},
		Settings: json.RawMessage(`{"theme":"dark","chat":{"provider":"ollama"}}`),
		Extra:    map[string]json.RawMessage{"futureKey": json.RawMessage(`[1,2]`)},
	}
}

func names(c *Config) string {
	var n []string
	for _, s := range c.Servers {
		n = append(n, s.Name)
	}
	return strings.Join(n, ",")
}

func TestLoadMissingIsEmpty(t *testing.T) {
	cfg, err := Load(filepath.Join(t.TempDir(), "config.json"))
	if err != nil || cfg == nil || len(cfg.Servers) != 0 {
		t.Fatalf("Load = %+v, %v", cfg, err)
	}
}

func TestSaveLoadRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data", "config.json")
	in := sampleConfig()
	if err := Save(path, in); err != nil {
		t.Fatal(err)
	}
	out, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if names(out) != "zeta,alpha,mid" {
		t.Errorf("order = %s", names(out))
	}
	for i := range in.Servers {
		if d := Diff(in.Servers[i], out.Servers[i]); len(d) != 0 {
			t.Errorf("%s changed: %v", in.Servers[i].Name, d)
		}
	}
	if string(out.Settings) != string(in.Settings) || string(out.Extra["futureKey"]) != "[1,2]" {
		t.Errorf("settings %s, extra %s", out.Settings, out.Extra)
	}
	if string(out.Servers[0].Extra["autoApprove"]) != `["read"]` {
		t.Errorf("extra server field lost: %s", out.Servers[0].Extra)
	}
	if runtime.GOOS != "windows" {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("mode = %v, want 0600", fi.Mode().Perm())
		}
	}
	// The file on disk is itself a valid Claude-style config.
	data, _ := os.ReadFile(path)
	f, err := ParseContext(context.Background(), "config.json", data)
	if err != nil || len(f.Servers) != 3 || f.Format != FormatMCPServers {
		t.Errorf("Parse of saved config: %v", err)
	}
}

func TestSaveKeepsBackup(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.json")
	v1 := sampleConfig()
	v2 := sampleConfig()
	v2.Servers = v2.Servers[:1]
	if err := Save(path, v1); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + ".bak"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("first save made a backup: %v", err)
	}
	first, _ := os.ReadFile(path)
	if err := Save(path, v2); err != nil {
		t.Fatal(err)
	}
	bak, err := os.ReadFile(path + ".bak")
	if err != nil || string(bak) != string(first) {
		t.Fatalf("backup = %q, %v; want the first version", bak, err)
	}
	// Saving the same content again must not overwrite the backup with it.
	if err := Save(path, v2); err != nil {
		t.Fatal(err)
	}
	if bak2, _ := os.ReadFile(path + ".bak"); string(bak2) != string(first) {
		t.Error("an unchanged save replaced the backup")
	}
	if runtime.GOOS != "windows" {
		if fi, _ := os.Stat(path + ".bak"); fi.Mode().Perm() != 0o600 {
			t.Errorf("backup mode = %v", fi.Mode().Perm())
		}
	}
}

// failingFile writes part of the data for real, then fails like a full disk.
type failingFile struct {
	*os.File
	budget int
}

func (f *failingFile) Write(p []byte) (int, error) {
	if len(p) <= f.budget {
		f.budget -= len(p)
		return f.File.Write(p)
	}
	n, _ := f.File.Write(p[:f.budget])
	f.budget = 0
	return n, &fs.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
}

func TestSaveFailureLeavesOldFile(t *testing.T) {
	enospc := func(dir, pattern string) (tempFile, error) {
		f, err := os.CreateTemp(dir, pattern)
		if err != nil {
			return nil, err
		}
		return &failingFile{File: f, budget: 20}, nil
	}
	failOnce := func(target string) func(dir, pattern string) (tempFile, error) {
		// Only the write of target fails (the backup goes through).
		return func(dir, pattern string) (tempFile, error) {
			if strings.HasPrefix(pattern, "."+filepath.Base(target)+".tmp") {
				return enospc(dir, pattern)
			}
			return osFS.createTemp(dir, pattern)
		}
	}
	tests := []struct {
		name string
		fsys func(path string) saver
		want error
	}{
		{"disk full writing the config", func(p string) saver {
			s := osFS
			s.createTemp = failOnce(p)
			return s
		}, syscall.ENOSPC},
		{"disk full writing the backup", func(p string) saver {
			s := osFS
			s.createTemp = failOnce(p + ".bak")
			return s
		}, syscall.ENOSPC},
		{"rename fails", func(string) saver {
			s := osFS
			s.rename = func(string, string) error { return &os.LinkError{Op: "rename", Err: syscall.EXDEV} }
			return s
		}, syscall.EXDEV},
		{"fsync fails", func(p string) saver {
			s := osFS
			s.createTemp = func(dir, pattern string) (tempFile, error) {
				f, err := os.CreateTemp(dir, pattern)
				return syncFails{f}, err
			}
			return s
		}, syscall.EIO},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "config.json")
			if err := Save(path, sampleConfig()); err != nil {
				t.Fatal(err)
			}
			before, _ := os.ReadFile(path)
			next := sampleConfig()
			next.Servers = append(next.Servers, Server{Name: "new", Command: "npx"})

			err := tt.fsys(path).save(path, next)
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			after, _ := os.ReadFile(path)
			if string(after) != string(before) {
				t.Fatalf("config changed after a failed save:\n%s", after)
			}
			if cfg, err := Load(path); err != nil || names(cfg) != "zeta,alpha,mid" {
				t.Fatalf("Load after failure = %v, %v", cfg, err)
			}
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if strings.Contains(e.Name(), ".tmp-") {
					t.Errorf("temp file %s left behind", e.Name())
				}
			}
		})
	}
}

type syncFails struct{ *os.File }

func (syncFails) Sync() error { return syscall.EIO }

func TestSaveRefusesInvalid(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.json")
	if err := Save(path, sampleConfig()); err != nil {
		t.Fatal(err)
	}
	bad := sampleConfig()
	bad.Servers = append(bad.Servers, Server{Name: "zeta", Command: "other"}, Server{Name: "nourl", Transport: HTTP})
	err := Save(path, bad)
	if !errors.Is(err, ErrInvalid) {
		t.Fatalf("err = %v", err)
	}
	for _, want := range []string{"mcpServers.zeta: duplicate server name", `mcpServers.nourl: needs "url"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q missing from %v", want, err)
		}
	}
	if cfg, _ := Load(path); names(cfg) != "zeta,alpha,mid" {
		t.Errorf("file changed: %s", names(cfg))
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name, content string
		bak           bool
		kind          error
		want          string
	}{
		{"syntax with backup", "{\"mcpServers\": {\n", true, ErrSyntax,
			"config.json:2:1: unexpected end of file; a closing } or ] or a value is missing\n(fix the file, or restore the previous version from config.json.bak)"},
		{"invalid server", "{\"mcpServers\": {\"x\": {\"args\": []}}}", false, ErrInvalid,
			`config.json:1:17: mcpServers.x: needs "command" (stdio) or "url" (http/sse)`},
		{"top-level array", "[]", false, ErrUnknownFormat, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			t.Chdir(dir) // so the file name in messages is short
			if err := os.WriteFile("config.json", []byte(tt.content), 0o600); err != nil {
				t.Fatal(err)
			}
			if tt.bak {
				if err := os.WriteFile("config.json.bak", []byte("{}"), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			_, err := Load("config.json")
			if !errors.Is(err, tt.kind) {
				t.Fatalf("err = %v, want %v", err, tt.kind)
			}
			if tt.want != "" && err.Error() != tt.want {
				t.Errorf("got\n%s\nwant\n%s", err, tt.want)
			}
		})
	}
	for _, ok := range []string{"", "{}", `{"settings": {"a": 1}}`, "// fresh\n{\"mcpServers\": {},}"} {
		path := filepath.Join(t.TempDir(), "config.json")
		if err := os.WriteFile(path, []byte(ok), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(path); err != nil {
			t.Errorf("Load(%q) = %v", ok, err)
		}
	}
}

// Concurrent saves (two windows, CLI + GUI) may race, but the file on disk
// is always one complete version.
func TestConcurrentSaves(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.json")
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			cfg := sampleConfig()
			cfg.Servers = append(cfg.Servers, Server{Name: fmt.Sprint("s", i), Command: "npx"})
			if err := Save(path, cfg); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	cfg, err := Load(path)
	if err != nil || len(cfg.Servers) != 4 {
		t.Fatalf("Load = %v, %v", cfg, err)
	}
}

func TestConfigClone(t *testing.T) {
	a := sampleConfig()
	b := a.Clone()
	b.Servers[0].Args[0] = "changed"
	b.Servers[0].Env["TOKEN"] = "changed"
	b.Servers[0].Extra["autoApprove"][1] = 'X'
	b.Settings[2] = 'X'
	if a.Servers[0].Args[0] != "-y" || a.Servers[0].Env["TOKEN"] != "${secret:zeta}" ||
		string(a.Servers[0].Extra["autoApprove"]) != `["read"]` || string(a.Settings) != string(sampleConfig().Settings) {
		t.Error("Clone shares memory with the original")
	}
	if _, ok := a.Lookup("alpha"); !ok {
		t.Error("Lookup(alpha) failed")
	}
	if _, ok := a.Lookup("nope"); ok {
		t.Error("Lookup(nope) succeeded")
	}
}
