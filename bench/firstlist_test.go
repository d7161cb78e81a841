//go:build bench

package bench_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// benchFirstList: what a client that lists once at its start (Codex gives
// a server one second) waits for from 'switchboard serve' running its own
// ten server-everything: exec to initialize's answer and to the first
// complete tools/list, on a data dir where the servers' listings are kept
// from their last run against one where they are not (their first run),
// alternating, medians of 3.
func benchFirstList(t *testing.T, tb *table, everything, bin string) {
	dir := t.TempDir()
	cfg := serveConfig(t, dir, "f", everything, 10)
	kept := filepath.Join(dir, "kept")
	firstList(t, bin, cfg, kept) // keeps the listings
	var keptInit, keptList, newInit, newList []time.Duration
	for i := range 3 {
		in, l := firstList(t, bin, cfg, kept)
		keptInit, keptList = append(keptInit, in), append(keptList, l)
		in, l = firstList(t, bin, cfg, filepath.Join(dir, fmt.Sprint("new", i)))
		newInit, newList = append(newInit, in), append(newList, l)
	}
	tb.dur("serve running its own 10 server-everything, exec to the first complete tools/list: their tools kept from the last run vs not (a first run)", median(keptList), median(newList), "< 1 s")
	tb.dur("serve running its own 10 server-everything, exec to initialize's answer: their tools kept from the last run vs not (a first run)", median(keptInit), median(newInit), "")
}

// firstList starts serve on cfg with the data dir data, sends initialize
// and tools/list at once, and times each answer from exec; the list must
// have every server's tools.
func firstList(t *testing.T, bin, cfg, data string) (initialized, listed time.Duration) {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), bin, "serve", "--config", cfg)
	cmd.Env = append(os.Environ(), "SWITCHBOARD_DATA_DIR="+data)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	fmt.Fprint(in, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`+"\n",
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n",
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`+"\n")
	r := bufio.NewReaderSize(out, 1<<20)
	for listed == 0 {
		line, err := r.ReadBytes('\n')
		if err != nil {
			t.Fatalf("serve's answers: %v", err)
		}
		var msg struct {
			ID     *int `json:"id"`
			Result struct {
				Tools []struct{ Name string } `json:"tools"`
			} `json:"result"`
		}
		if json.Unmarshal(line, &msg) != nil || msg.ID == nil {
			continue
		}
		switch *msg.ID {
		case 0:
			initialized = time.Since(start)
		case 1:
			listed = time.Since(start)
			if n := len(msg.Result.Tools); n < 10*10 {
				t.Fatalf("the first tools/list had %d tools, want every server's", n)
			}
		}
	}
	in.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("serve: %v", err)
	}
	return initialized, listed
}
