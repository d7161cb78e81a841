package gui

import (
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/switchboard-app/switchboard/app/host"
)

// ToolsPage is the tool playground (and the Knowledge page's calls).
type ToolsPage struct{ *core }

// AddDocument adds a file the page read as bytes (PDFs and other binary
// formats the browser cannot read as text) to a content store: it is
// written under its own name to a private temporary folder, added by path
// through the content store's addContent tool, and removed again.
func (a *ToolsPage) AddDocument(storeID, name, dataBase64 string) (host.CallResult, error) {
	name = filepath.Base(filepath.Clean("/" + name)) // a name, never a path
	if name == "/" || name == "." {
		return host.CallResult{}, fmt.Errorf("the document has no file name")
	}
	if base64.StdEncoding.DecodedLen(len(dataBase64)) > MaxDocument {
		return host.CallResult{}, fmt.Errorf("%s is larger than %d MB; add it from a folder with the model's addContent path instead", name, MaxDocument>>20)
	}
	data, err := base64.StdEncoding.DecodeString(dataBase64)
	if err != nil {
		return host.CallResult{}, fmt.Errorf("%s: the page sent unreadable data: %w", name, err)
	}
	dir, err := os.MkdirTemp("", "switchboard-doc-")
	if err != nil {
		return host.CallResult{}, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		return host.CallResult{}, err
	}
	args, _ := json.Marshal(map[string]string{"storeId": storeID, "path": path})
	return a.CallTool("content-store__addContent", string(args))
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
	start := time.Now()
	res, err := a.h.Tools.Call(ctx, name, args)
	took := float64(time.Since(start).Microseconds()) / 1000
	if err != nil {
		return host.CallResult{}, errors.New(a.h.Redact(err.Error()))
	}
	v := host.ResultView(res, took)
	for i := range v.Content { // a tool may echo its environment (everything's get-env does)
		v.Content[i].Text = a.h.Redact(v.Content[i].Text)
	}
	v.Structured = a.h.Redact(v.Structured)
	return v, nil
}

// MaxDocument bounds a document the Knowledge page sends as bytes.
const MaxDocument = 64 << 20
