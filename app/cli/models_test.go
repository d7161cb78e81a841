package cli

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/app/localmodel"
	"github.com/switchboard-app/switchboard/app/localmodel/gguf"
	"github.com/switchboard-app/switchboard/app/localmodel/testmodel"
)

// tinyGGUF is a valid GGUF file (metadata only) padded to size bytes.
func tinyGGUF(t *testing.T, size int) []byte {
	t.Helper()
	var b bytes.Buffer
	f := &gguf.File{}
	f.Set("general.name", gguf.TypeString, "tiny")
	if err := testmodel.Encode(&b, f); err != nil {
		t.Fatal(err)
	}
	return append(b.Bytes(), make([]byte, size-b.Len())...)
}

// modelsCatalog makes the catalog (localmodel.CatalogEnv) one model whose
// pinned content is want.
func modelsCatalog(t *testing.T, want []byte) {
	t.Helper()
	sum := sha256.Sum256(want)
	b, _ := json.Marshal([]localmodel.Entry{{Name: "tiny", Title: "Tiny", File: "Tiny.gguf", Size: int64(len(want)),
		SHA256: hex.EncodeToString(sum[:]), Licence: "MIT", GoodFor: "tests", RAM: 1 << 30, Default: true}})
	p := filepath.Join(t.TempDir(), "catalog.json")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(localmodel.CatalogEnv, p)
}

func TestModelsCommands(t *testing.T) {
	model := tinyGGUF(t, 1<<20)
	modelsCatalog(t, model)
	serve := model
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.ServeContent(w, r, "Tiny.gguf", time.Time{}, bytes.NewReader(serve))
	}))
	defer ts.Close()
	dd := "--data-dir=" + t.TempDir()
	mine := filepath.Join(t.TempDir(), "Mine.gguf")
	os.WriteFile(mine, tinyGGUF(t, 100), 0o644)
	notModel := filepath.Join(t.TempDir(), "notes.gguf")
	os.WriteFile(notModel, []byte("not a model"), 0o644)

	steps := []struct {
		name           string
		args           []string
		wrong          bool // the mirror serves another file
		code           int
		stdout, stderr string
	}{
		{name: "list before", args: []string{"models", "list"}, stdout: "not downloaded (recommended)"},
		{name: "models alone lists them", args: []string{"models"}, stdout: "not downloaded (recommended)"},
		{name: "url refused", args: []string{"models", "url", "ftp://x"}, code: 2, stderr: "use https://"},
		{name: "url", args: []string{"models", "url", ts.URL}},
		{name: "url printed", args: []string{"models", "url"}, stdout: ts.URL},
		{name: "unknown model", args: []string{"models", "download", "nope"}, code: 2, stderr: "not a model of the catalog"},
		{name: "wrong file", args: []string{"models", "download", "tiny"}, wrong: true, code: 2, stderr: "SHA-256"},
		{name: "download", args: []string{"models", "download", "tiny"}, stdout: "tiny is ready", stderr: "tiny: 1.0 MB of 1.0 MB (100%)"},
		{name: "list after", args: []string{"models", "list"}, stdout: "downloaded (recommended)"},
		{name: "add not a model", args: []string{"models", "add", notModel}, code: 2, stderr: "not a GGUF model file llama.cpp can run"},
		{name: "add", args: []string{"models", "add", mine}, stdout: "added Mine"},
		{name: "list json", args: []string{"models", "list", "--json"}, stdout: `"chosen": true`},
		{name: "remove", args: []string{"models", "remove", "tiny"}},
		{name: "remove again", args: []string{"models", "remove", "tiny"}, code: 2, stderr: "is not on this computer"},
		{name: "list removed", args: []string{"models", "list"}, stdout: "not downloaded"},
	}
	for _, s := range steps {
		serve = model
		if s.wrong {
			serve = tinyGGUF(t, 1<<20+1)
		}
		code, out, errs, _ := run(t, append([]string{dd}, s.args...)...)
		if code != s.code || !strings.Contains(out, s.stdout) || !strings.Contains(errs, s.stderr) {
			t.Errorf("%s: exit %d (want %d)\nstdout: %s(want %q)\nstderr: %s(want %q)", s.name, code, s.code, out, s.stdout, errs, s.stderr)
		}
	}
}

