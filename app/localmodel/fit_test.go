package localmodel_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/localmodel"
	"github.com/switchboard-app/switchboard/app/localmodel/gguf"
	"github.com/switchboard-app/switchboard/app/localmodel/testmodel"
)

// writeMeta writes a GGUF with Qwen3-1.7B's attention shape and no
// tensors, padded to size bytes (Fit reads the metadata and the size).
func writeMeta(t *testing.T, size int64) string {
	t.Helper()
	return writeMetaAt(t, filepath.Join(t.TempDir(), "m.gguf"), size, 128, nil)
}

// writeMetaAt writes that GGUF at path with heads of headLen values and
// the extra metadata set, padded to size bytes.
func writeMetaAt(t *testing.T, p string, size int64, headLen uint32, set func(*gguf.File)) string {
	t.Helper()
	f := &gguf.File{}
	f.Set("general.architecture", gguf.TypeString, "qwen3")
	f.Set("qwen3.block_count", gguf.TypeUint32, uint32(28))
	f.Set("qwen3.context_length", gguf.TypeUint32, uint32(40960))
	f.Set("qwen3.embedding_length", gguf.TypeUint32, uint32(2048))
	f.Set("qwen3.attention.head_count", gguf.TypeUint32, uint32(16))
	f.Set("qwen3.attention.head_count_kv", gguf.TypeUint32, uint32(8))
	f.Set("qwen3.attention.key_length", gguf.TypeUint32, headLen)
	f.Set("qwen3.attention.value_length", gguf.TypeUint32, headLen)
	if set != nil {
		set(f)
	}
	var b bytes.Buffer
	if err := testmodel.Encode(&b, f); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(p, size); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestFit(t *testing.T) {
	const model = 1 << 30 // a 1.7B Q4_K_M is about 1.1 GB
	path := writeMeta(t, model)
	// Qwen3-1.7B's f16 KV cache: 28 layers × 8 heads × (128+128) × 2 bytes
	// = 112 KiB a token.
	const perToken = 28 * 8 * 256 * 2
	tests := []struct {
		name         string
		avail        int64
		ctx, threads int
		cpus         int
		wantCtx      int
		wantQ        bool
		wantThreads  int
		wantWhy      string
	}{
		{"plenty of memory: the cap, f16; half of 8 CPUs", 16 << 30, 0, 0, 8, 32768, false, 4, "free"},
		{"some: the f16 context that is long enough; 4 CPUs, 3 threads", 6 << 30, 0, 0, 4, 16384, false, 3, "free"},
		{"little: q8 gives twice the f16 context; 2 CPUs, 1 thread", 3 << 30, 0, 0, 2, 8192, true, 1, "free"},
		{"very short: the least, q8", 1 << 30, 0, 0, 1, 4096, true, 1, "free"},
		{"unknown memory", 0, 0, 0, 3, 8192, true, 2, "unknown"},
		{"the user's context and threads kept", 16 << 30, 2048, 1, 8, 2048, false, 1, "you set"},
		{"the user's long context on short memory: q8", 2 << 30, 32768, 0, 2, 32768, true, 1, "you set"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := localmodel.Fit(path, localmodel.Machine{Available: tt.avail, CPUs: tt.cpus}, tt.ctx, tt.threads)
			if err != nil {
				t.Fatal(err)
			}
			if p.Context != tt.wantCtx || p.QuantizedKV != tt.wantQ || p.Threads != tt.wantThreads {
				t.Fatalf("plan = context %d, q8 %v, threads %d; want %d, %v, %d (%+v)", p.Context, p.QuantizedKV, p.Threads, tt.wantCtx, tt.wantQ, tt.wantThreads, p)
			}
			wantKV := int64(p.Context) * perToken
			if p.QuantizedKV {
				wantKV = wantKV * 34 / 64
			}
			if p.KVBytes != wantKV || p.ModelBytes != model || p.Total <= p.ModelBytes+p.KVBytes {
				t.Fatalf("memory: model %d, KV %d (want %d), total %d", p.ModelBytes, p.KVBytes, wantKV, p.Total)
			}
			if p.TrainedContext != 40960 || !strings.Contains(p.Why, tt.wantWhy) {
				t.Fatalf("trained %d, why %q (want it to say %q)", p.TrainedContext, p.Why, tt.wantWhy)
			}
		})
	}
}

