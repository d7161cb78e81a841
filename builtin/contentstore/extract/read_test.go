package extract

import (
	"context"
	"errors"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestFileRefusesPseudoFilesystems checks that files of /proc are refused
// before they are opened: /proc/kmsg blocks a read until the kernel logs
// something, which held an ingest (and its store) forever.
func TestFileRefusesPseudoFilesystems(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("pseudo filesystems of regular files are Linux's")
	}
	for _, path := range []string{"/proc/self/status", "/proc/kmsg", "/sys/kernel/mm/transparent_hugepage/enabled"} {
		if _, err := os.Stat(path); err != nil {
			continue
		}
		_, err := File(t.Context(), path, 10<<20)
		if !errors.Is(err, ErrPseudoFile) || !strings.Contains(err.Error(), "a pseudo filesystem: the system's live state, not a document") {
			t.Errorf("File(%s) = %v; want ErrPseudoFile", path, err)
		}
	}
}

// TestReadAllEnds checks that a read that gets no data ends when its
// context does, and by itself once it has stalled for ReadStall, instead
// of blocking the ingest (a pipe stands for a file whose reads block).
func TestReadAllEnds(t *testing.T) {
	cases := []struct {
		name  string
		stall time.Duration
		ctx   func() (context.Context, context.CancelFunc)
		want  error
	}{
		{"cancelled", time.Hour, func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(t.Context())
			cancel()
			return ctx, cancel
		}, context.Canceled},
		{"stalled", 20 * time.Millisecond, func() (context.Context, context.CancelFunc) { return context.WithCancel(t.Context()) }, errStalled},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			setVar(t, &ReadStall, c.stall)
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			defer r.Close()
			ctx, cancel := c.ctx()
			defer cancel()
			if _, err := readAll(ctx, r, 0); !errors.Is(err, c.want) {
				t.Fatalf("readAll = %v, want %v", err, c.want)
			}
		})
	}
}
