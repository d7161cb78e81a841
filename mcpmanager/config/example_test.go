package config_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

func ExampleParseContext() {
	data := []byte(`{
  // Claude Desktop
  "mcpServers": {
    "memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]},
    "github": {"command": "npx", "args": "-y @modelcontextprotocol/server-github"},
  }
}`)
	f, err := config.ParseContext(context.Background(), "claude_desktop_config.json", data)
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
	f, _ := config.ParseContext(context.Background(), "mcp.json", []byte(`{"servers": {
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

// Importing a host's file into the app's config.json: Parse, then Plan and
// Apply inside Edit, which holds the config's lock so another process's
// edit at the same time is kept too.
func ExampleEdit() {
	dataDir, err := os.MkdirTemp("", "switchboard-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dataDir)
	path := filepath.Join(dataDir, "config.json")
	github := config.Server{Name: "github", Transport: config.HTTP, URL: "https://api.githubcopilot.com/mcp/"}
	if _, err := config.Edit(context.Background(), path, func(cfg *config.Config) error {
		cfg.Servers = append(cfg.Servers, github) // a missing config.json starts empty
		return nil
	}); err != nil {
		log.Fatal(err)
	}

	data := []byte(`{"mcpServers": {
		"github": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"]},
		"memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]},
		"broken": {"args": ["no command"]}
	}}`)
	f, err := config.ParseContext(context.Background(), "claude_desktop_config.json", data)
	if f == nil {
		log.Fatal(err) // not a config at all: empty, bad JSON, unknown shape
	}
	fmt.Println(err != nil, len(f.Servers)) // err lists the broken server; f.Servers holds the valid ones
	_, err = config.Edit(context.Background(), path, func(cfg *config.Config) error {
		plan := config.Plan(cfg, f)
		for _, it := range plan.Items {
			fmt.Println(it.Name, it.Outcome)
		}
		next, err := config.Apply(cfg, plan, map[string]config.Resolution{"github": config.Rename})
		if err != nil {
			return err
		}
		*cfg = *next
		return nil
	})
	if err != nil {
		log.Fatal(err)
	}
	saved, err := config.Load(path)
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range saved.Servers {
		fmt.Println(s.Name, s.Transport)
	}
	// Output:
	// true 2
	// github conflicting
	// memory added
	// broken invalid
	// github http
	// github-2 stdio
	// memory stdio
}
