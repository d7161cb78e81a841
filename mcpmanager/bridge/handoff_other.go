//go:build !unix

package bridge

import (
	"errors"
	"net"
	"os"
)

// handoffSupported: Windows named pipes carry no handles, so 'serve'
// relays there.
const handoffSupported = false

func handsOff(*os.File) bool { return false }

var errNoHandoff = errors.New("handing over stdio is not supported here")

func sendFiles(net.Conn, *os.File, *os.File) error { return errNoHandoff }

func receiveFiles(net.Conn) (*os.File, *os.File, error) { return nil, nil, errNoHandoff }

func takeBack(*os.File) {}
