package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/builtin"
	"github.com/switchboard-app/switchboard/mcpmanager/registry"
)

// ResultsStoreName is the content store the whole of capped tool results
// go to; the model reads them from it by contentId.
const ResultsStoreName = "Chat results"

// chatResults keeps capped tool results in the built-in content store, by
// its own MCP tools (the same ones the model then reads them with), so a
// result is searchable like everything else the store holds.
type chatResults struct {
	h *Host

	mu      sync.Mutex
	storeID string
}

var _ chat.ResultStore = (*chatResults)(nil)

// Content store tools, by their MCP names.
const (
	csList   = "listStores"
	csCreate = "createStore"
	csAdd    = "addContent"
	csRead   = "readContent"
	csSearch = "search"
)

// Keep adds text to the "Chat results" store (made on first use) and
// returns its handle.
func (c *chatResults) Keep(ctx context.Context, chatID, callID, tool, text string) (chat.Kept, error) {
	id, err := c.store(ctx)
	if err != nil {
		return chat.Kept{}, err
	}
	var added struct {
		StoreID  string `json:"storeId"`
		Contents []struct {
			ID string `json:"contentId"`
		} `json:"contents"`
	}
	title := fmt.Sprintf("Result of %s (chat %s, call %s)", tool, chatID, callID)
	add := map[string]any{"storeId": id, "text": text, "title": title, "format": "txt"}
	if err := c.call(ctx, csAdd, add, &added); err != nil {
		// The user may have deleted the store: make it again, once.
		c.mu.Lock()
		c.storeID = ""
		c.mu.Unlock()
		if add["storeId"], err = c.store(ctx); err != nil {
			return chat.Kept{}, err
		}
		if err := c.call(ctx, csAdd, add, &added); err != nil {
			return chat.Kept{}, err
		}
	}
	if len(added.Contents) == 0 {
		return chat.Kept{}, errors.New("the content store added nothing")
	}
	return chat.Kept{
		ContentID: added.Contents[0].ID, StoreID: id,
		Read:   builtin.ContentStore + registry.Separator + csRead,
		Search: builtin.ContentStore + registry.Separator + csSearch,
	}, nil
}

// store is the results store's id, made when it does not exist.
func (c *chatResults) store(ctx context.Context) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.storeID != "" {
		return c.storeID, nil
	}
	var list struct {
		Stores []struct {
			ID   string `json:"id"`
			Name string `json:"name"`
		} `json:"stores"`
	}
	if err := c.call(ctx, csList, map[string]any{}, &list); err != nil {
		return "", err
	}
	for _, s := range list.Stores {
		if s.Name == ResultsStoreName {
			c.storeID = s.ID
			return s.ID, nil
		}
	}
	var made struct {
		ID string `json:"id"`
	}
	if err := c.call(ctx, csCreate, map[string]any{"name": ResultsStoreName,
		"description": "The whole of tool results that were too long for a chat's model. The model saw their first lines and reads on by contentId."}, &made); err != nil {
		return "", err
	}
	c.storeID = made.ID
	return made.ID, nil
}

// call runs one content store tool and decodes its structured result.
func (c *chatResults) call(ctx context.Context, tool string, args map[string]any, out any) error {
	res, err := c.h.registry().Call(ctx, builtin.ContentStore, tool, args, registry.CallOptions{})
	if err != nil {
		return fmt.Errorf("content store %s: %w", tool, err)
	}
	if res.IsError {
		return fmt.Errorf("content store %s: %s", tool, firstText(res))
	}
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil || res.StructuredContent == nil {
		raw = []byte(firstText(res))
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("content store %s: unexpected result: %w", tool, err)
	}
	return nil
}

// firstText is the first text content of res.
func firstText(res *mcp.CallToolResult) string {
	for _, c := range res.Content {
		if t, ok := c.(mcp.TextContent); ok {
			return t.Text
		}
	}
	return ""
}
