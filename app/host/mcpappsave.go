package host

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/apps"
)

// newSession starts an app session's download budget; the oldest of more
// than apps.MaxPages is forgotten, as the proxy forgets its page.
func (a *MCPApps) newSession() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	id := hex.EncodeToString(b[:])
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.sessions == nil {
		a.sessions = map[string]*apps.Budget{}
	}
	a.sessions[id] = &apps.Budget{}
	a.order = append(a.order, id)
	for len(a.order) > apps.MaxPages {
		delete(a.sessions, a.order[0])
		a.order = a.order[1:]
	}
	return id
}

func (a *MCPApps) budget(session string) (*apps.Budget, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	b, ok := a.sessions[session]
	if !ok {
		return nil, ErrAppClosed
	}
	return b, nil
}

// resourceBytes is the first content of a resources/read answer, as bytes.
func resourceBytes(res *mcp.ReadResourceResult) ([]byte, error) {
	if res == nil || len(res.Contents) == 0 {
		return nil, fmt.Errorf("the server returned no contents")
	}
	var b []byte
	switch c := res.Contents[0].(type) {
	case mcp.TextResourceContents:
		b = []byte(c.Text)
	case mcp.BlobResourceContents:
		var err error
		if b, err = base64.StdEncoding.DecodeString(c.Blob); err != nil {
			return nil, fmt.Errorf("its blob is not base64: %w", err)
		}
	default:
		return nil, fmt.Errorf("the server returned contents of an unknown kind")
	}
	if len(b) > apps.MaxSave {
		return nil, apps.ErrSaveTooBig
	}
	return b, nil
}

func resourceMIME(res *mcp.ReadResourceResult) string {
	switch c := res.Contents[0].(type) {
	case mcp.TextResourceContents:
		return c.MIMEType
	case mcp.BlobResourceContents:
		return c.MIMEType
	}
	return ""
}
