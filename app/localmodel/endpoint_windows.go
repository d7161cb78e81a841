package localmodel

import (
	"context"
	"net"
	"strconv"
)

// endpoint is where llama-server listens on Windows: a free loopback port,
// reached only through the guard (guard.go), a proxy in the app on a port
// of its own that refuses browsers' requests, other Hosts and requests
// without the key. llama-server still requires the key too, so its own
// port, which other local programs can connect to, answers nothing without
// it. (The release's Unix sockets are not used on Windows: AF_UNIX there
// depends on the Windows build and on what mingw-w64's headers have.)
type endpoint struct {
	g *guard
}

func openEndpoint(key string) (*endpoint, error) {
	g, err := newGuard(key)
	if err != nil {
		return nil, err
	}
	return &endpoint{g: g}, nil
}

// listen is llama-server's arguments for where to listen, for one run: a
// new free port, which the guard forwards to from then on.
func (e *endpoint) listen() ([]string, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	hostport := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	e.g.setBackend(hostport)
	return []string{"--host", "127.0.0.1", "--port", strconv.Itoa(port)}, nil
}

// base is the guard's URL root: the same across restarts.
func (e *endpoint) base() string { return "http://" + e.g.addr() }

func (e *endpoint) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	var d net.Dialer
	return d.DialContext(ctx, network, addr)
}

func (e *endpoint) close() error { return e.g.close() }

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}
