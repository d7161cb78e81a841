// Package wire is MCP's newline-delimited JSON-RPC (the stdio transport),
// both directions and both sides: a server's stdout and stdin as a client
// sees them (Transport) and 'switchboard serve”s own stdin and stdout
// (LineReader, Writer). It owns three things:
//
//   - the bound: no message may run past MaxMessageBytes without its
//     newline. Without one, a peer that writes a huge line without ever
//     ending it makes the reader buffer all of it — a gigabyte line costs
//     a gigabyte, kept for as long as the session lives. Reader enforces
//     it under any line splitter and fails with a *LimitError
//     (ErrTooLarge), saying which limit; it also knows how much of an
//     unfinished message is pending, which is what a timeout should
//     report (StallError).
//   - the lines: LineReader returns one message per line, each in a
//     buffer of its own; Writer writes one per line, whole, never two
//     interleaved.
//   - few passes over each message: Parse validates a message and finds
//     its top-level members in one pass, and a large result or argument is
//     handed on as the bytes that arrived (Writer.WriteResult,
//     Transport.SendRaw). A tools/call with 5 MB of arguments and a 5 MB
//     result used to be scanned about ten times on its way through
//     switchboard serve; here it is scanned once each way.
//
// See Example_serve and ExampleReader.
package wire

import "errors"

// MaxMessageBytes is the default bound on one message (one line, without
// its newline): far above any real tool result, far below what hurts a
// desktop. A variable so tests, and hosts that need more, can change it;
// Readers made earlier keep their limit.
var MaxMessageBytes = 64 << 20

// Sentinel errors.
var (
	// ErrSyntax: the bytes are not one valid JSON value (RFC 8259).
	ErrSyntax = errors.New("wire: invalid JSON")
	// ErrNotObject: the message is valid JSON but not an object.
	ErrNotObject = errors.New("wire: a JSON-RPC message must be an object")
	// ErrTooLarge: a message ran past the limit without ending (see
	// LimitError).
	ErrTooLarge = errors.New("message too large")
)
