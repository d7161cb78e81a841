package config_test

import (
	"fmt"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

func ExampleParse() {
	data := []byte(`{
  // Claude Desktop
  "mcpServers": {
    "memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]},
    "github": {"command": "npx", "args": "-y @modelcontextprotocol/server-github"},
  }
}`)
	f, err := config.Parse("claude_desktop_config.json", data)
	fmt.Println(err)
	for _, s := range f.Servers {
		fmt.Println("valid:", s.Name, s.Transport, s.Command, s.Args)
	}
	// Output:
	// claude_desktop_config.json:5:42: mcpServers.github.args: must be an array of strings, got a string
	// valid: memory stdio npx [-y @modelcontextprotocol/server-memory]
}

func ExamplePlan() {
	cfg := &config.Config{Servers: []config.Server{
		{Name: "search", Transport: config.HTTP, URL: "https://search.example.com/mcp"},
	}}
	f, _ := config.Parse("mcp.json", []byte(`{"servers": {
		"search": {"type": "stdio", "command": "search-server"},
		"time":   {"type": "stdio", "command": "uvx", "args": ["mcp-server-time"]}
	}}`))
	plan := config.Plan(cfg, f)
	for _, it := range plan.Items {
		fmt.Printf("%s %s default=%s renameTo=%q\n", it.Name, it.Outcome, it.Default, it.RenameTo)
	}
	next, _ := config.Apply(cfg, plan, map[string]config.Resolution{"search": config.Rename})
	for _, s := range next.Servers {
		fmt.Println(s.Name, s.Transport)
	}
	// Output:
	// search conflicting default=keep renameTo="search-2"
	// time added default=replace renameTo=""
	// search http
	// search-2 stdio
	// time stdio
}
