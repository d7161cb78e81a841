package apps

import (
	"context"
	"encoding/base64"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
)

// Reader reads a server's resource (*router.Router).
type Reader interface {
	ReadResource(ctx context.Context, server, uri string) (*mcp.ReadResourceResult, error)
}

// Changes tells when servers' lists may have changed (*router.Router's
// Subscribe: a restart, tools or resources list_changed).
type Changes interface {
	Subscribe() (changes <-chan struct{}, stop func())
}

// Resource is one app: its HTML and what its _meta.ui asks for.
type Resource struct {
	Server string
	URI    string
	HTML   string
	Meta   ResourceMeta
}

// Cache keeps read app resources per server and URI, so a chat with ten
// cards of one tool reads its HTML once. Follow drops everything when any
// server's lists change (notifications/resources/list_changed among them),
// so the next Read asks the server again.
type Cache struct {
	r  Reader
	mu sync.Mutex
	m  map[string]*entry // server + "\x00" + uri
	g  uint64            // bumped by Drop: a read begun before it is not kept
}

type entry struct {
	done chan struct{}
	res  Resource
	err  error
}

// NewCache returns an empty cache reading through r.
func NewCache(r Reader) *Cache { return &Cache{r: r, m: map[string]*entry{}} }

// Read returns server's app resource uri, from the cache when it was read
// since the last change; concurrent reads of one resource share one request.
// A failed read is not kept.
func (c *Cache) Read(ctx context.Context, server, uri string) (Resource, error) {
	if !IsUI(uri) {
		return Resource{}, &Error{Op: "read", Server: server, URI: uri, Err: ErrNotUI}
	}
	key := server + "\x00" + uri
	c.mu.Lock()
	if e, ok := c.m[key]; ok {
		c.mu.Unlock()
		select {
		case <-e.done:
			return e.res, e.err
		case <-ctx.Done():
			return Resource{}, ctx.Err()
		}
	}
	e := &entry{done: make(chan struct{})}
	c.m[key] = e
	gen := c.g
	c.mu.Unlock()
	e.res, e.err = c.read(ctx, server, uri)
	close(e.done)
	c.mu.Lock()
	if e.err != nil || c.g != gen {
		if c.m[key] == e {
			delete(c.m, key)
		}
	}
	c.mu.Unlock()
	return e.res, e.err
}

func (c *Cache) read(ctx context.Context, server, uri string) (Resource, error) {
	res, err := c.r.ReadResource(ctx, server, uri)
	if err != nil {
		return Resource{}, &Error{Op: "read", Server: server, URI: uri, Err: err}
	}
	for _, rc := range res.Contents {
		var mime, html string
		var meta map[string]any
		switch v := rc.(type) {
		case mcp.TextResourceContents:
			mime, html, meta = v.MIMEType, v.Text, v.Meta
		case mcp.BlobResourceContents:
			b, err := base64.StdEncoding.DecodeString(v.Blob)
			if err != nil {
				continue
			}
			mime, html, meta = v.MIMEType, string(b), v.Meta
		default:
			continue
		}
		if !strings.HasPrefix(strings.ReplaceAll(mime, " ", ""), MIMEType) || html == "" {
			continue
		}
		return Resource{Server: server, URI: uri, HTML: html, Meta: ParseMeta(meta)}, nil
	}
	return Resource{}, &Error{Op: "read", Server: server, URI: uri, Err: ErrNoContent}
}

// Drop forgets every resource read so far.
func (c *Cache) Drop() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m = map[string]*entry{}
	c.g++
}

// Follow drops the cache on every change ch reports, until ctx ends.
func (c *Cache) Follow(ctx context.Context, ch Changes) {
	changes, stop := ch.Subscribe()
	defer stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-changes:
			c.Drop()
		}
	}
}
