package host

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// Once the servers settled, serve warns of those that did not start, but
// not of one the user switched off.
func TestServeWarnsNotOfADisabledServer(t *testing.T) {
	h := runServers(t,
		config.Server{Name: "off", Transport: config.Stdio, Command: "/nonexistent/off-server", Disabled: true},
		config.Server{Name: "broken", Transport: config.Stdio, Command: "/nonexistent/broken-server"},
	)
	var mu sync.Mutex
	var warned []string
	got := make(chan struct{}, 16)
	r := ServeRequest{SettleWait: 10 * time.Second, Warn: func(msg string) {
		mu.Lock()
		warned = append(warned, msg)
		mu.Unlock()
		got <- struct{}{}
	}}
	_, stop, err := h.Serve.start(t.Context(), r)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-got:
	case <-time.After(30 * time.Second):
		t.Fatal("no warning of the broken server")
	}
	stop() // the report is whole once its goroutine ended
	mu.Lock()
	defer mu.Unlock()
	all := strings.Join(warned, "\n")
	if !strings.Contains(all, "broken") || strings.Contains(all, "off:") || strings.Contains(all, "off-server") {
		t.Errorf("warnings:\n%s", all)
	}
}
