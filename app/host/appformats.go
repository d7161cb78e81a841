package host

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/switchboard-app/switchboard/mcpmanager/clients"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// parseServers parses a config file of another app: the mcpServers family
// (Claude Desktop, Claude Code, Cursor, VS Code, Windsurf, Gemini CLI, …)
// as config.ParseContext reads it, and the apps with a format of their own
// that the clients package reads (Codex's TOML, Goose's and Continue's
// YAML, opencode's and Zed's JSON), so a file that 'clients connect
// --move' takes is one that import and a CLI --config take too.
//
// A file of the second kind is read as the mcpServers document of its
// servers: its problems name each server's JSON path there and no line,
// since the lines would be the document's, not the file's.
func parseServers(ctx context.Context, name string, data []byte) (*config.File, error) {
	f, err := config.ParseContext(ctx, name, data)
	if f != nil && (len(f.Entries) > 0 || len(f.Projects) > 0) {
		return f, err
	}
	if err != nil && !errors.Is(err, config.ErrSyntax) && !errors.Is(err, config.ErrUnknownFormat) {
		return f, err
	}
	cf, ok := clients.Detect(name, data)
	if !ok {
		return f, err
	}
	doc, rerr := clients.Read(cf, data)
	var se *clients.SyntaxError
	if errors.As(rerr, &se) { // not its Error(): that advice is connect's, and import writes nothing
		return nil, &config.ValidationError{File: name, Kind: config.ErrSyntax, Problems: []config.Problem{{
			Severity: config.SeverityError, Line: se.Line, Col: se.Col,
			Message: fmt.Sprintf("%s (read as %s's config); fix the file and import it again", se.Reason, clients.Title(cf.Style)),
		}}}
	}
	if rerr != nil {
		return nil, rerr
	}
	servers, rerr := doc.Servers()
	if rerr != nil {
		return nil, rerr
	}
	// The document keeps the file's order (ParseContext keeps the order
	// it reads; a map would sort the names).
	var body bytes.Buffer
	body.WriteString(`{"mcpServers":{`)
	n, appOnly := 0, 0
	for _, s := range servers {
		if s.Name == clients.EntryName {
			continue // Switchboard's own entry of a connected app
		}
		if (cf.Style == config.StyleGoose || cf.Style == config.StyleZed) && s.Command == "" && s.URL == "" {
			// Goose's built-in extensions and Zed's extension-provided
			// servers ("source": "extension"), which only that app can start.
			appOnly++
			continue
		}
		if n++; n > 1 {
			body.WriteByte(',')
		}
		k, _ := json.Marshal(s.Name)
		v, _ := json.Marshal(importEntry(s))
		body.Write(k)
		body.WriteByte(':')
		body.Write(v)
	}
	body.WriteString("}}")
	if n == 0 {
		msg := fmt.Sprintf("read as %s's config: it has no servers under %q to import", clients.Title(cf.Style), cf.Key[0])
		if appOnly > 0 {
			msg = fmt.Sprintf("read as %s's config: its %d server(s) under %q are ones only %s can start (its extensions' or built-in ones, with no command or URL), so there is nothing to import", clients.Title(cf.Style), appOnly, cf.Key[0], clients.Title(cf.Style))
		}
		return nil, &config.ValidationError{File: name, Kind: config.ErrUnknownFormat, Problems: []config.Problem{{
			Severity: config.SeverityError, Message: msg,
		}}}
	}
	// The body is a well-formed mcpServers document, so f is not nil, and
	// f.Err()'s problems are f.Problems themselves.
	f, err = config.ParseContext(ctx, name, body.Bytes())
	for i := range f.Problems {
		f.Problems[i].Line, f.Problems[i].Col = 0, 0
	}
	for i := range f.Entries {
		f.Entries[i].Line, f.Entries[i].Col = 0, 0
		for j := range f.Entries[i].Problems {
			f.Entries[i].Problems[j].Line, f.Entries[i].Problems[j].Col = 0, 0
		}
	}
	return f, err
}

// importEntry is an app's server as an mcpServers entry: what import and
// a move into Switchboard read. A server the app had switched off stays
// off.
func importEntry(s clients.Server) map[string]any {
	entry := map[string]any{}
	if s.URL != "" {
		entry["url"] = s.URL
		if s.SSE {
			entry["type"] = "sse"
		}
		if len(s.Headers) > 0 {
			entry["headers"] = s.Headers
		}
	} else {
		entry["command"], entry["args"] = s.Command, append([]string{}, s.Args...)
		if s.Cwd != "" {
			entry["cwd"] = s.Cwd
		}
		if len(s.Env) > 0 {
			entry["env"] = s.Env
		}
	}
	if s.Disabled {
		entry["disabled"] = true
	}
	if s.StartupTimeout > 0 {
		entry["startupTimeout"] = s.StartupTimeout.Milliseconds()
	}
	if s.ToolTimeout > 0 {
		entry["defaultToolTimeout"] = s.ToolTimeout.Milliseconds()
	}
	if len(s.IncludeTools) > 0 {
		entry["includeTools"] = s.IncludeTools
	}
	if len(s.ExcludeTools) > 0 {
		entry["excludeTools"] = s.ExcludeTools
	}
	return entry
}
