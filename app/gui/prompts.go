package gui

import (
	"context"
	"fmt"
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

// MaxAttachment bounds the text of one attached resource.
const MaxAttachment = 200_000

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
