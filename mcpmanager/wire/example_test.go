package wire_test

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/switchboard-app/switchboard/mcpmanager/wire"
)

// Serving over stdio: read one message per line, bounded, and answer each
// on one line, relaying a result as the bytes that came.
func Example_serve() {
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":"` + strings.Repeat("x", 200) + `"}}` + "\n")
	r := wire.NewLineReader(in, 100) // 100 bytes: the second line is over
	w := wire.NewWriter(os.Stdout)
	for {
		line, err := r.Next()
		if len(line) > 0 {
			m, perr := wire.Parse(line) // one pass: validates, finds the members
			if perr == nil && m.IsRequest() {
				_ = w.WriteResult(m.ID, []byte(`{"content":[]}`))
			}
		}
		if errors.Is(err, wire.ErrTooLarge) {
			fmt.Println(err)
		}
		if err != nil {
			return
		}
	}
	// Output:
	// {"jsonrpc":"2.0","id":1,"result":{"content":[]}}
	// a message ran past the 100 bytes limit without ending, so the connection was closed: the other side is broken or hostile (report it to its authors)
}

// A Reader bounds a stream under any line splitter (mcp-go's stdio
// transport, a LineReader) and says what a timed-out request was waiting
// on.
func ExampleReader() {
	r := wire.NewReader(strings.NewReader("{}\n{\"unfinished"), 0) // 0: MaxMessageBytes
	_, _ = io.ReadAll(r)
	pending, _ := r.Pending()
	fmt.Println(r.Err(), pending)
	// Output:
	// <nil> 12
}
