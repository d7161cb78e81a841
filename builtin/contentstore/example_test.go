package contentstore_test

import (
	"context"
	"fmt"
	"log"
	"os"

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
