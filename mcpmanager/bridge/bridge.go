package bridge

import (
	"bufio"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"time"
)

// Version is the handshake's version; a peer speaking another is refused
// with a message saying to use the same Switchboard for both.
const Version = 1

// HandshakeTimeout bounds each side's handshake: a socket that accepts but
// does not answer (a hung Switchboard) is given up on, and 'serve' runs the
// servers itself.
var HandshakeTimeout = 3 * time.Second

// ErrNotRunning means nothing answers at the address: no Switchboard is
// running for this data dir (or a stale socket was left behind).
var ErrNotRunning = errors.New("bridge: no running Switchboard answers")

// ErrRefused means something answered but the handshake failed: another
// user's process, another version, or a wrong token.
var ErrRefused = errors.New("bridge: the running Switchboard refused the connection")

// Error is a failure of the bridge at a path (the socket, the pipe, the
// token file).
type Error struct {
	Op   string
	Path string
	Err  error
}

func (e *Error) Error() string { return fmt.Sprintf("bridge: %s %s: %v", e.Op, e.Path, e.Err) }
func (e *Error) Unwrap() error { return e.Err }

// Hello is what an attaching 'serve' says about itself.
type Hello struct {
	// Client is the app's name from 'serve --client NAME'; empty when not
	// given (the running Switchboard then names the app by its initialize
	// clientInfo.name).
	Client string `json:"client,omitempty"`
	// PID is the attaching process, for logs.
	PID int `json:"pid,omitempty"`
	// Handoff offers the app's stdin and stdout themselves (HandOff, after
	// the handshake) instead of relaying them over the connection.
	Handoff bool `json:"handoff,omitempty"`
}

// Peer is what the running Switchboard says about itself.
type Peer struct {
	PID     int    `json:"pid"`
	Version string `json:"version,omitempty"`
	// Handoff says it takes an app's stdio handed over (Listen sets it
	// where the system can pass open files: Unix).
	Handoff bool `json:"handoff,omitempty"`
}

// Address is where a running Switchboard for one data dir listens.
type Address struct {
	// Socket is the Unix socket's path, or on Windows the named pipe's
	// name (\\.\pipe\…).
	Socket string
	// Dir holds the socket (Unix) and the token file; 0700.
	Dir string
	// Pointer is the file in DATADIR/run in which the listening
	// Switchboard names Socket, for a Dial whose environment gives another
	// address (see For); "" on Windows.
	Pointer string
}

// Token is the token file's path: 0600, read by both sides, never sent
// (each side proves it knows it, see handshake).
func (a Address) Token() string { return filepath.Join(a.Dir, "token") }

// handshake messages, one JSON line each.
type (
	clientHello struct {
		Bridge int    `json:"switchboard_bridge"`
		Nonce  string `json:"nonce"`
		Hello
	}
	serverHello struct {
		Nonce string `json:"nonce,omitempty"`
		Proof string `json:"proof,omitempty"`
		Error string `json:"error,omitempty"`
		Peer
	}
	clientProof struct {
		Proof string `json:"proof"`
	}
	serverOK struct {
		OK    bool   `json:"ok"`
		Error string `json:"error,omitempty"`
	}
)

func nonce() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// proof is HMAC-SHA256(token, role:a:b): each side shows it holds the
// token without sending it, so a process squatting the address learns
// nothing it could replay.
func proof(token []byte, role, a, b string) string {
	m := hmac.New(sha256.New, token)
	m.Write([]byte(role + ":" + a + ":" + b))
	return hex.EncodeToString(m.Sum(nil))
}

func readToken(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, &Error{Op: "read token", Path: path, Err: err}
	}
	if len(b) < 32 {
		return nil, &Error{Op: "read token", Path: path, Err: errors.New("too short; delete it and start Switchboard again")}
	}
	return b, nil
}

// Dial attaches to the Switchboard running at a: it connects, proves the
// token and returns the connection, on which the MCP stream then flows,
// and what the running Switchboard said about itself. ErrNotRunning when
// nothing answers; ErrRefused (wrapped) when the handshake fails.
func Dial(ctx context.Context, a Address, h Hello) (net.Conn, Peer, error) {
	c, peer, err := dialAt(ctx, a, h)
	if err == nil || !errors.Is(err, ErrNotRunning) || a.Pointer == "" {
		return c, peer, err
	}
	// Not where this process's environment says: where the running
	// Switchboard said, in the data dir.
	b, perr := readPointer(a)
	switch {
	case errors.Is(perr, os.ErrNotExist):
		return nil, Peer{}, err
	case perr != nil:
		return nil, Peer{}, fmt.Errorf("%w; %w", err, perr)
	case b.Socket == a.Socket:
		return nil, Peer{}, err
	}
	return dialAt(ctx, b, h)
}

