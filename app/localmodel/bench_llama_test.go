//go:build llama && bench

// The local model's rows of the benchmark table of 'make bench': the
// runtime as the app runs it (llama-server started by localmodel.Start,
// asked through its OpenAI-compatible streamed chat) beside llama.cpp's own
// llama-bench on the same files, for Qwen3-0.6B and Qwen3-1.7B-shaped
// models with random Q4_0 weights written at run time (random weights run
// at a real model's speed for its shape and type). Run through make (it
// builds the runtime once and sets the variables):
//
//	make bench-llama
package localmodel_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/app/localmodel"
	"github.com/switchboard-app/switchboard/app/localmodel/gguf"
	"github.com/switchboard-app/switchboard/app/localmodel/testmodel"
)

const (
	benchPromptWords = 120 // ≈140 prompt tokens with the chat template: a short chat turn
	benchGenTokens   = 32
	benchReps        = 3 // measured requests per model, after a warm-up
	benchContext     = 4096
)

// streamed is one streamed chat request as the client saw it, and the
// timings llama-server reported in its last chunk.
type streamed struct {
	firstToken time.Duration // request sent → first text delta
	wall       time.Duration // request sent → last chunk
	genWall    time.Duration // first text delta → last chunk
	timings    struct {
		PromptN   int     `json:"prompt_n"`
		PromptMS  float64 `json:"prompt_ms"`
		PromptTPS float64 `json:"prompt_per_second"`
		GenN      int     `json:"predicted_n"`
		GenMS     float64 `json:"predicted_ms"`
		GenTPS    float64 `json:"predicted_per_second"`
	}
}

