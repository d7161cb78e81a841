package provider_test

import (
	"context"
	"fmt"

	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
)

func Example() {
	fake, err := providertest.New("")
	if err != nil {
		panic(err)
	}
	defer fake.Close()
	fake.Enqueue(providertest.Reply{ToolCalls: []providertest.ToolCall{{ID: "c1", Name: "files__read_file", Arguments: `{"path":"notes.md"}`}}})

	p, err := provider.New(provider.Config{Kind: provider.KindAnthropic, Name: "Claude", BaseURL: fake.URL(provider.KindAnthropic), APIKey: "sk-ant-example"})
	if err != nil {
		panic(err)
	}
	resp, err := p.Stream(context.Background(), provider.Request{
		Model:    "claude-sonnet-4-5",
		Messages: []provider.Message{{Role: provider.RoleUser, Text: "What is in notes.md?"}},
		Tools:    []provider.Tool{{Name: "files__read_file", Description: "Read a file"}},
	}, func(ev provider.Event) {
		if ev.Kind == provider.EventToolCallStart {
			fmt.Println("calling", ev.Name)
		}
	})
	if err != nil {
		panic(err)
	}
	for _, c := range resp.ToolCalls {
		fmt.Println(c.ID, c.Name, string(c.Arguments), resp.Stop)
	}
	// Output:
	// calling files__read_file
	// c1 files__read_file {"path":"notes.md"} tool_use
}
