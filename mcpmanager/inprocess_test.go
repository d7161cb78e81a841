package mcpmanager

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/builtin"
	"github.com/switchboard-app/switchboard/builtin/contentstore"
	"github.com/switchboard-app/switchboard/mcpmanager/registry"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

// callJSON calls a tool through the registry and decodes its JSON result.
func callJSON[T any](t *testing.T, reg *registry.Registry, server, tool string, args map[string]any, opts registry.CallOptions) T {
	t.Helper()
	res, err := reg.Call(t.Context(), server, tool, args, opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError {
		t.Fatalf("tool error: %s", callText(t, res))
	}
	var v T
	if err := json.Unmarshal([]byte(callText(t, res)), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestAddInProcess registers the content store in-process with the
// deprecated AddInProcess (what app/ does until it moves to
// ServerConfig.Builtin) and uses it through the registry like any server:
// listing, calls, progress, status, close.
func TestAddInProcess(t *testing.T) {
	srv, closeStores, err := contentstore.Builtin.Start(builtin.Config{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer closeStores()
	m := New(Options{})
	m.Apply([]ServerConfig{{Name: "configured", Command: faultServer, Disabled: true}})
	if err := m.AddInProcess("content-store", srv); err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	tools, errs := m.Registry().Tools(ctx)
	var names []string
	for _, tl := range tools {
		if tl.Server == "content-store" {
			names = append(names, tl.Name)
		}
	}
	want := []string{"content-store__addContent", "content-store__createStore", "content-store__deleteContent", "content-store__deleteStore",
		"content-store__listStores", "content-store__readContent", "content-store__search"}
	if !slices.Equal(names, want) || len(errs) != 1 || errs[0].Server != "configured" {
		t.Fatalf("tools = %v, errs = %v", names, errs)
	}
	if got := m.InProcess(); !slices.Equal(got, []string{"content-store"}) {
		t.Fatalf("InProcess() = %v", got)
	}
	if st := m.Status(); len(st) != 2 || st[1].Name != "content-store" || st[1].State != supervisor.Ready || !st[1].Builtin {
		t.Fatalf("Status() = %+v", st)
	}

	reg := m.Registry()
	store := callJSON[contentstore.Info](t, reg, "content-store", "createStore", map[string]any{"name": "Notes"}, registry.CallOptions{})
	progress := make(chan registry.Progress, 10)
	added := callJSON[contentstore.AddResult](t, reg, "content-store", "addContent",
		map[string]any{"storeId": store.ID, "title": "Ops", "text": "restart the gateway\nthen rotate the keys"},
		registry.CallOptions{OnProgress: func(p registry.Progress) { progress <- p }})
	found := callJSON[contentstore.Results](t, reg, "content-store", "search", map[string]any{"query": "rotate keys"}, registry.CallOptions{})
	if len(found.Hits) != 1 || found.Hits[0].ContentID != added.Contents[0].ID || found.Hits[0].Title != "Ops" ||
		!slices.Equal(found.Hits[0].MatchLines, []int{2}) || !strings.Contains(found.Hits[0].Snippet, "<mark>rotate</mark> the <mark>keys</mark>") {
		t.Fatalf("search = %+v", found)
	}
	select {
	case p := <-progress:
		if p.Progress != 1 || p.Total != 1 {
			t.Fatalf("progress = %+v", p)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no progress through the registry")
	}
	res, err := reg.Call(ctx, "content-store", "search", map[string]any{"query": ""}, registry.CallOptions{})
	if err != nil || !res.IsError || !strings.Contains(callText(t, res), "the query is empty") {
		t.Fatalf("empty query = %+v, %v", res, err)
	}

	// Names are unique across configured and in-process servers.
	for _, name := range []string{"content-store", "configured"} {
		if err := m.AddInProcess(name, srv); !errors.Is(err, ErrServerExists) {
			t.Fatalf("AddInProcess(%q) again: %v", name, err)
		}
	}

	if err := m.Close(ctx); err != nil {
		t.Fatal(err)
	}
	// Close disconnects built-ins before it returns.
	if slices.Contains(reg.Servers(), "content-store") || m.InProcess() != nil {
		t.Fatalf("still registered after Close: %v", reg.Servers())
	}
	if _, err := reg.Call(ctx, "content-store", "listStores", nil, registry.CallOptions{}); !errors.Is(err, registry.ErrUnknownTool) {
		t.Fatalf("call after Close: %v", err)
	}
	if err := m.AddInProcess("content-store", srv); !errors.Is(err, ErrClosed) {
		t.Fatalf("add after Close: %v", err)
	}
}

func TestRemoveInProcess(t *testing.T) {
	srv, closeStores, err := contentstore.Builtin.Start(builtin.Config{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer closeStores()
	m := New(Options{})
	defer m.Close(t.Context())
	if err := m.RemoveInProcess("content-store"); !errors.Is(err, ErrUnknownServer) {
		t.Fatalf("remove unknown: %v", err)
	}
	if err := m.AddInProcess("content-store", srv); err != nil {
		t.Fatal(err)
	}
	if err := m.RemoveInProcess("content-store"); err != nil {
		t.Fatal(err)
	}
	if tools, _ := m.Registry().Tools(t.Context()); len(tools) != 0 {
		t.Fatalf("tools after remove: %v", tools)
	}
	// The same server can be connected again under its name.
	if err := m.AddInProcess("content-store", srv); err != nil {
		t.Fatal(err)
	}
}