// Ctrl-C (the command's context ending) stops a download keeping the
// partial file, which the list shows and the next download resumes.
func TestModelsDownloadInterruptedResumes(t *testing.T) {
	model := tinyGGUF(t, 2<<20)
	modelsCatalog(t, model)
	released := make(chan struct{})
	var first atomic.Bool
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if first.Swap(true) { // later requests: the file, from the Range asked
			http.ServeContent(w, r, "Tiny.gguf", time.Time{}, bytes.NewReader(model))
			return
		}
		w.Header().Set("Content-Length", "2097152")
		w.Write(model[:1<<20]) // half, then the connection stalls
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-released:
		}
	}))
	defer ts.Close()
	defer close(released)
	data := t.TempDir()
	dd := "--data-dir=" + data
	if code, _, errs, _ := run(t, dd, "models", "url", ts.URL); code != 0 {
		t.Fatal(errs)
	}
	ctx, cancel := context.WithCancel(t.Context())
	type result struct {
		code int
		errs string
	}
	done := make(chan result, 1)
	go func() {
		var out, errb bytes.Buffer
		code := Run(ctx, []string{dd, "models", "download", "tiny"}, Env{Stdout: &out, Stderr: &errb})
		done <- result{code, errb.String()}
	}()
	part := filepath.Join(data, "models", "Tiny.gguf.part")
	for deadline := time.Now().Add(20 * time.Second); ; { // until bytes arrived
		if st, err := os.Stat(part); err == nil && st.Size() > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no bytes arrived")
		}
		runtime.Gosched()
	}
	cancel() // the user presses Ctrl-C
	res := <-done
	if res.code != 1 || !strings.Contains(res.errs, "the partial file is kept") {
		t.Fatalf("interrupted download: exit %d, stderr %s", res.code, res.errs)
	}
	if _, out, _, _ := run(t, dd, "models", "list"); !strings.Contains(out, "partly downloaded (") {
		t.Errorf("list after the interruption: %s", out)
	}
	// The resumed download starts where the first stopped, not at 0.
	code, out2, errs, _ := run(t, dd, "models", "download", "tiny")
	line, _, _ := strings.Cut(errs, "\n")
	if code != 0 || !strings.Contains(out2, "ready") || strings.HasPrefix(line, "tiny: 0 bytes") || !strings.Contains(errs, "tiny: 2.1 MB of 2.1 MB (100%)") {
		t.Errorf("resumed download: exit %d\n%s%s", code, out2, errs)
	}
}

// Every models command says what it did, and prints JSON with --json.
func TestModelsCommandsSayWhatTheyDidAndSpeakJSON(t *testing.T) {
	model := tinyGGUF(t, 1<<20)
	modelsCatalog(t, model)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.ServeContent(w, r, "Tiny.gguf", time.Time{}, bytes.NewReader(model))
	}))
	defer ts.Close()
	dd := "--data-dir=" + t.TempDir()
	mine := filepath.Join(t.TempDir(), "Mine.gguf")
	os.WriteFile(mine, tinyGGUF(t, 100), 0o644)
	for _, s := range []struct {
		name   string
		args   []string
		stdout string
	}{
		{"url --json", []string{"models", "url", ts.URL, "--json"}, `"url": "` + ts.URL + `"`},
		{"url printed as JSON", []string{"models", "url", "--json"}, `"url": "` + ts.URL + `"`},
		{"download --json", []string{"models", "download", "tiny", "--json"}, `"installed": true`},
		{"add --json", []string{"models", "add", mine, "--json"}, `"chosen": true`},
		{"added again: the same name", []string{"models", "add", mine}, "added Mine (" + mine + ", 100 bytes)"},
		{"run --json", []string{"models", "run", "--json"}, `"context": 0`},
		{"run set --json", []string{"models", "run", "--context", "8192", "--json"}, `"context": 8192`},
		{"remove an added file", []string{"models", "remove", "Mine"}, "forgot Mine (its file stays: " + mine + ")"},
		{"remove --json", []string{"models", "remove", "tiny", "--json"}, `"removed": "deleted"`},
	} {
		code, out, errs, _ := run(t, append([]string{dd}, s.args...)...)
		if code != 0 || !strings.Contains(out, s.stdout) {
			t.Errorf("%s: exit %d\nstdout: %s(want %q)\nstderr: %s", s.name, code, out, s.stdout, errs)
		}
		if strings.Contains(strings.Join(s.args, " "), "--json") && !json.Valid([]byte(out)) {
			t.Errorf("%s: not JSON: %s", s.name, out)
		}
	}
	if _, err := os.Stat(mine); err != nil {
		t.Fatalf("forgetting a file deleted it: %v", err)
	}
}

