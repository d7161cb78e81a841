package host

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/apps"
)

// ErrAppClosed: a download names an app session that is not open (or was
// opened so long ago that it was forgotten).
var ErrAppClosed = errors.New("the app is no longer open: open it again")

// newSession starts an app session's download budget; the oldest of more
// than apps.MaxPages is forgotten, as the proxy forgets its page.
func (a *Apps) newSession() string {
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

func (a *Apps) budget(session string) (*apps.Budget, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	b, ok := a.sessions[session]
	if !ok {
		return nil, ErrAppClosed
	}
	return b, nil
}

// Download reads an app's ui/download-file contents into files with safe
// names (apps.DownloadFiles); a resource_link is read from the app's own
// server (resources/read), never fetched from the web: the app's CSP
// decides what it may reach, and a download is no way around it. A
// request past apps.MaxDownloadFiles or apps.MaxDownloadBytes (the linked
// files counted as they are read) is refused whole.
func (a *Apps) Download(ctx context.Context, server string, contents []byte) ([]apps.File, error) {
	files, err := apps.DownloadFiles(contents)
	if err != nil {
		return nil, err
	}
	var total int64
	for _, f := range files {
		total += int64(len(f.Data))
	}
	for i, f := range files {
		if f.Link == "" {
			continue
		}
		if u, err := url.Parse(f.Link); err == nil && (u.Scheme == "http" || u.Scheme == "https") {
			return nil, fmt.Errorf("%s links to %s: Switchboard saves only files the app embeds or its server's own resources", f.Name, f.Link)
		}
		res, err := a.h.registry().ReadResource(ctx, server, f.Link)
		if err != nil {
			return nil, fmt.Errorf("%s could not be read from %s: %w", f.Link, server, err)
		}
		if files[i].Data, err = resourceBytes(res); err != nil {
			return nil, fmt.Errorf("%s of %s: %w", f.Link, server, err)
		}
		if files[i].MIMEType == "" {
			files[i].MIMEType = resourceMIME(res)
		}
		if total += int64(len(files[i].Data)); total > int64(apps.MaxDownloadBytes) {
			return nil, apps.TooMany(len(files), total)
		}
	}
	return files, nil
}

// Offer checks that the app session may still save files (all of one
// request), before the user is asked: a request past what the session
// has left (apps.MaxSessionFiles, apps.MaxSessionBytes) is refused whole.
func (a *Apps) Offer(session string, files []apps.File) error {
	b, err := a.budget(session)
	if err != nil {
		return err
	}
	var total int64
	for _, f := range files {
		total += int64(len(f.Data))
	}
	return b.Fits(len(files), total)
}

// SaveDownload writes f where the user chose in the save dialog, whole
// or not at all (apps.SaveFile), taking it from what the app session may
// still save.
func (a *Apps) SaveDownload(session string, f apps.File, path string) error {
	b, err := a.budget(session)
	if err != nil {
		return err
	}
	if err := b.Take(int64(len(f.Data))); err != nil {
		return err
	}
	return apps.SaveFile(path, f.Data)
}

// DownloadsDir is the folder the save dialog opens in (apps.DownloadsDir).
func (a *Apps) DownloadsDir() string { return apps.DownloadsDir() }

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
	if len(b) > apps.MaxDownload {
		return nil, apps.ErrDownloadTooBig
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
