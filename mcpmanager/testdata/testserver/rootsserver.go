package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"time"
)

type rootsMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rootsRPCError  `json:"error,omitempty"`
}

type rootsRPCError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

var (
	wmu sync.Mutex
	out = bufio.NewWriter(os.Stdout)

	mu      sync.Mutex
	offered bool          // the client declared the roots capability
	roots   = []string{}  // the URIs of the roots/list answer
	got     chan struct{} // closed when the roots/list answer came (or none will)
)

// serveRootsServer serves mode rootsserver: a stdio MCP server (hand-written JSON-RPC, no
// dependencies, so it builds in a moment) for the front-door parity test:
// it says which roots its client offered it.
//
// After notifications/initialized it asks roots/list (when the client
// declared roots); tools/list waits for that answer, writes one stderr line
//
//	roots: ["file:///a","file:///b"]
//
// (or "roots: not offered" when the client declared no roots) and lists
// one tool, "roots", whose call returns the same JSON list as text.
func serveRootsServer() {
	got = make(chan struct{})
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 16<<20)
	for in.Scan() {
		var m rootsMessage
		if json.Unmarshal(in.Bytes(), &m) != nil {
			continue
		}
		switch {
		case m.Method == "" && m.ID != nil: // the answer to our roots/list
			var r struct {
				Roots []struct {
					URI string `json:"uri"`
				} `json:"roots"`
			}
			_ = json.Unmarshal(m.Result, &r)
			mu.Lock()
			for _, x := range r.Roots {
				roots = append(roots, x.URI)
			}
			mu.Unlock()
			close(got)
		case m.Method == "notifications/initialized":
			mu.Lock()
			ask := offered
			mu.Unlock()
			if ask {
				rootsWrite(rootsMessage{JSONRPC: "2.0", ID: json.RawMessage(`"roots-1"`), Method: "roots/list", Params: json.RawMessage(`{}`)})
			} else {
				close(got)
			}
		case m.ID != nil:
			go rootsHandle(m)
		}
	}
}

// list waits (at most 10 s) for the roots/list answer and returns it as
// JSON, or "not offered".
func rootsList() string {
	select {
	case <-got:
	case <-time.After(10 * time.Second):
		return "no answer to roots/list"
	}
	mu.Lock()
	defer mu.Unlock()
	if !offered {
		return "not offered"
	}
	b, _ := json.Marshal(roots)
	return string(b)
}

func rootsHandle(m rootsMessage) {
	switch m.Method {
	case "initialize":
		var p struct {
			Capabilities struct {
				Roots *struct{} `json:"roots"`
			} `json:"capabilities"`
			ProtocolVersion string `json:"protocolVersion"`
		}
		_ = json.Unmarshal(m.Params, &p)
		mu.Lock()
		offered = p.Capabilities.Roots != nil
		mu.Unlock()
		rootsReply(m.ID, map[string]any{
			"protocolVersion": p.ProtocolVersion,
			"capabilities":    map[string]any{"tools": map[string]any{}},
			"serverInfo":      map[string]any{"name": "rootsserver", "version": "1.0.0"},
		})
	case "ping":
		rootsReply(m.ID, map[string]any{})
	case "tools/list":
		fmt.Fprintf(os.Stderr, "roots: %s\n", rootsList())
		rootsReply(m.ID, map[string]any{"tools": []map[string]any{{
			"name": "roots", "description": "Says which roots the client offered.",
			"inputSchema": map[string]any{"type": "object", "properties": map[string]any{}},
			"annotations": map[string]any{"readOnlyHint": true},
		}}})
	case "tools/call":
		rootsReply(m.ID, map[string]any{"content": []map[string]any{{"type": "text", "text": rootsList()}}})
	default:
		rootsWrite(rootsMessage{JSONRPC: "2.0", ID: m.ID, Error: &rootsRPCError{Code: -32601, Message: "method not found: " + m.Method}})
	}
}

func rootsReply(id json.RawMessage, result any) {
	raw, err := json.Marshal(result)
	if err != nil {
		panic(err)
	}
	rootsWrite(rootsMessage{JSONRPC: "2.0", ID: id, Result: raw})
}

func rootsWrite(m rootsMessage) {
	raw, _ := json.Marshal(m)
	wmu.Lock()
	defer wmu.Unlock()
	out.Write(raw)
	out.WriteByte('\n')
	out.Flush()
}
