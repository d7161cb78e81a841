package supervisor

import (
	"cmp"
	"errors"
	"sync"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// DefaultClientInfo is how a Server introduces itself at initialize when
// Options.ClientInfo leaves a field empty. The app passes its own version
// in; this package does not know it.
var DefaultClientInfo = mcp.Implementation{Name: "switchboard", Version: "dev"}

func (s *Server) clientInfo() mcp.Implementation {
	info := s.opts.ClientInfo
	info.Name = cmp.Or(info.Name, DefaultClientInfo.Name)
	info.Version = cmp.Or(info.Version, DefaultClientInfo.Version)
	return info
}

// InProcess builds a server that runs inside this process (a built-in),
// reached through mcp-go's in-process transport. It is called at every
// start, so a restart gets a fresh server; release frees what that server
// holds (open indexes, shells) and is called once its session has ended,
// before the next start. release may be nil.
type InProcess func() (srv *server.MCPServer, release func() error, err error)

// errNoServer: an InProcess returned neither a server nor an error.
var errNoServer = errors.New("the built-in returned no server")

// dialInProcess builds the server and a client on mcp-go's in-process
// transport; connect runs the handshake as for any other transport. opts go
// to the transport, which answers the server's sampling and elicitation
// requests itself.
func (s *Server) dialInProcess(opts []client.ClientOption) (*session, error) {
	srv, release, err := s.spec.InProcess()
	if err == nil && srv == nil {
		err = errNoServer
	}
	if err != nil {
		if release != nil {
			_ = release()
		}
		return nil, err
	}
	cl, err := client.NewInProcessClientWithOptions(srv, opts...)
	if err != nil {
		if release != nil {
			_ = release()
		}
		return nil, err
	}
	var once sync.Once
	return &session{
		tr:    cl.GetTransport(),
		cl:    cl,
		dead:  make(chan struct{}), // never closes: the server lives as long as this process
		why:   func() string { return "" },
		cause: func() error { return nil },
		close: func() {
			once.Do(func() {
				_ = cl.Close()
				if release == nil {
					return
				}
				if err := release(); err != nil {
					s.log.Add("release: " + err.Error())
				}
			})
		},
	}, nil
}
