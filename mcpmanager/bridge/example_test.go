package bridge_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/switchboard-app/switchboard/mcpmanager/bridge"
)

// Example: the running Switchboard listens; a 'serve' dials with the
// app's name, and the stream that follows is the app's MCP session.
func Example() {
	tmp, _ := os.MkdirTemp("", "sb")
	defer os.RemoveAll(tmp)
	addr := bridge.Address{Socket: filepath.Join(tmp, "run", "s"), Dir: filepath.Join(tmp, "run")}
	// In the app: bridge.Default(dataDir).

	l, err := bridge.Listen(addr, bridge.Peer{PID: 1, Version: "v1"})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer l.Close()
	go func() {
		c, err := l.Accept(nil)
		if err != nil {
			return
		}
		defer c.Close()
		line, _ := bufio.NewReader(c).ReadString('\n')
		fmt.Printf("%s sent %s", c.Hello.Client, line)
		fmt.Fprintln(c, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	}()

	c, peer, err := bridge.Dial(context.Background(), addr, bridge.Hello{Client: "cursor"})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()
	fmt.Fprintln(c, `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	answer, _ := bufio.NewReader(c).ReadString('\n')
	fmt.Printf("Switchboard %s answered %s", peer.Version, answer)
	// Output:
	// cursor sent {"jsonrpc":"2.0","id":1,"method":"ping"}
	// Switchboard v1 answered {"jsonrpc":"2.0","id":1,"result":{}}
}
