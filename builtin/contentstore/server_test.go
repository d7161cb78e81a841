package contentstore

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/builtin"
	"github.com/switchboard-app/switchboard/builtin/mcptest"
)

// connect serves s over mcp-go's in-process transport.
func connect(t *testing.T, s *Stores) (*client.Client, <-chan map[string]any) {
	t.Helper()
	progress := make(chan map[string]any, 100)
	cl, res := mcptest.ConnectResult(t, NewServer(s), mcptest.OnNotification(func(m mcp.JSONRPCNotification) {
		if m.Method == string(mcp.MethodNotificationProgress) {
			progress <- m.Params.AdditionalFields
		}
	}))
	if res.ServerInfo.Name != "content-store" || !strings.Contains(res.Instructions, "readContent") {
		t.Fatalf("initialize = %+v", res)
	}
	return cl, progress
}

func call(t *testing.T, cl *client.Client, tool string, args map[string]any, meta *mcp.Meta) (*mcp.CallToolResult, string) {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name = tool
	req.Params.Arguments = args
	req.Params.Meta = meta
	return mcptest.CallRequest(t, cl, req)
}

// decode reads a successful result's JSON text into v.
func decode(t *testing.T, res *mcp.CallToolResult, text string, v any) {
	t.Helper()
	if res.IsError {
		t.Fatalf("tool error: %s", text)
	}
	if err := json.Unmarshal([]byte(text), v); err != nil {
		t.Fatalf("result is not JSON: %v\n%s", err, text)
	}
	if res.StructuredContent == nil {
		t.Fatal("no structuredContent")
	}
}

