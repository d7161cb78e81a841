package library_test

import (
	"context"
	"fmt"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/library"
)

// Adding a server from a catalogue template: its {{path}} parameter
// filled in.
func ExampleTemplate_Instantiate() {
	t, err := library.FindIn(nil, "filesystem") // nil: the catalogue only
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := t.Instantiate("docs", library.Values{"path": "/home/me/docs"}, library.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Name, s.Command, s.Args)
	// Output: docs npx [-y @modelcontextprotocol/server-filesystem /home/me/docs]
}

// Choosing what runs under a profile: the "work" override of a server's
// URL applies, and templates are left out.
func ExamplePrepare() {
	f, err := config.ParseContext(context.Background(), "config.json", []byte(`{"mcpServers": {
		"github": {
			"url": "https://api.githubcopilot.com/mcp/",
			"metadata": {"description": "Issues and pull requests", "tags": ["code"]},
			"profiles": {"work": {"url": "https://github.example.com/mcp/"}}
		}
	}}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	run, problems := library.Prepare(f.Servers, "work")
	m, _ := library.MetaOf(run[0])
	fmt.Println(run[0].Name, run[0].URL, len(problems))
	fmt.Println(m.Description, m.Tags)
	// Output:
	// github https://github.example.com/mcp/ 0
	// Issues and pull requests [code]
}
