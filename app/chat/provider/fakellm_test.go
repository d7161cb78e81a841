package provider_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
)

// startFakeLLM builds testdata/fakellm and runs it; it exits when the test
// closes its stdin.
func startFakeLLM(t *testing.T) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		// SA1019: the test runs where it was built, so its GOROOT is this machine's.
		goBin = filepath.Join(runtime.GOROOT(), "bin", "go") //nolint:staticcheck
	}
	bin := filepath.Join(t.TempDir(), "fakellm")
	build := exec.CommandContext(t.Context(), goBin, "build", "-o", bin, "./testdata/fakellm")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build fakellm: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "-addr", "127.0.0.1:0", "-stdin")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		stdin.Close()
		select {
		case err := <-exited:
			if err != nil {
				t.Errorf("fakellm exited with %v", err)
			}
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
			t.Error("fakellm did not exit when its stdin closed")
		}
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("read the URL line: %v", err)
	}
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "FAKELLM_URL=")
	if !ok || !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("first line %q, want FAKELLM_URL=http://127.0.0.1:PORT", line)
	}
	go func() { _, _ = io.Copy(io.Discard, stdout) }()
	return url
}

func post(t *testing.T, url, body string) {
	t.Helper()
	res, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(res.Body)
		t.Fatalf("POST %s: %s %s", url, res.Status, b)
	}
}

func TestFakeLLMProgram(t *testing.T) {
	url := startFakeLLM(t)
	post(t, url+"/__fake/enqueue", `[
		{"text": "Hello from the program.", "delay": "1ms"},
		{"toolCalls": [{"id": "t1", "name": "files__read", "arguments": {"path": "a.md"}}]},
		{"when": "ping", "text": "pong"}
	]`)
	open := func(kind provider.Kind) provider.Provider {
		base := url
		if kind == provider.KindOpenAI {
			base += "/v1"
		}
		p, err := provider.New(provider.Config{Kind: kind, Name: "fakellm", BaseURL: base})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	var rec recorder
	resp, err := open(provider.KindOpenAI).Stream(t.Context(), userTurn("hi"), rec.on)
	if err != nil || resp.Text != "Hello from the program." || len(rec.of(provider.EventText)) < 2 {
		t.Fatalf("openai: %q in %d events, %v", resp.Text, len(rec.of(provider.EventText)), err)
	}
	req := userTurn("read it")
	req.Tools = []provider.Tool{{Name: "files__read"}}
	resp, err = open(provider.KindAnthropic).Stream(t.Context(), req, nil)
	if err != nil || len(resp.ToolCalls) != 1 || resp.ToolCalls[0].Name != "files__read" || string(resp.ToolCalls[0].Arguments) != `{"path":"a.md"}` {
		t.Fatalf("anthropic: %+v, %v", resp, err)
	}
	for range 2 {
		resp, err = open(provider.KindOllama).Stream(t.Context(), userTurn("ping?"), nil)
		if err != nil || resp.Text != "pong" {
			t.Fatalf("rule: %q, %v", resp.Text, err)
		}
	}

	res, err := http.Get(url + "/__fake/requests")
	if err != nil {
		t.Fatal(err)
	}
	var calls []providertest.Call
	err = json.NewDecoder(res.Body).Decode(&calls)
	res.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	paths := []string{}
	for _, c := range calls {
		paths = append(paths, c.Path)
	}
	if strings.Join(paths, " ") != "/v1/chat/completions /v1/messages /api/show /api/chat /api/chat" {
		t.Fatalf("recorded %v", paths)
	}
	if !bytes.Contains(calls[1].Body, []byte(`"name":"files__read"`)) {
		t.Fatalf("anthropic body %s", calls[1].Body)
	}

	post(t, url+"/__fake/reset", "")
	_, err = open(provider.KindOpenAI).Stream(t.Context(), userTurn("ping?"), nil)
	var e *provider.Error
	if !errors.As(err, &e) || e.Status != http.StatusInternalServerError {
		t.Fatalf("after reset: %v, want the no-scripted-reply 500", err)
	}
}
