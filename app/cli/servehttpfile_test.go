package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/builtin/mcptest"
)

// TestServeHTTPKeepsItsAddress: 'serve --http' started where nobody reads
// its stderr (a launcher) can still be connected to: the URL and token are
// in a file of the data dir only the user can read, named on stderr and
// in --help, that works as it says (the token opens /mcp), and is gone
// once serve ends.
func TestServeHTTPKeepsItsAddress(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(t.Context())
	var errb syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- Run(ctx, []string{"--data-dir", dir, "serve", "--local", "--http", "127.0.0.1:0"}, Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &errb})
	}()
	kept := regexp.MustCompile(`both are in (\S+serve-http-\d+\.json) \(readable by you only\)`)
	var file string
	mcptest.UntilNil(t, "serve --http to say where it keeps its address", func() error {
		m := kept.FindStringSubmatch(errb.String())
		if m == nil {
			return fmt.Errorf("its stderr: %s", errb.String())
		}
		file = m[1]
		return nil
	})
	fi, err := os.Stat(file)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("%s: %v, mode %v; want 0600", file, err, fi.Mode().Perm())
	}
	b, _ := os.ReadFile(file)
	var got struct{ URL, Token, Header string }
	if err := json.Unmarshal(b, &got); err != nil || !strings.Contains(errb.String(), "Streamable HTTP at "+got.URL+"\n") ||
		!strings.Contains(errb.String(), "Bearer "+got.Token+"\n") || got.Header != "Authorization: Bearer "+got.Token {
		t.Fatalf("%s holds %s (%v), serve said:\n%s", file, b, err, errb.String())
	}
	req, _ := http.NewRequestWithContext(t.Context(), "POST", got.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+got.Token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode == http.StatusUnauthorized || res.StatusCode == http.StatusForbidden {
		t.Fatalf("the kept token and URL: status %d", res.StatusCode)
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("serve exit %d: %s", code, errb.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve --http did not stop")
	}
	if _, err := os.Stat(file); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s after serve ended: %v", file, err)
	}
}
