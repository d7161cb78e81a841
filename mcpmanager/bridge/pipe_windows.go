package bridge

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// The named pipe: created with PipeSDDL's access list (the user only),
// remote clients rejected, its first instance exclusive.

func currentSID() (string, error) {
	tok := windows.GetCurrentProcessToken()
	u, err := tok.GetTokenUser()
	if err != nil {
		return "", err
	}
	return u.User.Sid.String(), nil
}

func createPipe(name string, sa *windows.SecurityAttributes, first bool) (windows.Handle, error) {
	flags := uint32(windows.PIPE_ACCESS_DUPLEX)
	if first {
		flags |= windows.FILE_FLAG_FIRST_PIPE_INSTANCE
	}
	p, err := windows.UTF16PtrFromString(name)
	if err != nil {
		return 0, err
	}
	return windows.CreateNamedPipe(p, flags,
		windows.PIPE_TYPE_BYTE|windows.PIPE_READMODE_BYTE|windows.PIPE_WAIT|windows.PIPE_REJECT_REMOTE_CLIENTS,
		windows.PIPE_UNLIMITED_INSTANCES, 64<<10, 64<<10, 0, sa)
}

type pipeListener struct {
	name string
	sa   *windows.SecurityAttributes

	mu     sync.Mutex
	closed bool
	next   windows.Handle
}

func listen(name string) (net.Listener, error) {
	sid, err := currentSID()
	if err != nil {
		return nil, err
	}
	sd, err := windows.SecurityDescriptorFromString(PipeSDDL(sid))
	if err != nil {
		return nil, err
	}
	sa := &windows.SecurityAttributes{Length: uint32(unsafe.Sizeof(windows.SecurityAttributes{})), SecurityDescriptor: sd}
	h, err := createPipe(name, sa, true)
	if err != nil {
		return nil, err
	}
	return &pipeListener{name: name, sa: sa, next: h}, nil
}

func (l *pipeListener) Accept() (net.Conn, error) {
	l.mu.Lock()
	h := l.next
	closed := l.closed
	l.mu.Unlock()
	if closed {
		return nil, net.ErrClosed
	}
	err := windows.ConnectNamedPipe(h, nil)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil, net.ErrClosed
	}
	if err != nil && !errors.Is(err, windows.ERROR_PIPE_CONNECTED) {
		return nil, err
	}
	n, err := createPipe(l.name, l.sa, false)
	if err != nil {
		return nil, err
	}
	l.next = n
	return newPipeConn(os.NewFile(uintptr(h), l.name)), nil
}

func (l *pipeListener) Close() error {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return nil
	}
	l.closed = true
	h := l.next
	l.mu.Unlock()
	// Wake an Accept blocked in ConnectNamedPipe by connecting to it.
	if f, err := os.OpenFile(l.name, os.O_RDWR, 0); err == nil {
		f.Close()
	}
	return windows.CloseHandle(h)
}

func (l *pipeListener) Addr() net.Addr { return pipeAddr(l.name) }

type pipeAddr string

func (a pipeAddr) Network() string { return "pipe" }
func (a pipeAddr) String() string  { return string(a) }

// pipeConn is a pipe handle as a net.Conn; a deadline closes it (the
// handle is synchronous), so a hung peer never holds the handshake.
type pipeConn struct {
	f     *os.File
	mu    sync.Mutex
	timer *time.Timer
}

func newPipeConn(f *os.File) *pipeConn { return &pipeConn{f: f} }

func (c *pipeConn) Read(p []byte) (int, error)  { return c.f.Read(p) }
func (c *pipeConn) Write(p []byte) (int, error) { return c.f.Write(p) }
func (c *pipeConn) Close() error                { return c.f.Close() }
func (c *pipeConn) LocalAddr() net.Addr         { return pipeAddr(c.f.Name()) }
func (c *pipeConn) RemoteAddr() net.Addr        { return pipeAddr(c.f.Name()) }
func (c *pipeConn) SetDeadline(t time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.timer != nil {
		c.timer.Stop()
		c.timer = nil
	}
	if !t.IsZero() {
		c.timer = time.AfterFunc(time.Until(t), func() { c.f.Close() })
	}
	return nil
}
func (c *pipeConn) SetReadDeadline(t time.Time) error  { return c.SetDeadline(t) }
func (c *pipeConn) SetWriteDeadline(t time.Time) error { return c.SetDeadline(t) }

// CloseWrite ends the stream towards the peer: a pipe has no half close.
func (c *pipeConn) CloseWrite() error { return c.f.Close() }

func dial(ctx context.Context, name string) (net.Conn, error) {
	for {
		f, err := os.OpenFile(name, os.O_RDWR, 0)
		if err == nil {
			return newPipeConn(f), nil
		}
		if !errors.Is(err, windows.ERROR_PIPE_BUSY) {
			return nil, err
		}
		// Every instance is taken this instant; the listener makes a new
		// one right after each connection.
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("%s stays busy: %w", name, ctx.Err())
		case <-time.After(10 * time.Millisecond):
		}
	}
}

func cleanup(string) {}

// privateDir makes the token's directory; the data dir beneath the user's
// profile is the user's alone by its inherited access list.
func privateDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return &Error{Op: "make the token directory", Path: dir, Err: err}
	}
	return nil
}
