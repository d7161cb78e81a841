package mcpmanager

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/builtin"
	"github.com/switchboard-app/switchboard/builtin/contentstore"
	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

// callJSON calls a tool through the router and decodes its JSON result.
func callJSON[T any](t *testing.T, reg *router.Router, server, tool string, args map[string]any, opts router.CallOptions) T {
	t.Helper()
	res, err := reg.Call(t.Context(), server, tool, args, opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError {
		t.Fatalf("tool error: %s", mcptest.Text(res))
	}
	var v T
	if err := json.Unmarshal([]byte(mcptest.Text(res)), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// contentStore is the real content store as a built-in on root, as the app
// runs it; its starts and releases are recorded in ev.
func contentStore(root string, ev *tinyBuiltin) ServerConfig {
	return ServerConfig{Name: builtin.ContentStore, Builtin: &Builtin{Key: root, Start: func() (*server.MCPServer, func() error, error) {
		ev.record("start")
		srv, release, err := contentstore.Builtin.Start(builtin.Config{Root: root})
		if err != nil {
			return nil, nil, err
		}
		return srv, func() error { ev.record("release"); return release() }, nil
	}}}
}

// The content store runs as a ServerConfig.Builtin and is used through the
// router like any server: its tools listed and called as
// content-store__tool, progress notifications reaching the caller, its
// status beside a configured server's, and Close ending and releasing it.
func TestContentStoreBuiltin(t *testing.T) {
	ev := &tinyBuiltin{}
	m := New(Options{})
	t.Cleanup(func() { m.Close(context.Background()) })
	m.Apply([]ServerConfig{contentStore(t.TempDir(), ev), {Name: "configured", Command: faultServer, Disabled: true}})
	settle(t, m)
	ctx := t.Context()
	tools, errs := m.Router().Tools(ctx)
	var names []string
	for _, tl := range tools {
		if tl.Server == "content-store" {
			names = append(names, tl.Name)
		}
	}
	want := []string{"content-store__addContent", "content-store__createStore", "content-store__deleteContent", "content-store__deleteStore",
		"content-store__listContent", "content-store__listStores", "content-store__readContent", "content-store__reindexContent", "content-store__search"}
	if !slices.Equal(names, want) || len(errs) != 1 || errs[0].Server != "configured" {
		t.Fatalf("tools = %v, errs = %v", names, errs)
	}
	if st := m.Status(); len(st) != 2 || st[0].Name != "content-store" || st[0].State != supervisor.Ready || !st[0].Builtin ||
		st[1].Name != "configured" || st[1].State != supervisor.Disabled || st[1].Builtin {
		t.Fatalf("Status() = %+v", st)
	}

	reg := m.Router()
	store := callJSON[contentstore.Info](t, reg, "content-store", "createStore", map[string]any{"name": "Notes"}, router.CallOptions{})
	progress := make(chan router.Progress, 10)
	added := callJSON[contentstore.AddResult](t, reg, "content-store", "addContent",
		map[string]any{"storeId": store.ID, "title": "Ops", "text": "restart the gateway\nthen rotate the keys"},
		router.CallOptions{OnProgress: func(p router.Progress) { progress <- p }})
	found := callJSON[contentstore.Results](t, reg, "content-store", "search", map[string]any{"query": "rotate keys"}, router.CallOptions{})
	if len(found.Hits) != 1 || found.Hits[0].ContentID != added.Contents[0].ID || found.Hits[0].Title != "Ops" ||
		!slices.Equal(found.Hits[0].MatchLines, []int{2}) || !strings.Contains(found.Hits[0].Snippet, "<mark>rotate</mark> the <mark>keys</mark>") {
		t.Fatalf("search = %+v", found)
	}
	// The store reports the start (0 of 1) and the last file read (1 of 1).
	for _, want := range []float64{0, 1} {
		select {
		case p := <-progress:
			if p.Progress != want || p.Total != 1 {
				t.Fatalf("progress = %+v, want %v of 1", p, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no progress %v of 1 through the router", want)
		}
	}
	res, err := reg.Call(ctx, "content-store", "search", map[string]any{"query": ""}, router.CallOptions{})
	if err != nil || !res.IsError || !strings.Contains(mcptest.Text(res), "the query is empty") {
		t.Fatalf("empty query = %+v, %v", res, err)
	}

	if err := m.Close(ctx); err != nil {
		t.Fatal(err)
	}
	// Close disconnects and releases built-ins before it returns.
	if slices.Contains(reg.Servers(), "content-store") || !slices.Equal(ev.seen(), []string{"start", "release"}) {
		t.Fatalf("after Close: registered %v, events %v", reg.Servers(), ev.seen())
	}
	if _, err := reg.Call(ctx, "content-store", "listStores", nil, router.CallOptions{}); !errors.Is(err, router.ErrUnknownTool) {
		t.Fatalf("call after Close: %v", err)
	}
	// A closed manager starts nothing.
	m.Apply([]ServerConfig{contentStore(t.TempDir(), ev)})
	if st := m.Status(); len(st) != 0 || len(reg.Servers()) != 0 {
		t.Fatalf("after Apply on a closed manager: %+v, %v", st, reg.Servers())
	}
}

// An Apply without the built-in removes it: its tools are gone and its data
// released. An Apply with it again, at once, finds its data as it was: the
// new copy starts only once the old one has let go of it.
func TestRemoveBuiltin(t *testing.T) {
	ev := &tinyBuiltin{}
	root := t.TempDir()
	m := New(Options{})
	t.Cleanup(func() { m.Close(context.Background()) })
	m.Apply([]ServerConfig{contentStore(root, ev)})
	settle(t, m)
	reg := m.Router()
	callJSON[contentstore.Info](t, reg, "content-store", "createStore", map[string]any{"name": "Notes"}, router.CallOptions{})

	m.Apply(nil)
	if got := toolNames(t, m); len(got) != 0 {
		t.Fatalf("tools after removal: %v", got)
	}
	if _, err := m.Server("content-store"); !errors.Is(err, ErrUnknownServer) {
		t.Fatalf("Server after removal: %v", err)
	}
	if st := m.Status(); len(st) != 0 {
		t.Fatalf("Status() after removal = %+v", st)
	}

	m.Apply([]ServerConfig{contentStore(root, ev)})
	settle(t, m)
	if st := m.Status(); len(st) != 1 || st[0].State != supervisor.Ready {
		t.Fatalf("added again: %+v", st)
	}
	if got := ev.seen(); !slices.Equal(got, []string{"start", "release", "start"}) {
		t.Errorf("events = %v: the new copy must start after the old one was released", got)
	}
	stores := callJSON[struct{ Stores []contentstore.Info }](t, reg, "content-store", "listStores", nil, router.CallOptions{}).Stores
	if len(stores) != 1 || stores[0].Name != "Notes" {
		t.Fatalf("listStores after adding it again = %+v", stores)
	}
}

// A built-in's own start error (builtin.StartError, which names the server)
// is shown with the server's name once.
func TestContentStoreStartErrorNamedOnce(t *testing.T) {
	m := New(Options{})
	t.Cleanup(func() { m.Close(context.Background()) })
	m.Apply([]ServerConfig{contentStore("", &tinyBuiltin{})}) // no root
	settle(t, m)
	want := "content-store: " + builtin.ErrNoRoot.Error()
	if st := m.Status(); len(st) != 1 || st[0].State != supervisor.Error || st[0].Error != want {
		t.Fatalf("Status() = %+v, want the error %q", st, want)
	}
}
