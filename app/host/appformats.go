package host

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

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
	n := 0
	var appOnly []config.Problem
	for _, s := range servers {
		if s.Name == clients.EntryName {
			continue // Switchboard's own entry of a connected app
		}
		if s.AppOnly != "" {
			// Goose's built-in extensions and Zed's extension-provided
			// servers ("source": "extension"), which only that app can start.
			appOnly = append(appOnly, config.Problem{Path: cf.Key[0] + "." + s.Name, Severity: config.SeverityWarning,
				Message: "is left out: it is " + s.AppOnly})
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
		if len(appOnly) > 0 {
			msg = fmt.Sprintf("read as %s's config: its %d server(s) under %q are ones only %s can start (its extensions' or built-in ones, with no command or URL), so there is nothing to import", clients.Title(cf.Style), len(appOnly), cf.Key[0], clients.Title(cf.Style))
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
		f.Entries[i].Problems = append(f.Entries[i].Problems, notCarried(cf, f.Entries[i], servers)...)
	}
	// Said on the first server too, as the file's other notes: the
	// file's own warnings are not shown where the servers are.
	f.Problems = append(f.Problems, appOnly...)
	if len(f.Entries) > 0 && len(appOnly) > 0 {
		f.Entries[0].Problems = append(f.Entries[0].Problems, appOnly...)
	}
	return f, err
}

// notCarried are warnings for the keys of e's entry in the app's file
// that change what the server does there and that Switchboard does not
// read (clients.Server.Unmapped), so the preview says what is left behind.
func notCarried(cf config.ClientFile, e config.Entry, servers []clients.Server) []config.Problem {
	i := slices.IndexFunc(servers, func(s clients.Server) bool { return s.Name == e.Name })
	if i < 0 {
		return nil
	}
	var out []config.Problem
	for _, k := range servers[i].Unmapped {
		out = append(out, config.Problem{Path: e.Path + "." + k, Severity: config.SeverityWarning,
			Message: fmt.Sprintf("is not carried over: Switchboard has no such setting (%s's %q); the server runs without it", clients.Title(cf.Style), k)})
	}
	return out
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
