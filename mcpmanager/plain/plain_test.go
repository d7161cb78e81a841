package plain_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/builtin/contentstore/extract"
	"github.com/switchboard-app/switchboard/mcpmanager/plain"
)

type explained struct{}

func (explained) Error() string { return "tool x is missing" }
func (explained) Plain() (sentence, detail string) {
	return "Tool x is missing: add it.", "lookup x: no such tool"
}

func TestExplain(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	_, refused := http.Get("http://" + addr + "/v0/servers")
	ctx, cancel := context.WithTimeout(t.Context(), time.Nanosecond)
	defer cancel()
	<-ctx.Done()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr, nil)
	_, late := http.DefaultClient.Do(req)

	cases := []struct {
		name            string
		err             error
		sentence, inDet string
	}{
		{"an explainer", explained{}, "Tool x is missing: add it.", "no such tool"},
		{"an explainer wrapped keeps its context", fmt.Errorf("server x: %w", explained{}), "server x: Tool x is missing: add it.", "no such tool"},
		{"refused", refused, addr + " refused the connection: nothing is listening there. Check the address, or start the service, then try again.", "connection refused"},
		{"no such host", &net.DNSError{Err: "no such host", Name: "registry.example", IsNotFound: true}, "The address cannot be found: you may be offline, or the address is misspelt; check your connection and the address, then try again.", "no such host"},
		{"timed out", late, addr + " did not answer in time: check your connection, then try again.", "context deadline exceeded"},
		{"anything else: its first line", errors.New("config.json:3:5: a comma is missing\n  \"a\": 1\n      ^"), "config.json:3:5: a comma is missing", "^"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, d := plain.Explain(c.err)
			if s != c.sentence || !strings.Contains(d, c.inDet) {
				t.Errorf("sentence %q\nwant     %q\ndetail %q, want it to contain %q", s, c.sentence, d, c.inDet)
			}
			if text := plain.Text(c.err); !strings.HasPrefix(text, s+"\n") {
				t.Errorf("Text %q does not start with the sentence on its own line", text)
			}
		})
	}
	// A deadline of no request (a local server's start) is not the network's.
	local := fmt.Errorf("server did not finish the MCP handshake in time (30s): %w", context.DeadlineExceeded)
	if s, _ := plain.Explain(local); s != local.Error() {
		t.Errorf("a local deadline: %q", s)
	}
	if plain.Text(errors.New("one line")) != "one line" {
		t.Error("a one-line error is shown as it is")
	}
}

func TestAgo(t *testing.T) {
	for d, want := range map[time.Duration]string{
		-time.Second: "0 seconds", 40 * time.Second: "40 seconds", time.Minute: "1 minute", 59 * time.Minute: "59 minutes",
		3*time.Hour + 59*time.Minute: "3 hours", 47 * time.Hour: "47 hours", 72 * time.Hour: "3 days",
	} {
		if got := plain.Ago(d); got != want {
			t.Errorf("%v: %q, want %q", d, got, want)
		}
	}
}

// The built-in servers import nothing of mcpmanager, so the content store
// formats its limits with its own copy of Bytes' rule: the two must read
// the same.
func TestBytesIsTheContentStoresRule(t *testing.T) {
	for _, n := range []int64{0, 1, 1023, 1024, 1536, 1<<20 - 1, 1 << 20, 20 << 20, 1<<30 - 1, 1 << 30, 5 << 30} {
		if got, want := plain.Bytes(n), extract.HumanBytes(n); got != want {
			t.Errorf("Bytes(%d) = %q, the content store says %q", n, got, want)
		}
	}
}

func TestClip(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly", 7, "exactly"},
		{"one more", 7, "one mor…"},
		{"żółw jest wolny", 4, "żółw…"}, // runes, not bytes: no character is split
		{"", 3, ""},
	} {
		if got := plain.Clip(tc.s, tc.n); got != tc.want {
			t.Errorf("Clip(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
	if got := plain.FirstLine("  Lists the files.  \nMore detail.", 80); got != "Lists the files." {
		t.Errorf("FirstLine = %q", got)
	}
	if got := plain.FirstLine("ąęść", 2); got != "ąę…" {
		t.Errorf("FirstLine clipped = %q", got)
	}
}
