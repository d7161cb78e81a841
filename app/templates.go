package app

import (
	"context"
	"fmt"

	"github.com/yosida95/uritemplate/v3"
)

// templatePrompts are server's resource templates as slash commands: the
// template's variables are the arguments, completed like a prompt's.
func (a *ChatPage) templatePrompts(ctx context.Context, server string) []PromptView {
	ts, err := a.h.Tools.ResourceTemplates(ctx, server)
	if err != nil {
		return nil
	}
	var out []PromptView
	for _, t := range ts {
		if t.URITemplate == nil || t.URITemplate.Template == nil {
			continue
		}
		v := PromptView{Server: server, Name: t.Name, Title: t.Title, Description: t.Description, Arguments: []PromptArgument{},
			Template: t.URITemplate.Raw(), Icon: a.iconSrc(t.Icons)}
		for _, name := range t.URITemplate.Varnames() {
			v.Arguments = append(v.Arguments, PromptArgument{Name: name, Required: true})
		}
		out = append(out, v)
	}
	return out
}

// UseTemplate reads the resource a server's URI template names once its
// variables are filled in, as text for the message (like AttachResource).
func (a *ChatPage) UseTemplate(server, uriTemplate string, args map[string]string) (string, error) {
	t, err := uritemplate.New(uriTemplate)
	if err != nil {
		return "", fmt.Errorf("resource template %q: %w", uriTemplate, err)
	}
	vals := uritemplate.Values{}
	for k, v := range args {
		vals.Set(k, uritemplate.String(v))
	}
	uri, err := t.Expand(vals)
	if err != nil {
		return "", fmt.Errorf("resource template %q: %w", uriTemplate, err)
	}
	return a.AttachResource(server, uri)
}
