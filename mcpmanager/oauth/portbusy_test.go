package oauth

import (
	"errors"
	"fmt"
	"net"
	"os"
	"runtime"
	"strings"
	"testing"
)

// A configured redirectPort that is taken is refused aloud, naming what
// holds it; a remembered (dynamic) port that is taken gives way to any.
func TestRedirectPortBusy(t *testing.T) {
	hold, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer hold.Close()
	port := hold.Addr().(*net.TCPAddr).Port

	_, err = listenLoopback(redirect{host: "127.0.0.1", port: port, path: "/callback", fixed: "redirectPort"}, "s", issuerCheck{}, "notes")
	if !errors.Is(err, ErrPortBusy) {
		t.Fatalf("fixed port taken: err = %v, want ErrPortBusy", err)
	}
	if want := fmt.Sprintf("port %d (the server's redirectPort) is held by ", port); !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v, want it to name the port", err)
	}
	if me := fmt.Sprintf("(PID %d)", os.Getpid()); runtime.GOOS == "linux" && !strings.Contains(err.Error(), me) {
		t.Errorf("err = %v, want it to name this process %s", err, me)
	}

	cb, err := listenLoopback(redirect{host: "127.0.0.1", port: port, path: "/callback"}, "s", issuerCheck{}, "notes")
	if err != nil {
		t.Fatalf("remembered port taken: %v, want another port", err)
	}
	defer cb.close()
	if strings.Contains(cb.redirectURI, fmt.Sprintf(":%d/", port)) {
		t.Errorf("redirect URI %s uses the taken port", cb.redirectURI)
	}
}
