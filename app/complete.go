package app

import (
	"github.com/switchboard-app/switchboard/mcpmanager/registry"
)

// CompleteArgument suggests values for an argument of a prompt (prompt set)
// or a resource template (template set) from the server
// (completion/complete), for the slash-command form; given are the
// arguments filled in so far. A server without completions suggests none.
func (a *ChatPage) CompleteArgument(server, prompt, template, argument, value string, given map[string]string) ([]string, error) {
	return a.h.Tools.Complete(a.bg(), server, registry.Completion{
		Prompt: prompt, Template: template, Argument: argument, Value: value, Given: given,
	})
}
