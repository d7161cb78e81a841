package app

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// PromptView is a server's prompt, offered as a slash command in the chat.
type PromptView struct {
	Server      string           `json:"server"`
	Name        string           `json:"name"`
	Title       string           `json:"title"`
	Description string           `json:"description"`
	Arguments   []PromptArgument `json:"arguments"`
	Icon        string           `json:"icon"` // as ServerView.Icon
	// Template, when set, makes this a resource template offered as a
	// slash command: its URI template, whose variables are the arguments
	// (UseTemplate reads the resource they name).
	Template string `json:"template,omitempty"`
}

// PromptArgument is one argument a prompt takes.
type PromptArgument struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Required    bool   `json:"required"`
}

// ResourceView is a server's resource the user can attach to a message.
type ResourceView struct {
	Server      string `json:"server"`
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Description string `json:"description"`
	MIMEType    string `json:"mimeType"`
	Icon        string `json:"icon"` // as ServerView.Icon
}

// listTimeout bounds listing prompts or resources of every server.
const listTimeout = 15 * time.Second

// eachServer runs fn for every server in parallel and collects the results.
func eachServer[T any](a *ChatPage, fn func(ctx context.Context, server string) ([]T, error)) []T {
	ctx, cancel := context.WithTimeout(a.bg(), listTimeout)
	defer cancel()
	servers := a.h.Tools.Servers()
	out := make([][]T, len(servers))
	var wg sync.WaitGroup
	for i, s := range servers {
		wg.Go(func() {
			v, err := fn(ctx, s)
			if err == nil {
				out[i] = v
			}
		})
	}
	wg.Wait()
	var all []T
	for _, v := range out {
		all = append(all, v...)
	}
	return all
}

// Prompts lists every running server's prompts (a server that fails to
// list them is left out).
func (a *ChatPage) Prompts() ([]PromptView, error) {
	out := eachServer(a, func(ctx context.Context, server string) ([]PromptView, error) {
		ps, err := a.h.Tools.Prompts(ctx, server)
		var vs []PromptView
		for _, p := range ps {
			v := PromptView{Server: server, Name: p.Name, Title: p.Title, Description: p.Description, Arguments: []PromptArgument{}, Icon: a.iconSrc(p.Icons)}
			for _, arg := range p.Arguments {
				v.Arguments = append(v.Arguments, PromptArgument{Name: arg.Name, Description: arg.Description, Required: arg.Required})
			}
			vs = append(vs, v)
		}
		return append(vs, a.templatePrompts(ctx, server)...), err
	})
	if out == nil {
		out = []PromptView{}
	}
	return out, nil
}

// UsePrompt expands a prompt with its arguments into the text of a message
// (prompts/get; each message of the result becomes a paragraph).
func (a *ChatPage) UsePrompt(server, name string, args map[string]string) (string, error) {
	res, err := a.h.Tools.Prompt(a.bg(), server, name, args)
	if err != nil {
		return "", err
	}
	var parts []string
	for _, m := range res.Messages {
		parts = append(parts, contentText(m.Content))
	}
	return a.h.Redact(strings.Join(parts, "\n\n")), nil
}

// Resources lists every running server's resources.
func (a *ChatPage) Resources() ([]ResourceView, error) {
	out := eachServer(a, func(ctx context.Context, server string) ([]ResourceView, error) {
		rs, err := a.h.Tools.Resources(ctx, server)
		var vs []ResourceView
		for _, r := range rs {
			vs = append(vs, ResourceView{Server: server, URI: r.URI, Name: r.Name, Description: r.Description, MIMEType: r.MIMEType, Icon: a.iconSrc(r.Icons)})
		}
		return vs, err
	})
	if out == nil {
		out = []ResourceView{}
	}
	return out, nil
}

// MaxAttachment bounds the text of one attached resource.
const MaxAttachment = 200_000

// AttachResource reads a resource and returns it as a block to add to the
// message: the model sees the URI and the text (binary content is named,
// not inlined).
func (a *ChatPage) AttachResource(server, uri string) (string, error) {
	res, err := a.h.Tools.Read(a.bg(), server, uri)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, c := range res.Contents {
		switch c := c.(type) {
		case mcp.TextResourceContents:
			fmt.Fprintf(&b, "<resource uri=%q server=%q>\n%s\n</resource>\n", c.URI, server, c.Text)
		case mcp.BlobResourceContents:
			fmt.Fprintf(&b, "<resource uri=%q server=%q mimeType=%q>(binary, %d bytes base64, not included)</resource>\n", c.URI, server, c.MIMEType, len(c.Blob))
		}
	}
	text := b.String()
	if len(text) > MaxAttachment {
		return "", fmt.Errorf("resource %s is %d KB of text; attach something under %d KB", uri, len(text)/1024, MaxAttachment/1024)
	}
	return a.h.Redact(text), nil
}

// contentText is the text of one prompt message's content.
func contentText(c mcp.Content) string {
	switch c := c.(type) {
	case mcp.TextContent:
		return c.Text
	case mcp.EmbeddedResource:
		if r, ok := c.Resource.(mcp.TextResourceContents); ok {
			return fmt.Sprintf("<resource uri=%q>\n%s\n</resource>", r.URI, r.Text)
		}
	case mcp.ImageContent:
		return "[image " + c.MIMEType + "]"
	}
	return ""
}
