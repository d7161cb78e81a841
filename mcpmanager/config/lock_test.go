package config

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// TestEditConcurrentLosesNothing runs many edits at once, each adding its own
// server to what it reads; every one must be in the result. Without the lock
// an edit reads, another saves, and the first saves over it.
func TestEditConcurrentLosesNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.json")
	const n = 20
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			_, err := Edit(t.Context(), path, func(cfg *Config) error {
				cfg.Servers = append(cfg.Servers, Server{Name: fmt.Sprint("s", i), Transport: Stdio, Command: "npx"})
				return nil
			})
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	cfg, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Servers) != n {
		t.Fatalf("%d servers after %d concurrent edits: %s", len(cfg.Servers), n, names(cfg))
	}
}

func TestEdit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.json")
	if err := Save(path, sampleConfig()); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	if _, err := Edit(t.Context(), path, func(cfg *Config) error {
		cfg.Servers = nil
		return boom
	}); !errors.Is(err, boom) {
		t.Fatalf("Edit = %v, want fn's error", err)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Fatal("a failed edit wrote the file")
	}
	got, err := Edit(t.Context(), path, func(cfg *Config) error {
		cfg.Servers = cfg.Servers[:1]
		return nil
	})
	if err != nil || names(got) != "zeta" {
		t.Fatalf("Edit = %v, %v", got, err)
	}
	if cfg, err := Load(path); err != nil || names(cfg) != "zeta" {
		t.Fatalf("on disk: %v, %v", cfg, err)
	}
}

// TestEditWaitsForLock holds the lock as another process would: Edit must
// wait, give up after LockTimeout with ErrLocked, and stop when ctx ends.
func TestEditWaitsForLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.json")
	unlock, err := lockConfig(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { unlock() }()
	old := LockTimeout
	LockTimeout = 50 * time.Millisecond
	t.Cleanup(func() { LockTimeout = old })

	noop := func(*Config) error { return nil }
	_, err = Edit(t.Context(), path, noop)
	var le *LockError
	if !errors.Is(err, ErrLocked) || !errors.As(err, &le) || le.Path != path+LockSuffix {
		t.Fatalf("Edit while locked = %v, want a LockError wrapping ErrLocked", err)
	}
	if err := Save(path, sampleConfig()); !errors.Is(err, ErrLocked) {
		t.Fatalf("Save while locked = %v, want ErrLocked", err)
	}

	LockTimeout = time.Minute
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := Edit(ctx, path, noop); !errors.Is(err, context.Canceled) {
		t.Fatalf("Edit with a cancelled context = %v", err)
	}

	// Once released, a waiting Edit goes ahead.
	done := make(chan error, 1)
	go func() {
		_, err := Edit(t.Context(), path, func(cfg *Config) error {
			cfg.Servers = append(cfg.Servers, Server{Name: "late", Transport: Stdio, Command: "x"})
			return nil
		})
		done <- err
	}()
	unlock()
	unlock = func() {}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if cfg, err := Load(path); err != nil || names(cfg) != "late" {
		t.Fatalf("on disk: %v, %v", cfg, err)
	}
}
