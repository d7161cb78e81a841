package localmodel_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/app/localmodel"
)

// startFake starts the stand-in for llama-server (fakeruntime_test.go) on
// a file that only has to exist, its log in the test's directory.
func startFake(t *testing.T) (*localmodel.Server, string, error) {
	t.Helper()
	t.Setenv(fakeRuntimeEnv, "1")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	model := filepath.Join(dir, "model.gguf")
	if err := os.WriteFile(model, []byte("GGUF"), 0o600); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(dir, "local-model.log")
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	s, err := localmodel.Start(ctx, localmodel.Options{Binary: exe, Model: model, LogPath: log})
	if err == nil {
		t.Cleanup(func() { _ = s.Close(context.Background()) })
	}
	return s, log, err
}

// A model llama.cpp refuses exits llama-server with status 1, which says
// nothing: the error says why from what it logged, and names the log once.
func TestALoadThatFailsSaysWhyFromItsLog(t *testing.T) {
	tests := []struct {
		name, logged, want string
	}{
		{"cut short", "0.00.651.650 E llama_model_load: error loading model: tensor 'token_embd.weight' data is not within the file bounds, model is corrupted or incomplete\n0.00.651.682 E llama_model_load_from_file_impl: failed to load model\n",
			"the model file is cut short"},
		{"a later part of a split model", "0.00.048.815 E llama_model_load: error loading model: illegal split file idx: 1 (file: /m/x-00002-of-00003.gguf), model must be loaded with the first split\n",
			"not the first part of a model split in parts"},
		{"a missing part", "E gguf_init_from_file: failed to open GGUF file '/m/rev-00002-of-00002.gguf' (No such file or directory)\nE llama_model_load: error loading model: llama_model_loader: failed to load GGUF split from /m/rev-00002-of-00002.gguf\n",
			"/m/rev-00002-of-00002.gguf, is missing"},
		{"a quantized cache the heads cannot hold", "0.00.624.990 E llama_init_from_model: K cache type q8_0 with block size 32 does not divide n_embd_head_k=16\n",
			"quantized KV cache does not suit"},
		{"an unknown architecture", "E llama_model_load: error loading model: error loading model architecture: unknown model architecture: 'qwen9'\n",
			"does not know the model's architecture (qwen9)"},
		{"memory", "E ggml_backend_cpu_buffer_type_alloc_buffer: failed to allocate buffer of size 9876543210\n",
			"not enough free memory"},
		{"anything else: its words", "I loading\n0.01 E llama_model_load: error loading model: something new\nE srv  llama_server: exiting due to model loading error\n",
			"its log says: something new"},
		{"nothing said", "", "exited without saying why"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			logged := tt.logged
			if logged == "" {
				logged = " " // the stand-in fails on any value
			}
			t.Setenv(fakeFailEnv, logged)
			_, log, err := startFake(t)
			le, ok := errors.AsType[*localmodel.LoadError](err)
			if !ok || !strings.Contains(le.Why, tt.want) {
				t.Fatalf("err = %v; want a LoadError saying %q", err, tt.want)
			}
			if strings.Count(err.Error(), log) != 1 || strings.Contains(localmodel.Reason(err), log) || strings.Contains(err.Error(), "exit status") {
				t.Fatalf("err %q and its reason %q: the log's path once in the error, not in the reason, and no exit status", err, localmodel.Reason(err))
			}
		})
	}
}

// A llama-server killed mid-answer breaks the request before its exit
// reaches the supervisor (Status still says Ready): Down asks the process
// itself, so a request that broke off is told the model went down,
// whichever comes first.
func TestDownAsksTheProcessNotTheStatus(t *testing.T) {
	old := localmodel.RestartBackoff
	localmodel.RestartBackoff = time.Hour // no restart during the test
	t.Cleanup(func() { localmodel.RestartBackoff = old })
	s, _, err := startFake(t)
	if err != nil {
		t.Fatal(err)
	}
	run := s.Exited()
	if s.Down(t.Context(), run) {
		t.Fatal("a running server is down")
	}
	p, err := os.FindProcess(s.Status().PID)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Kill(); err != nil { // SIGKILL
		t.Fatal(err)
	}
	if !s.Down(t.Context(), run) {
		t.Fatalf("a killed server is not down (status %+v)", s.Status())
	}
}