// dialAt is Dial at a's own socket.
func dialAt(ctx context.Context, a Address, h Hello) (net.Conn, Peer, error) {
	token, err := readToken(a.Token())
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, Peer{}, fmt.Errorf("%w (no token at %s)", ErrNotRunning, a.Token())
		}
		return nil, Peer{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, HandshakeTimeout)
	defer cancel()
	c, err := dial(ctx, a.Socket)
	if err != nil {
		return nil, Peer{}, fmt.Errorf("%w at %s: %v", ErrNotRunning, a.Socket, err)
	}
	deadline, _ := ctx.Deadline()
	_ = c.SetDeadline(deadline)
	peer, err := clientSide(c, token, h)
	if err != nil {
		c.Close()
		return nil, Peer{}, err
	}
	_ = c.SetDeadline(time.Time{})
	return c, peer, nil
}

func clientSide(c net.Conn, token []byte, h Hello) (Peer, error) {
	br := bufio.NewReader(c)
	enc := json.NewEncoder(c)
	cn := nonce()
	if err := enc.Encode(clientHello{Bridge: Version, Nonce: cn, Hello: h}); err != nil {
		return Peer{}, fmt.Errorf("%w: %v", ErrNotRunning, err)
	}
	var sh serverHello
	if err := readLine(br, &sh); err != nil {
		return Peer{}, fmt.Errorf("%w: no answer to the handshake: %v", ErrNotRunning, err)
	}
	if sh.Error != "" {
		return Peer{}, fmt.Errorf("%w: %s", ErrRefused, sh.Error)
	}
	if !hmac.Equal([]byte(sh.Proof), []byte(proof(token, "server", cn, sh.Nonce))) {
		return Peer{}, fmt.Errorf("%w: it does not hold this data dir's token (another user's process, or a stale token file)", ErrRefused)
	}
	if err := enc.Encode(clientProof{Proof: proof(token, "client", sh.Nonce, cn)}); err != nil {
		return Peer{}, fmt.Errorf("%w: %v", ErrNotRunning, err)
	}
	var ok serverOK
	if err := readLine(br, &ok); err != nil {
		return Peer{}, fmt.Errorf("%w: no answer to the proof: %v", ErrNotRunning, err)
	}
	if !ok.OK {
		return Peer{}, fmt.Errorf("%w: %s", ErrRefused, ok.Error)
	}
	if br.Buffered() > 0 {
		return Peer{}, fmt.Errorf("%w: it sent more than the handshake", ErrRefused)
	}
	return sh.Peer, nil
}

// readLine decodes one JSON line of at most 4 KiB.
func readLine(br *bufio.Reader, v any) error {
	var line []byte
	for len(line) <= 4096 {
		chunk, err := br.ReadSlice('\n')
		line = append(line, chunk...)
		if err == nil {
			return json.Unmarshal(line, v)
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return err
		}
	}
	return errors.New("handshake line too long")
}

// serverSide runs the listener's half of the handshake on c.
func serverSide(c net.Conn, token []byte, self Peer) (Hello, error) {
	_ = c.SetDeadline(time.Now().Add(HandshakeTimeout))
	defer func() { _ = c.SetDeadline(time.Time{}) }()
	br := bufio.NewReaderSize(c, 4096)
	enc := json.NewEncoder(c)
	var ch clientHello
	if err := readLine(br, &ch); err != nil {
		return Hello{}, fmt.Errorf("%w: handshake: %v", ErrRefused, err)
	}
	if ch.Bridge != Version || ch.Nonce == "" {
		msg := fmt.Sprintf("bridge version %d is not this Switchboard's (%d): run the same Switchboard for the app and the window", ch.Bridge, Version)
		_ = enc.Encode(serverHello{Error: msg})
		return Hello{}, fmt.Errorf("%w: %s", ErrRefused, msg)
	}
	sn := nonce()
	if err := enc.Encode(serverHello{Nonce: sn, Proof: proof(token, "server", ch.Nonce, sn), Peer: self}); err != nil {
		return Hello{}, err
	}
	var cp clientProof
	if err := readLine(br, &cp); err != nil {
		return Hello{}, fmt.Errorf("%w: handshake: %v", ErrRefused, err)
	}
	if !hmac.Equal([]byte(cp.Proof), []byte(proof(token, "client", sn, ch.Nonce))) {
		_ = enc.Encode(serverOK{Error: "wrong token proof: the app's 'switchboard serve' must use the same data dir (--data-dir) as the running Switchboard"})
		return Hello{}, fmt.Errorf("%w: wrong token proof from pid %d", ErrRefused, ch.PID)
	}
	if br.Buffered() > 0 {
		return Hello{}, fmt.Errorf("%w: the client sent before the handshake ended", ErrRefused)
	}
	return ch.Hello, enc.Encode(serverOK{OK: true})
}