func TestBenchTableLlama(t *testing.T) {
	bin, src := os.Getenv("SWITCHBOARD_LLAMA_SERVER"), os.Getenv("SWITCHBOARD_LLAMA_SRC")
	if bin == "" || src == "" {
		t.Fatal("SWITCHBOARD_LLAMA_SERVER and SWITCHBOARD_LLAMA_SRC must be set: run 'make bench-llama'")
	}
	llamaBench := filepath.Join(filepath.Dir(bin), "llama-bench")
	if _, err := os.Stat(llamaBench); err != nil {
		t.Fatalf("llama-bench is not beside llama-server (build/llama/build.sh builds both): %v", err)
	}
	load, _ := os.ReadFile("/proc/loadavg")
	// The app's default (localmodel: one thread a CPU); BENCH_LLAMA_THREADS
	// changes it, for both sides.
	threads := runtime.NumCPU()
	if n, err := strconv.Atoi(os.Getenv("BENCH_LLAMA_THREADS")); err == nil && n > 0 {
		threads = n
	}
	var rows [][5]string
	cpu := "" // the CPU backend llama-server loaded (llama-bench, beside it, loads the same)
	for _, shape := range []testmodel.Shape{testmodel.Qwen3_06B, testmodel.Qwen3_17B} {
		model := filepath.Join(t.TempDir(), shape.Name+".gguf")
		t0 := time.Now()
		if err := testmodel.WriteType(model, src, shape, 1, gguf.Q4_0); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(model)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: wrote %s in %s", shape.Name, mb(fi.Size()), time.Since(t0).Round(time.Millisecond))
		label := fmt.Sprintf("local model, %s shape (Q4_0, %s, random weights), %s", shape.Name, mb(fi.Size()), plural(threads, "thread"))

		// The runtime as the app runs it.
		log := filepath.Join(t.TempDir(), "llama-server.log")
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Minute)
		s, err := localmodel.Start(ctx, localmodel.Options{Binary: bin, Model: model, Alias: shape.Name, Context: benchContext, Threads: threads, LogPath: log})
		if err != nil {
			cancel()
			out, _ := os.ReadFile(log)
			t.Fatalf("start: %v\n%s", err, out)
		}
		t.Cleanup(func() {
			_ = s.Close(context.Background()) // also when a request failed
			if t.Failed() {
				out, _ := os.ReadFile(log)
				t.Logf("llama-server's log (end):\n%s", out[max(0, len(out)-4000):])
			}
		})
		// The server's own client: it reaches this model's server (a
		// connection kept alive to the previous one is not reused).
		client := s.HTTPClient()
		cpu = s.Status().CPU
		warm := chatOnce(ctx, t, client, s, 0, 8) // pages the model in; its prompt size is the measured ones'
		nPrompt := warm.timings.PromptN
		// Interleaved, so both sides see the same machine state: each
		// measured request, then one llama-bench run (its pp and tg tests)
		// on the same file, threads and KV type while the server idles.
		var runs []streamed
		var pps, tgs []float64
		var lbRSS int64
		for i := range benchReps {
			r := chatOnce(ctx, t, client, s, i+1, benchGenTokens)
			checkAgainstWall(t, shape.Name, r)
			runs = append(runs, r)
			lb, rss := runLlamaBench(t, llamaBench, model, nPrompt, threads)
			pps, tgs, lbRSS = append(pps, lb[0]), append(tgs, lb[1]), max(lbRSS, rss)
		}
		hwm := procKB(t, s.Status().PID, "VmHWM")
		if err := s.Close(t.Context()); err != nil {
			t.Fatal(err)
		}
		cancel()
		for _, r := range runs {
			if r.timings.PromptN != nPrompt || r.timings.GenN != benchGenTokens {
				t.Fatalf("%s: a request evaluated %d prompt tokens (the warm-up %d) and generated %d (asked %d): not the same work", shape.Name, r.timings.PromptN, nPrompt, r.timings.GenN, benchGenTokens)
			}
		}

		pp, tg := medianOf(pps), medianOf(tgs)
		ttft := median(runs, func(r streamed) float64 { return r.firstToken.Seconds() })
		ppTime := float64(nPrompt) / pp
		promptTPS := median(runs, func(r streamed) float64 { return r.timings.PromptTPS })
		genTPS := median(runs, func(r streamed) float64 { return r.timings.GenTPS })
		rows = append(rows,
			[5]string{fmt.Sprintf("%s: first token of a streamed chat (%d-token prompt): llama-server via localmodel vs the prompt's compute time at llama-bench's pp%d rate", label, nPrompt, nPrompt),
				secs(ttft), secs(ppTime), ratio(ttft / ppTime), "≤ 1.2×"},
			[5]string{fmt.Sprintf("%s: prompt tokens/s (llama-server's timings, checked against wall time) vs llama-bench pp%d", label, nPrompt),
				tps(promptTPS), tps(pp), ratio(promptTPS / pp), "≥ 0.9×"},
			[5]string{fmt.Sprintf("%s: generation tokens/s, %d tokens after the prompt vs llama-bench tg%d (from an empty context)", label, benchGenTokens, benchGenTokens),
				tps(genTPS), tps(tg), ratio(genTPS / tg), "≥ 0.9×"},
			[5]string{fmt.Sprintf("%s: peak RSS (VmHWM): llama-server, context %d (f16 KV cache %s) vs llama-bench (context %d)", label, benchContext, mb(kvBytes(shape, benchContext)), nPrompt+benchGenTokens),
				mb(hwm << 10), mb(lbRSS << 10), ratio(float64(hwm) / float64(lbRSS)), "reported"},
		)
	}

	var b strings.Builder
	fmt.Fprintf(&b, "\n| measure | switchboard | baseline | ratio | target |\n|---|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", r[0], r[1], r[2], r[3], r[4])
	}
	backend := "its CPU backend built in"
	if cpu != "" {
		backend = "ggml's CPU backend " + cpu + ", of @node-llama-cpp/linux-x64's prebuilt libraries, ggml's own thread pool"
	}
	fmt.Fprintf(&b, "\nlocal model rows: llama.cpp from node-llama-cpp 3.22.1 (build/llama/build.sh: %s), %d measured requests per model after a warm-up, each followed by one llama-bench run (medians); each request's timings agreed with its wall time; load average at the start %s; %s/%s, %d CPUs, %s\n",
		backend, benchReps, strings.Join(strings.Fields(string(load))[:3], " "), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version())
	fmt.Print(b.String())
	if path := os.Getenv("BENCH_OUT"); path != "" {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteString(b.String()); err != nil {
			t.Fatal(err)
		}
	}
}

// chatOnce streams one chat completion of a ≈140-token prompt (its first
// word n, so no two requests share more than the template's prefix; the
// prompt cache is off as well), generating exactly gen tokens.
func chatOnce(ctx context.Context, t *testing.T, client *http.Client, s *localmodel.Server, n, gen int) streamed {
	t.Helper()
	words := strings.Fields("the quick brown fox jumps over a lazy dog while seven tired engineers measure how fast a small model reads")
	var prompt strings.Builder
	fmt.Fprintf(&prompt, "Request %d.", n)
	for i := range benchPromptWords {
		prompt.WriteString(" " + words[i%len(words)])
	}
	body, _ := json.Marshal(map[string]any{
		"model": s.Model(), "stream": true, "max_tokens": gen,
		"ignore_eos": true, "cache_prompt": false, // llama.cpp's own fields: exactly gen tokens, the whole prompt evaluated
		"messages": []map[string]string{{"role": "user", "content": prompt.String()}},
	})
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.BaseURL()+"/chat/completions", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+s.APIKey())
	req.Header.Set("Content-Type", "application/json")
	var r streamed
	start := time.Now()
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("chat: %s", res.Status)
	}
	var first, last time.Time
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok || data == "[DONE]" {
			continue
		}
		var chunk struct {
			Choices []struct {
				Delta struct {
					Content   string `json:"content"`
					Reasoning string `json:"reasoning_content"` // random weights may open <think>
				} `json:"delta"`
			} `json:"choices"`
			Timings *json.RawMessage `json:"timings"`
		}
		if err := json.Unmarshal([]byte(data), &chunk); err != nil {
			t.Fatalf("chunk %q: %v", data, err)
		}
		now := time.Now()
		if first.IsZero() && len(chunk.Choices) > 0 && chunk.Choices[0].Delta.Content+chunk.Choices[0].Delta.Reasoning != "" {
			first = now
		}
		if chunk.Timings != nil {
			last = now
			if err := json.Unmarshal(*chunk.Timings, &r.timings); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if first.IsZero() || last.IsZero() {
		t.Fatalf("request %d: no text (%v) or no timings (%v) in the stream", n, first, last)
	}
	r.firstToken, r.wall, r.genWall = first.Sub(start), last.Sub(start), last.Sub(first)
	return r
}

