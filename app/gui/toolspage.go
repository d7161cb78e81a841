package gui

import (
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/switchboard-app/switchboard/app/host"
)

// ToolsPage is the tool playground (and the Knowledge page's calls).
type ToolsPage struct{ *core }

// AddDocument adds a file the page read as bytes to a content store: the
// bytes go, base64 as the page sent them, to the content store's addContent
// tool as data with the file's name, so the store reads them as it reads a
// file by path (its format, its encoding: Latin-1 and UTF-16 too, PDF), its
// size limit applies, its errors name the file as the user knows it, and
// the same name added again replaces that document. id names the add for
// CancelDocument ("" when it cannot be cancelled).
func (a *ToolsPage) AddDocument(storeID, name, dataBase64, id string) (host.CallResult, error) {
	name = filepath.Base(filepath.Clean("/" + name)) // a name, never a path
	if name == "/" || name == "." {
		return host.CallResult{}, fmt.Errorf("the document has no file name")
	}
	if base64.StdEncoding.DecodedLen(len(dataBase64)) > MaxDocument {
		return host.CallResult{}, fmt.Errorf("%s is larger than %d MB; split it into smaller files and add those", name, MaxDocument>>20)
	}
	ctx, cancel := context.WithCancel(cmp.Or(a.wailsContext(), context.Background()))
	defer cancel()
	if id != "" {
		defer documentAdds.hold(id, cancel)()
	}
	res, err := a.callTool(ctx, "content-store__addContent", map[string]any{"storeId": storeID, "fileName": name, "data": dataBase64})
	if err != nil && ctx.Err() != nil {
		return host.CallResult{}, fmt.Errorf("adding %s was cancelled", name)
	}
	return res, err
}

// CancelDocument stops the AddDocument named id: its file is not added (a
// document whose last step, the commit, has begun is added all the same).
// It reports whether such an add was running.
func (a *ToolsPage) CancelDocument(id string) bool { return documentAdds.cancel(id) }

// documentAdds are the AddDocument calls running, by the page's id.
var documentAdds = adds{m: map[string]context.CancelFunc{}}

type adds struct {
	mu sync.Mutex
	m  map[string]context.CancelFunc
}

// hold records cancel under id until the returned func is called.
func (d *adds) hold(id string, cancel context.CancelFunc) func() {
	d.mu.Lock()
	d.m[id] = cancel
	d.mu.Unlock()
	return func() {
		d.mu.Lock()
		delete(d.m, id)
		d.mu.Unlock()
	}
}

func (d *adds) cancel(id string) bool {
	d.mu.Lock()
	cancel, ok := d.m[id]
	d.mu.Unlock()
	if ok {
		cancel()
	}
	return ok
}

// Tools lists every tool of every ready server.
func (a *ToolsPage) Tools() (ToolList, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tools, errs := a.h.Tools.List(ctx)
	out := ToolList{Tools: make([]ToolView, 0, len(tools)), Errors: errorViews(errs)}
	for _, t := range tools {
		schema, err := t.Schema()
		if err != nil {
			schema = []byte(`{"type":"object"}`)
		}
		title := t.Tool.Title
		if title == "" {
			title = t.Tool.Annotations.Title
		}
		v := ToolView{Name: t.Name, Server: t.Server, Tool: t.Tool.Name, Title: title,
			Description: t.Tool.Description, InputSchema: string(schema), DefaultPolicy: string(a.h.Tools.DefaultPolicy(t)),
			Icon: a.iconSrc(t.Tool.Icons), OutputSchema: outputSchemaText(t.Tool), Warnings: a.h.Tools.Warnings(t.Tool)}
		if h := t.Tool.Annotations.ReadOnlyHint; h != nil {
			v.ReadOnly = *h
		}
		if h := t.Tool.Annotations.DestructiveHint; h != nil {
			v.Destructive = *h && !v.ReadOnly
		}
		out.Tools = append(out.Tools, v)
	}
	return out, nil
}

// CallTool runs a tool with arguments given as a JSON object.
func (a *ToolsPage) CallTool(name, argsJSON string) (host.CallResult, error) {
	var args map[string]any
	if strings.TrimSpace(argsJSON) != "" {
		if err := json.Unmarshal([]byte(argsJSON), &args); err != nil {
			return host.CallResult{}, fmt.Errorf("arguments must be a JSON object: %w", err)
		}
	}
	ctx, cancel := context.WithCancel(cmp.Or(a.wailsContext(), context.Background()))
	defer cancel()
	return a.callTool(ctx, name, args)
}

// callTool runs a tool and returns its result as the page shows it.
func (a *ToolsPage) callTool(ctx context.Context, name string, args map[string]any) (host.CallResult, error) {
	start := time.Now()
	res, err := a.h.Tools.Call(ctx, name, args)
	took := float64(time.Since(start).Microseconds()) / 1000
	if err != nil {
		return host.CallResult{}, err // secrets masked at the source, as the result (router.Redactor)
	}
	return host.ResultView(res, took), nil
}

// MaxDocument bounds what the Knowledge page may send as one document's
// bytes; the content store's own limit (listStores' maxFileBytes, 10 MB)
// is smaller, and the page checks it first.
const MaxDocument = 64 << 20
