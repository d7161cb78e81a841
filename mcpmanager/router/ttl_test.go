package router

import (
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// capsFake is a fake whose server announces tools/list_changed or not.
type capsFake struct {
	*fake
	listChanged bool
}

func (f capsFake) GetServerCapabilities() mcp.ServerCapabilities {
	return mcp.ServerCapabilities{Tools: &struct {
		ListChanged bool `json:"listChanged,omitempty"`
	}{ListChanged: f.listChanged}}
}

type capsSrc struct{ cl capsFake }

func (s capsSrc) Name() string               { return "srv" }
func (s capsSrc) CallTimeout() time.Duration { return 0 }
func (s capsSrc) Client() (Client, error)    { return s.cl, nil }

// TestListTTL: a tool list is kept as long as its ttlMs says (2026-07-28
// caching hints); ttlMs 0 keeps it until the server's change notice when it
// sends them, else ZeroTTLRefresh; a list without ttlMs is kept until the
// server says it changed.
func TestListTTL(t *testing.T) {
	old := ZeroTTLRefresh
	ZeroTTLRefresh = 30 * time.Millisecond
	clock := time.Now()
	now = func() time.Time { return clock }
	t.Cleanup(func() { ZeroTTLRefresh, now = old, time.Now })
	ms := func(v int64) *int64 { return &v }
	for _, c := range []struct {
		name        string
		ttl         *int64
		listChanged bool
		wantAgain   bool // listed again after 60 ms
	}{
		{"no ttlMs (before 2026-07-28)", nil, false, false},
		{"ttlMs 40", ms(40), true, true},
		{"ttlMs one hour", ms(3_600_000), false, false},
		{"ttlMs 0 with change notices", ms(0), true, false},
		{"ttlMs 0 without", ms(0), false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := &fake{list: func(mcp.Cursor) (*mcp.ListToolsResult, error) {
				res := page("", "echo")
				res.TTLMs = c.ttl
				return res, nil
			}}
			r := New(Options{})
			r.Add(capsSrc{capsFake{f, c.listChanged}})
			for range 2 {
				if _, err := r.ServerTools(t.Context(), "srv"); err != nil {
					t.Fatal(err)
				}
			}
			if n := f.calls.Load(); n != 1 {
				t.Fatalf("listed %d times in a row, want once", n)
			}
			clock = clock.Add(60 * time.Millisecond)
			if _, err := r.ServerTools(t.Context(), "srv"); err != nil {
				t.Fatal(err)
			}
			if again := f.calls.Load() == 2; again != c.wantAgain {
				t.Errorf("listed again after 60 ms: %v, want %v", again, c.wantAgain)
			}
		})
	}
}
