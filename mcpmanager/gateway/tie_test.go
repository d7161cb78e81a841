package gateway

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// noGrace makes a server's question tied to the one caller running on it
// however recently another's call there ended: for the tests whose
// callers, new in each case, call one after the other.
func noGrace(t *testing.T) {
	grace := router.TieGrace
	router.TieGrace = 0
	t.Cleanup(func() { router.TieGrace = grace })
}

// askGateway is 'serve --http' in front of the testserver in mode
// askserver (a real stdio server process) as server "up" (askUp).
func askGateway(t *testing.T) (url, token string) {
	t.Helper()
	return serveHTTP(t, askUp(t))
}

// awaitFile waits for path and returns what it holds.
func awaitFile(t *testing.T, path string) string {
	t.Helper()
	var b []byte
	mcptest.Within(t, 30*time.Second, path, func() (err error) {
		b, err = os.ReadFile(path)
		return err
	})
	return string(b)
}

// TestLateQuestionsReachNobody: over 'serve --http', a stdio server's
// question asked after client A's call returned (a job runner's) is
// refused while client B's call runs there, though B's is the one call
// running: A's ended moments ago, and the request names neither. Neither
// client is asked. Asked after A's own next call started, it is A's.
func TestLateQuestionsReachNobody(t *testing.T) {
	for _, kind := range []string{"sampling", "form"} {
		for _, tc := range []struct {
			name string
			// holder is who runs a call while the question comes: "A" or "B".
			holder string
			want   string
		}{
			{"while another client's call runs", "B", "refused: "},
			{"while its own client's next call runs", "A", "answered: "},
		} {
			t.Run(kind+" "+tc.name, func(t *testing.T) {
				url, token := askGateway(t)
				a, b := newParty("A"), newParty("B")
				clients := map[string]*client.Client{
					"A": httpClient(t, url, token, mcp.ProtocolVersion20251125, a),
					"B": httpClient(t, url, token, mcp.ProtocolVersion20251125, b),
				}
				dir := t.TempDir()
				after, gate := filepath.Join(dir, "after"), filepath.Join(dir, "gate")
				if got := callText(t, clients["A"], "later", map[string]any{"who": "alice", "kind": kind, "after": after}); got != "started" {
					t.Fatalf("A's later = %q", got)
				}
				held := background(t, clients[tc.holder], "hold", map[string]any{"gate": gate})
				awaitFile(t, gate+".started")
				if err := os.WriteFile(after, nil, 0o600); err != nil {
					t.Fatal(err)
				}
				got := awaitFile(t, after+".out")
				if err := os.WriteFile(gate, nil, 0o600); err != nil {
					t.Fatal(err)
				}
				if r := within(t, held, "the end of the hold call"); r != "held" {
					t.Errorf("the hold call = %q", r)
				}
				if !strings.HasPrefix(got, tc.want) {
					t.Errorf("the server's late question came back %q, want %q…", got, tc.want)
				}
				if tc.holder == "B" && !strings.Contains(got, "ended") {
					t.Errorf("refused with %q, want it to say another's call ended", got)
				}
				if s := b.seen(); len(s) != 0 {
					t.Errorf("B, whose call did not ask, was asked %q", s)
				}
				if s := a.seen(); tc.holder == "A" && len(s) != 1 || tc.holder == "B" && len(s) != 0 {
					t.Errorf("A was asked %q", s)
				}
			})
		}
	}
}
