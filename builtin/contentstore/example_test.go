package contentstore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/builtin/contentstore"
)

func Example() {
	root, _ := os.MkdirTemp("", "stores")
	defer os.RemoveAll(root)
	ctx := context.Background()

	s, err := contentstore.Open(contentstore.Options{Root: root})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	info, _ := s.Create(ctx, "Recipes", "things to cook", "")
	_, err = s.Add(ctx, info.ID, contentstore.Input{
		Title:  "Bread",
		Format: "md",
		Text:   "# Bread\n\n## Dough\nMix flour, water and salt.\n\n## Baking\nBake the loaves at 250 °C.\n",
	})
	if err != nil {
		log.Fatal(err)
	}
	res, _ := s.Search(ctx, contentstore.Query{Text: "baked loaves"})
	h := res.Hits[0]
	fmt.Println(h.Title, "|", h.Section, "|", h.FromLine, h.ToLine, h.MatchLines)
	fmt.Println(h.Snippet)
	ex, _ := s.Read(ctx, h.ContentID, h.FromLine, h.ToLine)
	fmt.Println(ex.Text)
	// Output:
	// Bread | Bread > Baking | 6 7 [6 7]
	// ## <mark>Baking</mark>
	// <mark>Bake</mark> the <mark>loaves</mark> at 250 °C.
	// ## Baking
	// Bake the loaves at 250 °C.
}

// A folder added as one ingest, its progress reported as it commits (the
// Knowledge page's progress bar), a binary file skipped, then a search
// limited to one format.
func Example_folder() {
	root, _ := os.MkdirTemp("", "stores")
	defer os.RemoveAll(root)
	docs, _ := os.MkdirTemp("", "docs")
	defer os.RemoveAll(docs)
	os.WriteFile(filepath.Join(docs, "install.md"), []byte("# Install\n\nRun the installer; on \"permission denied\" use sudo.\n"), 0o600)
	os.WriteFile(filepath.Join(docs, "notes.txt"), []byte("The installer needs 200 MB free.\n"), 0o600)
	os.WriteFile(filepath.Join(docs, "logo.png"), []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), 0o600)
	ctx := context.Background()

	var last contentstore.Progress
	s, err := contentstore.Open(contentstore.Options{Root: root, OnProgress: func(p contentstore.Progress) { last = p }})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	info, _ := s.Create(ctx, "Project docs", "design notes and READMEs", "")
	res, err := s.Add(ctx, info.ID, contentstore.Input{Path: docs})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("added:", res.Added, "skipped:", len(res.Skipped), "| progress done:", last.Done, last.Files, "of", last.Total)

	hits, _ := s.Search(ctx, contentstore.Query{Text: `installer "permission denied"`, Filters: map[string]string{"format": "md"}})
	for _, h := range hits.Hits {
		fmt.Println(h.Title, h.FromLine, h.ToLine)
	}
	// Output:
	// added: 2 skipped: 1 | progress done: true 3 of 3
	// Install 1 3
}

// The same stores served as an MCP server, here to an in-process mcp-go
// client; a host runs contentstore.Builtin instead, which opens the stores
// under the root it is given.
func ExampleNewServer() {
	root, _ := os.MkdirTemp("", "stores")
	defer os.RemoveAll(root)
	ctx := context.Background()
	s, err := contentstore.Open(contentstore.Options{Root: root})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	cl, _ := client.NewInProcessClient(contentstore.NewServer(s))
	defer cl.Close()
	_ = cl.Start(ctx)
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	if _, err := cl.Initialize(ctx, init); err != nil {
		log.Fatal(err)
	}
	call := func(tool string, args map[string]any) string {
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = tool, args
		res, err := cl.CallTool(ctx, req)
		if err != nil || res.IsError {
			log.Fatal(tool, err, res)
		}
		return res.Content[0].(mcp.TextContent).Text
	}
	var store struct{ ID string }
	json.Unmarshal([]byte(call("createStore", map[string]any{"name": "Recipes"})), &store)
	call("addContent", map[string]any{"storeId": store.ID, "title": "Soup", "text": "Simmer the onions for an hour."})
	var found struct {
		Hits []struct {
			Title, Snippet string
		}
	}
	json.Unmarshal([]byte(call("search", map[string]any{"query": "onion"})), &found)
	fmt.Println(store.ID, found.Hits[0].Title, found.Hits[0].Snippet)
	// Output:
	// recipes Soup Simmer the <mark>onions</mark> for an hour.
}