func TestServerTools(t *testing.T) {
	s := openStores(t, testOptions(t.TempDir()))
	cl, progress := connect(t, s)
	tools, err := cl.ListTools(t.Context(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
		if len(tl.Description) < 60 {
			t.Errorf("%s: description too thin for a model: %q", tl.Name, tl.Description)
		}
	}
	slices.Sort(names)
	if want := []string{"addContent", "createStore", "deleteContent", "deleteStore", "listContent", "listStores", "readContent", "reindexContent", "search"}; !slices.Equal(names, want) {
		t.Fatalf("tools = %v", names)
	}
	// No "type": [...] arrays: one-type schema dialects (Gemini's) reject them.
	schemas, _ := json.Marshal(tools.Tools)
	if strings.Contains(string(schemas), `"type":[`) || !strings.Contains(string(schemas), `"additionalProperties":{"anyOf":[{"type":"string"},{"type":"number"},{"type":"boolean"}]}`) {
		t.Fatalf("schemas = %s", schemas)
	}

	var info Info
	res, text := call(t, cl, "createStore", map[string]any{"name": "Docs", "description": "the corpus"}, nil)
	decode(t, res, text, &info)
	var added AddResult
	res, text = call(t, cl, "addContent", map[string]any{"storeId": info.ID, "path": corpusDir(t), "metadata": map[string]any{"year": 2024, "draft": false}},
		&mcp.Meta{ProgressToken: "tok-1"})
	decode(t, res, text, &added)
	if added.Added != 7 || added.SkippedCount != 2 || added.Contents[0].Metadata["year"] != "2024" {
		t.Fatalf("added = %+v", added)
	}
	var found Results
	res, text = call(t, cl, "search", map[string]any{"query": "permission denied", "limit": 3, "filters": map[string]any{"year": 2024}}, nil)
	decode(t, res, text, &found)
	if len(found.Hits) != 1 || found.Hits[0].FromLine != 28 || !strings.Contains(found.Hits[0].Snippet, "<mark>permission</mark>") {
		t.Fatalf("search = %s", text)
	}
	// The text a model reads shows the marks as written, not \u003cmark\u003e.
	if !strings.Contains(text, `"snippet": "If a push fails with \"<mark>permission</mark> <mark>denied</mark>\"`) {
		t.Fatalf("search text = %s", text)
	}
	var ex Excerpt
	res, text = call(t, cl, "readContent", map[string]any{"contentId": found.Hits[0].ContentID, "fromLine": 30, "toLine": 31}, nil)
	decode(t, res, text, &ex)
	if ex.Text != "If a push fails with \"permission denied\", check that the token has\nthe write:packages scope. Expired tokens produce the same message." {
		t.Fatalf("read = %+v", ex)
	}
	var list struct{ Stores []Info }
	res, text = call(t, cl, "listStores", nil, nil)
	decode(t, res, text, &list)
	if len(list.Stores) != 1 || list.Stores[0].Documents != 7 {
		t.Fatalf("list = %s", text)
	}
	res, text = call(t, cl, "deleteContent", map[string]any{"contentId": found.Hits[0].ContentID}, nil)
	if res.IsError {
		t.Fatal(text)
	}
	res, text = call(t, cl, "deleteStore", map[string]any{"storeId": info.ID}, nil)
	if res.IsError || !strings.Contains(text, `"deleted": "docs"`) {
		t.Fatal(text)
	}

	// Progress reached the caller under its token, ending at the total.
	for {
		select {
		case p := <-progress:
			if p["progressToken"] != "tok-1" {
				t.Fatalf("progress = %+v", p)
			}
			if fmt.Sprint(p["progress"]) != "9" {
				continue
			}
			if fmt.Sprint(p["total"]) != "9" || p["message"] != "9 of 9 files read; saving them" {
				t.Fatalf("progress = %+v", p)
			}
			return
		case <-time.After(10 * time.Second):
			t.Fatal("no final progress notification")
		}
	}
}

func TestServerBadInputIsToolError(t *testing.T) {
	s := openStores(t, testOptions(t.TempDir()))
	cl, _ := connect(t, s)
	if _, err := s.Create(t.Context(), "Docs", "", ""); err != nil {
		t.Fatal(err)
	}
	dir := corpusDir(t)
	cases := []struct {
		tool string
		args map[string]any
		msg  string
	}{
		{"addContent", map[string]any{"storeId": "nope", "text": "x"}, `no such store "nope"; call listStores`},
		{"addContent", map[string]any{"storeId": "docs", "path": filepath.Join(dir, "photo.png")}, "binary file"},
		{"addContent", map[string]any{"storeId": "docs", "path": filepath.Join(dir, "big.log")}, "over the size limit"},
		{"addContent", map[string]any{"storeId": "docs", "path": filepath.Join(dir, "nope.md")}, "file does not exist"},
		{"addContent", map[string]any{"storeId": "docs", "path": filepath.Join(dir, "..", "pdf", "encrypted.pdf")}, "encrypted PDF (it needs a password to open"},
		{"addContent", map[string]any{"storeId": "docs"}, "pass the text to add, a file's bytes (data with fileName), or the path"},
		{"addContent", map[string]any{"storeId": "docs", "data": "aGk="}, "data needs fileName"},
		{"addContent", map[string]any{"storeId": "docs", "fileName": "a.txt"}, "fileName goes with data"},
		{"addContent", map[string]any{"storeId": "docs", "data": "!!", "fileName": "a.txt"}, "data must be the file's bytes in base64"},
		{"addContent", map[string]any{"storeId": "docs", "data": "", "fileName": "empty.txt"}, "empty.txt: no text (the file is empty)"},
		{"listContent", map[string]any{"storeId": "docs", "offset": -1}, "offset must be a positive whole number"},
		{"readContent", map[string]any{"contentId": "docs:0000000000000000", "fromChar": 1.5}, "fromChar must be a whole number"},
		{"addContent", map[string]any{"storeId": "docs", "path": t.TempDir()}, "nothing to add: the folder"},
		{"addContent", map[string]any{"text": "x"}, "storeId is required"},
		{"addContent", map[string]any{"storeId": "docs", "text": 42}, "text must be a string"},
		{"addContent", map[string]any{"storeId": "docs", "text": "x", "metadata": "a=b"}, "metadata must be an object"},
		{"addContent", map[string]any{"storeId": "docs", "text": "x", "metadata": map[string]any{"a": []any{1}}}, "metadata.a must be a string, number or boolean"},
		{"search", map[string]any{"query": ""}, "the query is empty"},
		{"search", map[string]any{}, "the query is empty"},
		{"search", map[string]any{"query": "x", "limit": 2.5}, "limit must be a whole number"},
		{"search", map[string]any{"query": "x", "storeId": "nope"}, "no such store"},
		{"readContent", map[string]any{"contentId": "docs:0000000000000000"}, "no such content"},
		{"readContent", map[string]any{}, "contentId is required"},
		{"createStore", map[string]any{"name": "docs"}, "already exists"},
		{"createStore", map[string]any{"name": "x", "analyzer": "klingon"}, "unknown analyzer"},
		{"deleteStore", map[string]any{"storeId": "nope"}, "no such store"},
		{"deleteContent", map[string]any{"contentId": "nope"}, "no such content"},
	}
	for _, c := range cases {
		t.Run(c.tool+" "+c.msg, func(t *testing.T) {
			res, text := call(t, cl, c.tool, c.args, nil)
			if !res.IsError || !strings.Contains(text, c.msg) {
				t.Fatalf("result isError=%v %q; want an error with %q", res.IsError, text, c.msg)
			}
		})
	}
}

func TestBuiltinStartsAndCloses(t *testing.T) {
	srv, closeFn, err := Builtin.Start(builtin.Config{Root: t.TempDir()})
	if err != nil || srv == nil {
		t.Fatal(err)
	}
	if err := closeFn(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Builtin.Start(builtin.Config{}); !errors.Is(err, builtin.ErrNoRoot) {
		t.Fatalf("start without root: %v", err)
	}
}

// TestToolHints checks each tool's annotations: mcp-go makes every tool
// destructive unless told otherwise, which the read-only ones used to be.
func TestToolHints(t *testing.T) {
	cl, _ := connect(t, openStores(t, testOptions(t.TempDir())))
	tools, err := cl.ListTools(t.Context(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	// readOnly, destructive, idempotent; no tool reaches beyond this computer.
	want := map[string][3]bool{
		"listStores": {true, false, true}, "search": {true, false, true}, "readContent": {true, false, true}, "listContent": {true, false, true},
		"createStore": {false, false, false}, "addContent": {false, false, true}, "reindexContent": {false, false, true},
		"deleteContent": {false, true, true}, "deleteStore": {false, true, true},
	}
	for _, tl := range tools.Tools {
		a := tl.Annotations
		got := [3]bool{deref(a.ReadOnlyHint), deref(a.DestructiveHint), deref(a.IdempotentHint)}
		if got != want[tl.Name] || a.OpenWorldHint == nil || *a.OpenWorldHint {
			t.Errorf("%s: readOnly, destructive, idempotent = %v, openWorld %v; want %v, false", tl.Name, got, deref(a.OpenWorldHint), want[tl.Name])
		}
	}
}

func deref(b *bool) bool { return b != nil && *b }

// TestProgressBeforeResult checks that every progress notification of an
// addContent reaches the client before its result, and that even a
// one-batch ingest reports its start and end: the result used to overtake
// the last notification (queued by mcp-go, while the result is written
// directly), so the client got progress for a token it had forgotten.
func TestProgressBeforeResult(t *testing.T) {
	s := openStores(t, testOptions(t.TempDir()))
	var mu sync.Mutex
	var events []string
	record := func(e string) { mu.Lock(); events = append(events, e); mu.Unlock() }
	cl := mcptest.Connect(t, NewServer(s), mcptest.OnNotification(func(m mcp.JSONRPCNotification) {
		if m.Method == string(mcp.MethodNotificationProgress) {
			record(fmt.Sprintf("%v of %v", m.Params.AdditionalFields["progress"], m.Params.AdditionalFields["total"]))
		}
	}))
	if _, err := s.Create(t.Context(), "Docs", "", ""); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args map[string]any
		want []string
	}{
		{map[string]any{"storeId": "docs", "path": corpusDir(t)}, []string{"0 of 9", "9 of 9", "result"}},
		{map[string]any{"storeId": "docs", "text": "one small note"}, []string{"0 of 1", "1 of 1", "result"}},
	}
	for i, c := range cases {
		mu.Lock()
		events = nil
		mu.Unlock()
		res, text := call(t, cl, "addContent", c.args, &mcp.Meta{ProgressToken: fmt.Sprintf("tok-%d", i)})
		if res.IsError {
			t.Fatal(text)
		}
		record("result")
		mu.Lock()
		got := slices.Clone(events)
		mu.Unlock()
		if !slices.Equal(got, c.want) {
			t.Fatalf("events %q; want %q", got, c.want)
		}
	}
}

// TestServerFileBytesPagesAndNotes: the tools take a file's bytes
// (base64 data with its fileName, which replaces on a second add), list
// documents a page at a time, say the largest file they take, and say
// when a re-index came from the kept text.
func TestServerFileBytesPagesAndNotes(t *testing.T) {
	s := openStores(t, testOptions(t.TempDir()))
	cl, _ := connect(t, s)
	var info Info
	res, text := call(t, cl, "createStore", map[string]any{"name": "Sent"}, nil)
	decode(t, res, text, &info)
	var added AddResult
	for i, data := range []string{"Y2Fm6SBjcuhtZQo=", "Y2Fm6SBub2lyCg=="} { // Latin-1 "café crème", then "café noir"
		res, text = call(t, cl, "addContent", map[string]any{"storeId": info.ID, "data": data, "fileName": "menu.txt"}, nil)
		decode(t, res, text, &added)
		if c := added.Contents[0]; c.File != "menu.txt" || c.Replaced != (i == 1) || c.Title != "menu.txt" {
			t.Fatalf("add %d = %s", i, text)
		}
	}
	for i := range 3 {
		call(t, cl, "addContent", map[string]any{"storeId": info.ID, "text": fmt.Sprintf("note %d", i), "title": fmt.Sprintf("note %d", i)}, nil)
	}
	var page Page
	res, text = call(t, cl, "listContent", map[string]any{"storeId": info.ID, "limit": 3}, nil)
	decode(t, res, text, &page)
	if page.Total != 4 || len(page.Documents) != 3 || !page.More || page.NextOffset != 3 {
		t.Fatalf("first page = %s", text)
	}
	res, text = call(t, cl, "listContent", map[string]any{"storeId": info.ID, "offset": 3, "limit": 3}, nil)
	decode(t, res, text, &page)
	if page.Total != 4 || len(page.Documents) != 1 || page.More {
		t.Fatalf("second page = %s", text)
	}
	var ex Excerpt
	res, text = call(t, cl, "readContent", map[string]any{"contentId": added.Contents[0].ID}, nil)
	decode(t, res, text, &ex)
	if ex.Text != "café noir" {
		t.Fatalf("read = %s", text)
	}
	var reindexed Reindexed
	res, text = call(t, cl, "reindexContent", map[string]any{"contentId": added.Contents[0].ID}, nil)
	decode(t, res, text, &reindexed)
	if !strings.Contains(reindexed.Note, "menu.txt was added as bytes, not by its path") {
		t.Fatalf("reindex = %s", text)
	}
	var list struct {
		Stores       []Info
		MaxFileBytes int64
	}
	res, text = call(t, cl, "listStores", nil, nil)
	decode(t, res, text, &list)
	if list.MaxFileBytes != 8<<10 || list.Stores[0].Documents != 4 || list.Stores[0].Schema != currentSchema {
		t.Fatalf("listStores = %s", text)
	}
}