// Listener accepts attaching 'serve' processes for one data dir.
type Listener struct {
	l     net.Listener
	addr  Address
	token []byte
	self  Peer
}

// Conn is one attached 'serve': the MCP stream flows over it after the
// handshake, or, when the serve handed over the app's stdin and stdout,
// on those (see Serve).
type Conn struct {
	net.Conn
	Hello Hello

	in, out *os.File // the app's stdio, when handed over
}

// Listen makes a's directory (0700, owned by this user, refused when it
// is not), writes a fresh token (0600) and listens. When another process
// answers at a already, it returns ErrInUse: one Switchboard listens per
// data dir. A socket nobody answers on is stale and replaced.
func Listen(a Address, self Peer) (*Listener, error) {
	if err := privateDir(a.Dir); err != nil {
		return nil, err
	}
	if live(a.Socket) {
		return nil, &Error{Op: "listen", Path: a.Socket, Err: ErrInUse}
	}
	// One started in another environment (another XDG_RUNTIME_DIR) for
	// the same data dir.
	if b, err := readPointer(a); err == nil && b.Socket != a.Socket && live(b.Socket) {
		return nil, &Error{Op: "listen", Path: b.Socket, Err: ErrInUse}
	}
	self.Handoff = handoffSupported
	token := []byte(nonce() + nonce())
	if err := writeToken(a.Token(), token); err != nil {
		return nil, err
	}
	l, err := listen(a.Socket)
	if err != nil {
		return nil, &Error{Op: "listen", Path: a.Socket, Err: err}
	}
	// Best effort: without it only a 'serve' whose environment gives the
	// same address finds this one, as before there was one.
	_ = writePointer(a)
	return &Listener{l: l, addr: a, token: token, self: self}, nil
}

// ErrInUse means another running Switchboard already listens for this data
// dir.
var ErrInUse = errors.New("another Switchboard is running for this data dir and already shares its servers")

// Accept waits for the next 'serve' that completes the handshake; a
// connection that fails it is closed and skipped (reported to refused,
// when set).
func (l *Listener) Accept(refused func(error)) (*Conn, error) {
	for {
		c, err := l.l.Accept()
		if err != nil {
			return nil, err
		}
		if err := peerCheck(c); err != nil {
			c.Close()
			if refused != nil {
				refused(err)
			}
			continue
		}
		h, err := serverSide(c, l.token, l.self)
		var in, out *os.File
		if err == nil && h.Handoff && l.self.Handoff {
			_ = c.SetDeadline(time.Now().Add(HandshakeTimeout))
			if in, out, err = receiveFiles(c); err != nil {
				err = fmt.Errorf("%w: the app's stdio from pid %d: %v", ErrRefused, h.PID, err)
			}
			_ = c.SetDeadline(time.Time{})
		}
		if err != nil {
			c.Close()
			if refused != nil {
				refused(err)
			}
			continue
		}
		return &Conn{Conn: c, Hello: h, in: in, out: out}, nil
	}
}

// Address is where l listens.
func (l *Listener) Address() Address { return l.addr }

// Close stops listening and removes the token, so no new 'serve'
// attaches; attached ones keep their connections until those are closed.
func (l *Listener) Close() error {
	err := l.l.Close()
	removePointer(l.addr)
	_ = os.Remove(l.addr.Token())
	cleanup(l.addr.Socket)
	return err
}

func writeToken(path string, token []byte) error {
	tmp := path + ".tmp"
	_ = os.Remove(tmp)
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return &Error{Op: "write token", Path: path, Err: err}
	}
	_, err = f.Write(token)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		_ = os.Remove(tmp)
		return &Error{Op: "write token", Path: path, Err: err}
	}
	return nil
}

// live reports whether something accepts connections at socket.
func live(socket string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	c, err := dial(ctx, socket)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// Relay copies bytes both ways between the app's stdio and the running
// Switchboard (c) with no decoding: see relay.go.
var _ io.ReadWriter = (*Conn)(nil)