// A failed download says which model and why first, then what to do
// with the CLI's commands; a file the server refused leaves no .part.
func TestModelsDownloadFailureSaysWhyThenWhatToDo(t *testing.T) {
	modelsCatalog(t, tinyGGUF(t, 1<<20))
	ts := httptest.NewServer(http.NotFoundHandler())
	defer ts.Close()
	data := t.TempDir()
	dd := "--data-dir=" + data
	if code, _, errs, _ := run(t, dd, "models", "url", ts.URL); code != 0 {
		t.Fatal(errs)
	}
	code, _, errs, _ := run(t, dd, "models", "download", "tiny")
	lines := strings.Split(strings.TrimSpace(errs), "\n")
	if code != 1 || len(lines) < 2 || !strings.HasPrefix(lines[0], "switchboard: Could not download Tiny: 127.0.0.1:") || !strings.HasSuffix(lines[0], "answered 404 Not Found.") ||
		!strings.HasPrefix(lines[1], "Retry with 'switchboard models download tiny'") {
		t.Fatalf("exit %d, stderr:\n%s\nwant the sentence, then the advice", code, errs)
	}
	if _, err := os.Stat(filepath.Join(data, "models", "Tiny.gguf.part")); !os.IsNotExist(err) {
		t.Fatalf("a refused download left a .part: %v", err)
	}
}

// 'models status' says where the runtime is (or that it is missing) and
// how the default model would run here, without starting it.
func TestModelsStatus(t *testing.T) {
	model := tinyGGUF(t, 1<<20)
	modelsCatalog(t, model)
	dir := t.TempDir()
	bin := filepath.Join(dir, "llama-server")
	os.WriteFile(bin, []byte("#!/bin/sh\nexit 1\n"), 0o700)
	os.WriteFile(filepath.Join(dir, "libggml-cpu-haswell.so"), nil, 0o600)
	os.WriteFile(filepath.Join(dir, "libggml-cpu-sse42.so"), nil, 0o600)
	t.Setenv("SWITCHBOARD_LLAMA_SERVER", bin)
	dd := "--data-dir=" + t.TempDir()
	code, out, errs, _ := run(t, dd, "models", "status")
	if code != 0 || !strings.Contains(out, "Runtime:   "+bin+" (llama.cpp node-llama-cpp-3.22.1, with ggml's CPU backends haswell, sse42)") ||
		!strings.Contains(out, "Model:     none yet: download one") || !strings.Contains(out, "State:     not running in this command") || !strings.Contains(out, "local-model.log") {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	mine := filepath.Join(t.TempDir(), "Mine.gguf")
	os.WriteFile(mine, tinyGGUF(t, 100), 0o644)
	if code, _, errs, _ := run(t, dd, "models", "add", mine); code != 0 {
		t.Fatal(errs)
	}
	code, out, errs, _ = run(t, dd, "models", "status")
	if code != 0 || !strings.Contains(out, "Model:     Mine\n") || !strings.Contains(out, "Runs with: context ") {
		t.Fatalf("with a model: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs, _ = run(t, dd, "models", "status", "tiny", "--json")
	var v statusView
	if code != 0 || json.Unmarshal([]byte(out), &v) != nil || v.Runtime != bin || v.Model != "tiny" || !strings.Contains(v.Problem, "switchboard models download tiny") {
		t.Fatalf("a model not here, --json: exit %d\n%s%s", code, out, errs)
	}
	t.Setenv("SWITCHBOARD_LLAMA_SERVER", filepath.Join(dir, "missing"))
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	if code, out, errs, _ := run(t, dd, "models", "status"); code != 0 || !strings.Contains(out, "Runtime:   missing: the local model runtime (llama-server) is not installed") {
		t.Fatalf("no runtime: exit %d\n%s%s", code, out, errs)
	}
}

// 'models found' (and 'models add' alone) lists the GGUF models LM Studio
// and Ollama keep here; adding one says so in the list.
func TestModelsFound(t *testing.T) {
	modelsCatalog(t, tinyGGUF(t, 1<<20))
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("OLLAMA_MODELS", "")
	lms := filepath.Join(home, ".lmstudio", "models", "lmstudio-community", "Qwen3-GGUF")
	os.MkdirAll(lms, 0o755)
	file := filepath.Join(lms, "Qwen3-4B-Q4_K_M.gguf")
	os.WriteFile(file, tinyGGUF(t, 5000), 0o644)
	dd := "--data-dir=" + t.TempDir()
	for _, args := range [][]string{{"models", "found"}, {"models", "add"}} {
		code, out, errs, _ := run(t, append([]string{dd}, args...)...)
		if code != 0 || !strings.Contains(out, "Qwen3-4B-Q4_K_M") || !strings.Contains(out, "LM Studio") || !strings.Contains(out, "5.0 KB") || !strings.Contains(out, "switchboard models add FILE") {
			t.Fatalf("%v: exit %d\n%s%s", args, code, out, errs)
		}
	}
	if code, _, errs, _ := run(t, dd, "models", "add", file); code != 0 {
		t.Fatal(errs)
	}
	code, out, errs, _ := run(t, dd, "models", "found", "--json")
	if code != 0 || !strings.Contains(out, `"added": "Qwen3-4B-Q4_K_M"`) {
		t.Fatalf("after adding it: exit %d\n%s%s", code, out, errs)
	}
}
