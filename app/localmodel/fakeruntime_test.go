package localmodel_test

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
)

// fakeRuntimeEnv makes this test binary, started by localmodel.Start as
// its Binary, a stand-in for llama-server that does what the tests
// without the real one need of it: it listens where --host (and --port)
// say, as the pinned release does (a path ending in .sock is a Unix
// socket), answers /health without a key, and everything else only with
// its key: --api-key, else LLAMA_API_KEY, as the release reads it. The real runtime's tests
// (-tags llama) check the same things of llama-server itself.
const fakeRuntimeEnv = "LOCALMODEL_TEST_FAKE_RUNTIME"

// fakeFailEnv, set, makes the stand-in write its value to stderr and
// exit 1 before it listens: a model llama.cpp refused, as it logs one.
const fakeFailEnv = "LOCALMODEL_TEST_FAKE_FAIL"

func TestMain(m *testing.M) {
	if os.Getenv(fakeRuntimeEnv) == "1" {
		os.Exit(fakeRuntime(os.Args[1:]))
	}
	os.Exit(m.Run())
}

func fakeRuntime(args []string) int {
	if lines := os.Getenv(fakeFailEnv); lines != "" {
		fmt.Fprint(os.Stderr, lines)
		return 1
	}
	host, port, key := "127.0.0.1", "8080", os.Getenv("LLAMA_API_KEY")
	for i := 0; i+1 < len(args); i++ {
		switch args[i] {
		case "--host":
			host = args[i+1]
		case "--port":
			port = args[i+1]
		case "--api-key":
			key = args[i+1]
		}
	}
	var ln net.Listener
	var err error
	if strings.HasSuffix(host, ".sock") {
		ln, err = net.Listen("unix", host)
	} else {
		ln, err = net.Listen("tcp", net.JoinHostPort(host, port))
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake runtime:", err)
		return 1
	}
	err = http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/health" && (key == "" || r.Header.Get("Authorization") != "Bearer "+key) {
			http.Error(w, `{"error":{"message":"Invalid API Key"}}`, http.StatusUnauthorized)
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"data": []map[string]string{{"id": "fake"}}})
	}))
	fmt.Fprintln(os.Stderr, "fake runtime:", err)
	return 1
}
