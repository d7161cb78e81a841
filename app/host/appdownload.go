package host

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/url"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/apps"
)

// Download reads an app's ui/download-file contents into files with safe
// names (apps.DownloadFiles); a resource_link is read from the app's own
// server (resources/read), never fetched from the web: the app's CSP
// decides what it may reach, and a download is no way around it.
func (a *Apps) Download(ctx context.Context, server string, contents []byte) ([]apps.File, error) {
	files, err := apps.DownloadFiles(contents)
	if err != nil {
		return nil, err
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
	}
	return files, nil
}

// SaveDownload writes f where the user chose in the save dialog, whole
// or not at all (apps.SaveFile).
func (a *Apps) SaveDownload(f apps.File, path string) error { return apps.SaveFile(path, f.Data) }

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
