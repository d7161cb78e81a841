// Command npmregistry serves fetchtest's local npm registry (one tiny stdio
// MCP server package) for the e2e tests, printing NPM_REGISTRY_URL=... once
// it listens. It stops on SIGINT/SIGTERM or when its stdin closes.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/fetch/fetchtest"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address (loopback)")
	delay := flag.Duration("delay", 0, "hold back every tarball download this long")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() { // the test that started it has gone
		_, _ = io.Copy(io.Discard, os.Stdin)
		stop()
	}()
	reg, err := fetchtest.Start(ctx, *addr)
	if err != nil {
		log.Fatal(err)
	}
	reg.SetDelay(*delay)
	fmt.Printf("NPM_REGISTRY_URL=%s\nNPM_PACKAGE=%s\n", reg.URL, reg.Spec())
	<-ctx.Done()
	time.Sleep(100 * time.Millisecond)
}
