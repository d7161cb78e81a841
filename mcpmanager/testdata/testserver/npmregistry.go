package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/fetch/fetchtest"
)

// serveNPMRegistry serves mode npm-registry (once the program npmregistry): fetchtest's local npm registry (one tiny stdio
// MCP server package) for the e2e tests, printing NPM_REGISTRY_URL=... once
// it listens. It stops on SIGINT/SIGTERM or when its stdin closes.
func serveNPMRegistry() {
	addr, delay := listenAddr, npmDelay
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
