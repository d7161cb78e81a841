package mcpmanager

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/clients"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// A server's listing is the tools it listed the last time it ran, kept in
// Options.ListingsDir under its entry as written (ServerConfig.ListingKey),
// so that the next process running the same entry offers them while the
// server starts (router.Recaller) instead of nothing: a client that lists
// once, a second after it starts 'switchboard serve' (Codex), gets every
// tool even when a server takes longer than that to start. A call of one
// waits for its server. A different entry under the same name — another
// program, other arguments or variables — recalls nothing. What is kept is
// the listing as the router masked it (Options.Redact): no secret the
// server was started with reaches the file, and a file kept before that
// is masked when read and written again at the server's next listing.
// Removing the server deletes its file (ForgetListing).

// listingKey identifies the program a config entry runs: the fields that
// choose it and what it is given, as written, placeholders unexpanded (so
// no secret from the keyring is in it, and nothing that is not already in
// the file the entry came from). Its roots, timeouts and tool filters are
// not: they change what the router offers, not what the server lists.
func listingKey(s config.Server) string {
	b, err := json.Marshal(struct {
		Name, Command, Cwd, EnvFile, URL string
		Transport                        config.Transport
		Args                             []string
		Env, Headers                     map[string]string
	}{s.Name, s.Command, s.Cwd, s.EnvFile, s.URL, s.Transport, s.Args, s.Env, s.Headers})
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// keptListing is a listing's file.
type keptListing struct {
	Key   string     `json:"key"`
	Tools []mcp.Tool `json:"tools"`
}

// listing is one server's kept listing: read at the first Recall, written
// when the server lists tools that differ from it.
type listing struct {
	path, key string
	redact    router.Redactor // nil: none

	once  sync.Once
	tools []mcp.Tool // what the file held for key; nil: nothing known

	mu    sync.Mutex
	saved []byte // the tools as last read or written, encoded
}

// newListing is the listing of c in dir, or nil when there is none to
// keep: no folder, no key (a built-in, an entry from code), or a server
// that does not run.
func newListing(dir string, c ServerConfig, redact router.Redactor) *listing {
	if dir == "" || c.ListingKey == "" || c.Builtin != nil || c.Disabled || c.StartError != "" {
		return nil
	}
	return &listing{path: listingPath(dir, c.Name), key: c.ListingKey, redact: redact}
}

// listingPath is the file of server name's listing in dir.
func listingPath(dir, name string) string {
	sum := sha256.Sum256([]byte(name))
	// The name, made a file name, for a person looking; the hash keeps two
	// names that sanitize alike apart.
	return filepath.Join(dir, fileBase(name)+"-"+hex.EncodeToString(sum[:4])+".json")
}

// ForgetListing deletes the listing kept in dir for the server named
// name (a removed server's: its descriptions stay out of the data
// directory, and a new server of its name recalls nothing). None kept is
// no error.
func ForgetListing(dir, name string) error {
	if dir == "" {
		return nil
	}
	if err := os.Remove(listingPath(dir, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("delete the kept tool listing of %s: %w", name, err)
	}
	return nil
}

// recall is the kept tools for l's key, read once; nil when none.
func (l *listing) recall() []mcp.Tool {
	l.once.Do(func() {
		b, err := os.ReadFile(l.path)
		if err != nil {
			return
		}
		var k keptListing
		// The schemas as they were kept: as the server sent them (the
		// supervisor's Client keeps them raw), which mcp.Tool's decoding
		// would cut to the keywords it has fields for. A recalled
		// definition must be the very one its pin was taken of.
		var raw struct {
			Tools []struct {
				InputSchema  json.RawMessage `json:"inputSchema"`
				OutputSchema json.RawMessage `json:"outputSchema"`
			} `json:"tools"`
		}
		if json.Unmarshal(b, &k) != nil || json.Unmarshal(b, &raw) != nil || k.Key != l.key || k.Tools == nil || len(raw.Tools) != len(k.Tools) {
			return
		}
		for i := range k.Tools {
			t, in, out := &k.Tools[i], raw.Tools[i].InputSchema, raw.Tools[i].OutputSchema
			if len(in) > 0 && string(in) != "null" {
				t.RawInputSchema, t.InputSchema = in, mcp.ToolInputSchema{}
			}
			if len(out) > 0 && string(out) != "null" {
				t.RawOutputSchema, t.OutputSchema = out, mcp.ToolOutputSchema{}
			}
		}
		l.mu.Lock()
		l.saved, _ = json.Marshal(k.Tools) // as remember encodes the server's listing
		l.mu.Unlock()
		// A file kept before listings were masked: its secrets reach no one
		// (the saved encoding is the file's, so the next listing rewrites it).
		l.tools = router.RedactTools(l.redact, k.Tools)
	})
	return l.tools
}

// remember writes tools to l's file when they differ from what it holds,
// atomically: a reader (another process starting the same server) sees
// the old listing or the new one.
func (l *listing) remember(tools []mcp.Tool) {
	enc, err := json.Marshal(tools)
	if err != nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if bytes.Equal(enc, l.saved) {
		return
	}
	b, err := json.Marshal(keptListing{Key: l.key, Tools: tools})
	if err == nil {
		err = clients.WriteFile(l.path, b, nil)
	}
	if err != nil {
		slog.Warn("server's tool listing not kept for its next start", "path", l.path, "err", err)
		return
	}
	l.saved = enc
}

var _ router.Recaller = source{}

// Recall is the tools the server listed when it last ran with the same
// entry, while it starts for the first time (router.Recaller).
func (s source) Recall() []mcp.Tool {
	if s.m.listing == nil {
		return nil
	}
	select {
	case <-s.m.settled:
		return nil
	default:
	}
	return s.m.listing.recall()
}

// AwaitStart returns once the server's first start has ended or ctx has.
func (s source) AwaitStart(ctx context.Context) {
	select {
	case <-s.m.settled:
	case <-ctx.Done():
	}
}

// Remember keeps the server's listing for its next start.
func (s source) Remember(tools []mcp.Tool) {
	if s.m.listing != nil {
		s.m.listing.remember(tools)
	}
}
