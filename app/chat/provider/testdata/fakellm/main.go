// Command fakellm runs the providertest fake model provider as a program,
// for end-to-end and CLI tests: it speaks the OpenAI, Anthropic and Ollama
// wire formats and answers with replies scripted over HTTP.
//
//	fakellm -addr 127.0.0.1:0
//	FAKELLM_URL=http://127.0.0.1:41234          (printed once listening)
//
//	curl -d '[{"text":"Hello!"},{"when":"weather","toolCalls":[{"name":"w__get","arguments":{"city":"Oslo"}}]}]' $URL/__fake/enqueue
//	curl -X POST $URL/__fake/reset
//	curl $URL/__fake/requests
//
// OpenAI clients use $URL/v1, Anthropic and Ollama clients $URL. It runs
// until interrupted or, with -stdin, until its stdin closes (so a test's
// child never outlives the test).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "address to listen on")
	watchStdin := flag.Bool("stdin", false, "exit when stdin closes")
	flag.Parse()
	s, err := providertest.New(*addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fakellm:", err)
		os.Exit(1)
	}
	defer s.Close()
	fmt.Printf("FAKELLM_URL=%s\n", s.BaseURL())

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *watchStdin {
		go func() {
			_, _ = io.Copy(io.Discard, os.Stdin)
			stop()
		}()
	}
	<-ctx.Done()
}
