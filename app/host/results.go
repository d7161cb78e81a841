package host

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/builtin"
	"github.com/switchboard-app/switchboard/builtin/contentstore"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// chatResults keeps capped tool results for the chat they belong to: one
// content store per chat in <data dir>/results, which the host opens itself
// (the content store's own code, not its MCP server). No built-in server
// opens that folder, so no model's content-store__* tool, no client of
// 'switchboard serve' and no 'switchboard builtin content-store' reaches a
// kept result; the chat's read_result reaches its own chat's only.
type chatResults struct {
	root string

	mu     sync.Mutex
	stores *contentstore.Stores // opened on first use
	closed bool
}

var _ chat.ResultStore = (*chatResults)(nil)

// open returns the stores, opening them on first use.
func (c *chatResults) open() (*contentstore.Stores, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, ErrResultsClosed
	}
	if c.stores == nil {
		s, err := contentstore.Open(contentstore.Options{Root: c.root})
		if err != nil {
			return nil, fmt.Errorf("chat results: %w", err)
		}
		c.stores = s
	}
	return c.stores, nil
}

// close closes the stores; later calls fail with ErrResultsClosed.
func (c *chatResults) close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	if c.stores == nil {
		return nil
	}
	return c.stores.Close()
}

// storeOf is the id of chat chatID's results store: a hash, so any chat
// id makes a valid store id and no chat id names another chat's store.
func storeOf(chatID string) string {
	sum := sha256.Sum256([]byte(chatID))
	return "chat-" + hex.EncodeToString(sum[:10])
}

// Keep adds text to the chat's results store (made on first use) and
// returns its handle.
func (c *chatResults) Keep(ctx context.Context, chatID, callID, tool, text string) (chat.Kept, error) {
	s, err := c.open()
	if err != nil {
		return chat.Kept{}, err
	}
	id := storeOf(chatID)
	in := contentstore.Input{Text: text, Title: fmt.Sprintf("Result of %s (call %s)", tool, callID)}
	res, err := s.Add(ctx, id, in)
	if errors.Is(err, contentstore.ErrUnknownStore) {
		// The name is the id (a slug of itself): Create makes exactly it.
		_, cerr := s.Create(ctx, id, "Tool results of chat "+chatID+" kept for its model to read on.", "")
		if cerr != nil && !errors.Is(cerr, contentstore.ErrStoreExists) { // a parallel call made it
			return chat.Kept{}, cerr
		}
		res, err = s.Add(ctx, id, in)
	}
	if err != nil {
		return chat.Kept{}, err
	}
	if len(res.Contents) == 0 {
		return chat.Kept{}, errors.New("the chat's results store added nothing")
	}
	return chat.Kept{ID: res.Contents[0].ID}, nil
}

// Read reads lines of a result kept for chatID; an id of another chat's
// store is not read, whatever it names.
func (c *chatResults) Read(ctx context.Context, chatID, id string, from, to int) (chat.KeptLines, error) {
	if !strings.HasPrefix(id, storeOf(chatID)+":") {
		return chat.KeptLines{}, chat.ErrNotKept
	}
	s, err := c.open()
	if err != nil {
		return chat.KeptLines{}, err
	}
	ex, err := s.Read(ctx, id, from, to)
	if errors.Is(err, contentstore.ErrUnknownContent) {
		return chat.KeptLines{}, chat.ErrNotKept
	}
	if err != nil {
		return chat.KeptLines{}, err
	}
	return chat.KeptLines{From: ex.FromLine, To: ex.ToLine, Total: ex.TotalLines, Text: ex.Text, More: ex.More}, nil
}

// Search searches the results kept for chatID (id alone when set).
func (c *chatResults) Search(ctx context.Context, chatID, id, query string) ([]chat.KeptHit, error) {
	sid := storeOf(chatID)
	q := contentstore.Query{StoreID: sid, Text: query}
	if id != "" {
		if !strings.HasPrefix(id, sid+":") {
			return nil, chat.ErrNotKept
		}
		q.Filters = map[string]string{"contentId": id}
	}
	s, err := c.open()
	if err != nil {
		return nil, err
	}
	res, err := s.Search(ctx, q)
	if errors.Is(err, contentstore.ErrUnknownStore) {
		return nil, nil // nothing kept yet
	}
	if err != nil {
		return nil, err
	}
	hits := make([]chat.KeptHit, 0, len(res.Hits))
	for _, h := range res.Hits {
		hits = append(hits, chat.KeptHit{ID: h.ContentID, From: h.FromLine, To: h.ToLine, Snippet: h.Snippet})
	}
	return hits, nil
}

// forget deletes every result kept for chatID, with the content store's
// own DeleteStore. A chat that kept none is no error.
func (c *chatResults) forget(ctx context.Context, chatID string) error {
	s, err := c.open()
	if err != nil {
		return err
	}
	if err := s.DeleteStore(ctx, storeOf(chatID)); err != nil && !errors.Is(err, contentstore.ErrUnknownStore) {
		return fmt.Errorf("delete the chat's kept tool results: %w", err)
	}
	return nil
}

// The store every chat's capped results went to before each chat had its
// own: in the content store built-in, so every chat's model, every client
// of 'switchboard serve' and 'switchboard builtin content-store' could
// read all of them. Its id, and its name and description as the app made
// it (a store the user made is never taken for it).
const (
	legacyResultsID          = "chat-results"
	legacyResultsName        = "Chat results"
	legacyResultsDescription = "The whole of tool results that were too long for a chat's model. The model saw their first lines and reads on by contentId."
)

// dropLegacyResults deletes that store, with the built-in's own
// deleteStore, once the built-ins run. What it held is in the history
// too (the tool cards show it); only handles that no longer read pointed
// to it. A store another process holds is left for the next start.
func (h *Host) dropLegacyResults(ctx context.Context) {
	b, err := os.ReadFile(filepath.Join(h.dir.Stores(), legacyResultsID, "store.json"))
	if err != nil {
		return
	}
	var in struct{ Name, Description string }
	if json.Unmarshal(b, &in) != nil || in.Name != legacyResultsName || in.Description != legacyResultsDescription {
		return
	}
	res, err := h.router().Call(ctx, builtin.ContentStore, "deleteStore", map[string]any{"storeId": legacyResultsID}, router.CallOptions{})
	if err == nil && res.IsError {
		err = errors.New("the content store refused to delete it")
		if len(res.Content) > 0 {
			if t, ok := res.Content[0].(mcp.TextContent); ok {
				err = errors.New(t.Text)
			}
		}
	}
	if err != nil {
		slog.Warn("content store: the shared store of earlier versions is left for the next start", "store", legacyResultsName, "err", err)
	}
}