// checkAgainstWall fails when llama-server's own timings disagree with
// what the client saw: the prompt is done before the first token arrives,
// prompt and generation together are most of the request's wall time, and
// the generation rate is the one the stream's pace shows.
func checkAgainstWall(t *testing.T, name string, r streamed) {
	t.Helper()
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	tm := r.timings
	wallGenTPS := float64(tm.GenN-1) / r.genWall.Seconds() // the first token comes with the prompt's pass
	switch {
	case tm.PromptMS > ms(r.firstToken):
		t.Fatalf("%s: the server says the prompt took %.0f ms, the first token arrived after %s", name, tm.PromptMS, r.firstToken)
	case tm.PromptMS+tm.GenMS > ms(r.wall)*1.02 || tm.PromptMS+tm.GenMS < ms(r.wall)*0.8:
		t.Fatalf("%s: the server's prompt %.0f ms + generation %.0f ms vs the request's wall time %s", name, tm.PromptMS, tm.GenMS, r.wall)
	case wallGenTPS < tm.GenTPS*0.75 || wallGenTPS > tm.GenTPS*1.33:
		t.Fatalf("%s: the server says %.1f tokens/s, the stream came at %.1f", name, tm.GenTPS, wallGenTPS)
	}
}

// runLlamaBench runs llama-bench's pp(nPrompt) and tg(benchGenTokens)
// tests once each (after its warm-up) and returns their tokens/s and its
// peak RSS in KiB.
func runLlamaBench(t *testing.T, bin, model string, nPrompt, threads int) ([2]float64, int64) {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), bin, "-m", model, "-p", strconv.Itoa(nPrompt), "-n", strconv.Itoa(benchGenTokens),
		"-t", strconv.Itoa(threads), "-r", "1", "-o", "json")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("llama-bench: %v\n%s", err, stderr.Bytes())
	}
	var tests []struct {
		NPrompt int     `json:"n_prompt"`
		NGen    int     `json:"n_gen"`
		AvgTS   float64 `json:"avg_ts"`
	}
	if err := json.Unmarshal(out, &tests); err != nil {
		t.Fatalf("llama-bench's JSON: %v\n%s", err, out)
	}
	var got [2]float64
	for _, x := range tests {
		switch {
		case x.NPrompt == nPrompt && x.NGen == 0:
			got[0] = x.AvgTS
		case x.NPrompt == 0 && x.NGen == benchGenTokens:
			got[1] = x.AvgTS
		}
	}
	if got[0] == 0 || got[1] == 0 {
		t.Fatalf("llama-bench gave no pp%d or tg%d figure:\n%s", nPrompt, benchGenTokens, out)
	}
	return got, cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss
}

// procKB reads a "Name: N kB" line of /proc/PID/status.
func procKB(t *testing.T, pid int, name string) int64 {
	t.Helper()
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(status)) {
		if v, ok := strings.CutPrefix(line, name+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb
		}
	}
	t.Fatalf("no %s in /proc/%d/status", name, pid)
	return 0
}

// kvBytes is an f16 KV cache's size for ctx tokens.
func kvBytes(s testmodel.Shape, ctx int) int64 {
	return int64(2 * s.Layers * s.KVHeads * s.HeadDim * 2 * ctx)
}

func median(runs []streamed, f func(streamed) float64) float64 {
	v := make([]float64, len(runs))
	for i, r := range runs {
		v[i] = f(r)
	}
	return medianOf(v)
}

func medianOf(v []float64) float64 {
	v = slices.Clone(v)
	slices.Sort(v)
	return v[len(v)/2]
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func mb(b int64) string      { return fmt.Sprintf("%.0f MB", float64(b)/(1<<20)) }
func secs(s float64) string  { return fmt.Sprintf("%.2fs", s) }
func tps(x float64) string   { return fmt.Sprintf("%.1f tok/s", x) }
func ratio(x float64) string { return fmt.Sprintf("%.2f×", x) }
