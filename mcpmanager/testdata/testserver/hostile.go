package main

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"strings"
)

// serveHostile serves the hostile modes (once the program hostile): a stdio MCP server that attacks its host's memory and
// patience, for the supervisor's hardening tests. -mode picks the attack:
//
//	huge-line    before answering anything, writes -bytes of one JSON
//	             string without a newline, then a newline, then hangs
//	huge-result  a normal server whose tools/call answer is one line of
//	             -bytes (its tools/list offers "big")
//	partial      writes the first -bytes of a response and never ends it
//	slow-result  a normal server that answers tools/call with the first
//	             -bytes of a result and never ends it
//
// It exits when stdin closes or a write fails (the host went away).
func serveHostile() {
	size := hostileBytes
	out := bufio.NewWriterSize(os.Stdout, 64<<10)

	switch *mode {
	case "huge-line":
		fill(out, `{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"`, *size)
		out.WriteString("\"}}\n")
		out.Flush()
		hang()
	case "partial":
		msg := `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"hostile","version":"1"}}}`
		n := min(*size, len(msg)-1)
		out.WriteString(msg[:n])
		out.Flush()
		hang()
	}

	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	for in.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(in.Bytes(), &req) != nil || len(req.ID) == 0 {
			continue // a notification
		}
		switch req.Method {
		case "initialize":
			replyHostile(out, req.ID, `{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"hostile","version":"1"}}`)
		case "tools/list":
			replyHostile(out, req.ID, `{"tools":[{"name":"big","inputSchema":{"type":"object"}}]}`)
		case "tools/call":
			if *mode == "slow-result" {
				fill(out, `{"jsonrpc":"2.0","id":`+string(req.ID)+`,"result":{"content":[{"type":"text","text":"`, *size)
				out.Flush()
				continue
			}
			fill(out, `{"jsonrpc":"2.0","id":`+string(req.ID)+`,"result":{"content":[{"type":"text","text":"`, *size)
			out.WriteString("\"}]}}\n")
			out.Flush()
		default:
			replyHostile(out, req.ID, `{}`)
		}
	}
}

// fill writes prefix and then 'x' up to n bytes in all.
func fill(w *bufio.Writer, prefix string, n int) {
	w.WriteString(prefix)
	chunk := strings.Repeat("x", 64<<10)
	for left := n - len(prefix); left > 0; left -= len(chunk) {
		if _, err := w.WriteString(chunk[:min(left, len(chunk))]); err != nil {
			os.Exit(0) // the host stopped reading
		}
	}
}

func replyHostile(w *bufio.Writer, id json.RawMessage, result string) {
	w.WriteString(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":` + result + "}\n")
	if w.Flush() != nil {
		os.Exit(0)
	}
}

// hang waits for the host to close stdin.
func hang() {
	_, _ = io.Copy(io.Discard, os.Stdin)
	os.Exit(0)
}