// A model whose attention heads are not whole q8_0 blocks (32 values)
// cannot run with a q8_0 KV cache (llama.cpp refuses to start it): its
// cache stays f16, however short the memory.
func TestFitKeepsF16ForHeadsQ8CannotHold(t *testing.T) {
	const model = 1 << 30
	for _, head := range []uint32{16, 80} { // a tiny test model's, Phi-2's
		path := writeMetaAt(t, filepath.Join(t.TempDir(), "m.gguf"), model, head, nil)
		for _, tt := range []struct {
			name    string
			avail   int64
			ctx     int
			wantCtx int
		}{
			{"memory short of everything", 1 << 30, 0, 4096},
			{"little memory", 3 << 30, 0, 4096},
			{"unknown memory", 0, 0, 4096},
			{"the user's long context on short memory", 2 << 30, 32768, 32768},
		} {
			p, err := localmodel.Fit(path, localmodel.Machine{Available: tt.avail, CPUs: 2}, tt.ctx, 0)
			if err != nil {
				t.Fatal(err)
			}
			if p.QuantizedKV || p.Context < tt.wantCtx {
				t.Errorf("heads of %d, %s: context %d, q8 %v; want f16 and at least %d", head, tt.name, p.Context, p.QuantizedKV, tt.wantCtx)
			}
		}
	}
}

// A model split in parts weighs all of them, not its first part's size.
func TestFitWeighsEveryPartOfASplitModel(t *testing.T) {
	dir := t.TempDir()
	split := func(no uint16) func(*gguf.File) {
		return func(f *gguf.File) {
			f.Set("split.no", gguf.TypeUint16, no)
			f.Set("split.count", gguf.TypeUint16, uint16(3))
		}
	}
	first := writeMetaAt(t, filepath.Join(dir, "big-00001-of-00003.gguf"), 10_000, 128, split(0))
	writeMetaAt(t, filepath.Join(dir, "big-00002-of-00003.gguf"), 20_000, 128, split(1))
	writeMetaAt(t, filepath.Join(dir, "big-00003-of-00003.gguf"), 30_000, 128, split(2))
	p, err := localmodel.Fit(first, localmodel.Machine{Available: 8 << 30, CPUs: 2}, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := localmodel.ModelSize(first); p.ModelBytes != 60_000 || n != 60_000 || err != nil {
		t.Fatalf("plan weighs %d, ModelSize %d, %v; want the three parts' 60000", p.ModelBytes, n, err)
	}
}

func TestFitRefusesWhatIsNotGGUF(t *testing.T) {
	p := filepath.Join(t.TempDir(), "notes.gguf")
	if err := os.WriteFile(p, []byte("not a model"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := localmodel.Fit(p, localmodel.Machine{Available: 8 << 30, CPUs: 2}, 0, 0)
	if err == nil || !strings.Contains(err.Error(), "not a GGUF model") {
		t.Fatalf("err = %v", err)
	}
}

func TestFindRuntime(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "llama-server")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SWITCHBOARD_LLAMA_SERVER", bin)
	if got, err := localmodel.FindRuntime(); err != nil || got != bin {
		t.Fatalf("FindRuntime = %q, %v; want the variable's %q", got, err, bin)
	}
	t.Setenv("SWITCHBOARD_LLAMA_SERVER", filepath.Join(t.TempDir(), "missing"))
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	_, err := localmodel.FindRuntime()
	var re *localmodel.RuntimeError
	if !errors.Is(err, localmodel.ErrNoRuntime) || !errors.As(err, &re) || len(re.Places) < 3 || !strings.Contains(err.Error(), "missing") {
		t.Fatalf("err = %v; want ErrNoRuntime naming the places looked in", err)
	}
}
