package localmodel

import (
	"fmt"
	"runtime"

	"github.com/switchboard-app/switchboard/app/localmodel/gguf"
)

// Plan is how a model runs on this machine: the context size, threads and
// KV cache type Fit chose, and the memory they take.
type Plan struct {
	Context     int  // tokens
	Threads     int  //
	QuantizedKV bool // q8_0 instead of f16
	// ModelBytes is the weights' size (the file's); KVBytes the KV cache's
	// at Context; Total both plus llama.cpp's compute buffers.
	ModelBytes, KVBytes, Total int64
	// TrainedContext is the longest context the model was trained for.
	TrainedContext int
	// Why says, in a line, how the context was chosen.
	Why string
}

// Machine is what Fit fits to.
type Machine struct {
	// Available is the memory free for the model in bytes (0: unknown,
	// then a context of FallbackContext with a q8 KV cache).
	Available int64
	// CPUs is the number of logical CPUs.
	CPUs int
}

// ThisMachine is the memory available now and the CPUs.
func ThisMachine() Machine { return Machine{Available: availableMemory(), CPUs: runtime.NumCPU()} }

// Limits of the fit, variables so tests can change them.
var (
	// MaxContext caps the context Fit chooses: a small model on a CPU
	// reads a longer prompt too slowly to be worth the memory.
	MaxContext = 32768
	// MinContext is the least Fit chooses, whatever the memory says.
	MinContext = 4096
	// GoodContext is long enough that Fit keeps the f16 cache rather than
	// double it with q8.
	GoodContext = 16384
	// FallbackContext is the context when the free memory is unknown.
	FallbackContext = 8192
	// MemoryShare is the part of the available memory the model may take,
	// so the rest of the machine (the app, its servers, a browser) goes on.
	MemoryShare = 0.6
	// computeBytes is llama.cpp's compute and output buffers beside the
	// weights and the KV cache, for these model sizes on the CPU (about
	// 300 MB measured at an 8k context).
	computeBytes int64 = 300 << 20
)

// kvBlock is the values per block of the q8_0 KV cache: llama.cpp
// refuses a quantized cache for a model whose attention heads are not
// a whole number of blocks ("K cache type q8_0 with block size 32 does
// not divide n_embd_head_k=16"), and the model then never starts.
const kvBlock = 32

// Fit chooses how to run the GGUF model at path on m. context and threads,
// when positive, are the user's and kept (the memory is still said). The
// weights are every part of a split model (ModelSize).
func Fit(path string, m Machine, context, threads int) (Plan, error) {
	size, err := ModelSize(path)
	if err != nil {
		return Plan{}, fmt.Errorf("the model file: %w", err)
	}
	f, err := gguf.ReadFile(path)
	if err != nil {
		return Plan{}, fmt.Errorf("the model file is not a GGUF model llama.cpp can load: %w", err)
	}
	arch := f.String("general.architecture")
	layers := int64(f.Uint(arch + ".block_count"))
	heads := int64(f.Uint(arch + ".attention.head_count"))
	kvHeads := int64(f.Uint(arch + ".attention.head_count_kv"))
	if kvHeads == 0 {
		kvHeads = heads
	}
	keyLen, valLen := int64(f.Uint(arch+".attention.key_length")), int64(f.Uint(arch+".attention.value_length"))
	if keyLen == 0 && heads > 0 {
		keyLen = int64(f.Uint(arch+".embedding_length")) / heads
	}
	if valLen == 0 {
		valLen = keyLen
	}
	p := Plan{ModelBytes: size, TrainedContext: int(f.Uint(arch + ".context_length")), Threads: threads}
	if p.Threads <= 0 {
		p.Threads = fitThreads(m.CPUs)
	}
	// Bytes of K and V per token at f16; q8_0 stores 34 bytes per 32 values.
	perToken := layers * kvHeads * (keyLen + valLen) * 2
	kvAt := func(n int, q bool) int64 {
		b := perToken * int64(n)
		if q {
			b = b * 34 / 64
		}
		return b
	}
	// A q8_0 cache only for heads of whole blocks (Phi-2's 80 values, a
	// tiny test model's 16, are not): else f16, at a shorter context when
	// memory is short.
	q8ok := keyLen > 0 && keyLen%kvBlock == 0 && valLen%kvBlock == 0
	upper := MaxContext
	if p.TrainedContext > 0 {
		upper = min(upper, p.TrainedContext)
	}
	switch {
	case context > 0:
		p.Context = context
		p.QuantizedKV = q8ok && m.Available > 0 && p.ModelBytes+computeBytes+kvAt(context, false) > int64(float64(m.Available)*MemoryShare)
		p.Why = "the size you set"
	case m.Available <= 0 || perToken == 0:
		p.Context, p.QuantizedKV = min(FallbackContext, upper), q8ok
		if !q8ok { // f16 in about the memory q8 would take at FallbackContext
			p.Context = min(max(FallbackContext/2, MinContext), upper)
		}
		p.Why = "the free memory is unknown"
	default:
		budget := int64(float64(m.Available)*MemoryShare) - p.ModelBytes - computeBytes
		// The longest context whose cache fits: f16 when it reaches
		// GoodContext or q8 would not be longer, else q8 (half the memory,
		// about the same answers); MinContext with q8 when nothing fits.
		f16 := largestFit(budget, upper, func(n int) int64 { return kvAt(n, false) })
		q8 := 0
		if q8ok {
			q8 = largestFit(budget, upper, func(n int) int64 { return kvAt(n, true) })
		}
		switch {
		case f16 > 0 && (f16 >= q8 || f16 >= GoodContext):
			p.Context, p.QuantizedKV = f16, false
		case q8 > 0:
			p.Context, p.QuantizedKV = q8, true
		default:
			p.Context, p.QuantizedKV = MinContext, q8ok
		}
		p.Why = fmt.Sprintf("fits %s of the %s free", Size(int64(float64(m.Available)*MemoryShare)), Size(m.Available))
	}
	p.KVBytes = kvAt(p.Context, p.QuantizedKV)
	p.Total = p.ModelBytes + p.KVBytes + computeBytes
	return p, nil
}

// largestFit is the largest power of two from MinContext up to upper
// (or upper itself) whose cost fits budget; 0 when MinContext does not.
func largestFit(budget int64, upper int, cost func(int) int64) int {
	best := 0
	for n := MinContext; n <= upper; n *= 2 {
		if cost(n) > budget {
			break
		}
		best = n
	}
	if best > 0 && best < upper && best*2 > upper && cost(upper) <= budget {
		best = upper
	}
	return best
}

// fitThreads is the threads generation uses: one fewer than the CPUs on
// a small machine (llama.cpp's threads wait for each other at every step,
// so one descheduled by the app or the browser stalls them all: on 2 busy
// cores 2 threads generated 0.3–1.7 tokens/s against 14 with one, see
// BENCHMARKS.md); on a larger one, half (generation is bound by memory,
// and the other half are most often a core's second hardware thread).
func fitThreads(cpus int) int {
	if cpus <= 4 {
		return max(cpus-1, 1)
	}
	return cpus / 2
}

// RAM is the memory the GGUF model at path needs to run at DefaultContext
// with an f16 KV cache: its weights, the cache and the compute buffers,
// as the catalog's RAM figures are for its models.
func RAM(path string) (int64, error) {
	p, err := Fit(path, Machine{CPUs: 1}, DefaultContext, 1)
	if err != nil {
		return 0, err
	}
	return p.Total, nil
}
