package gui

import (
	"context"
	"encoding/base64"
	"os"
	"strings"
	"testing"
)

func TestAddDocumentIngestsAPDF(t *testing.T) {
	a := newChatApp(t)
	if _, err := a.ToolsPage.CallTool("content-store__createStore", `{"name":"Papers"}`); err != nil {
		t.Fatal(err)
	}
	pdf, err := os.ReadFile("../../builtin/contentstore/testdata/pdf/report.pdf")
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.ToolsPage.AddDocument("papers", "../../report.pdf", base64.StdEncoding.EncodeToString(pdf), "add-1")
	if err != nil || res.IsError {
		t.Fatalf("AddDocument = %+v, %v", res, err)
	}
	if !strings.Contains(res.Content[0].Text, `"added": 1`) || !strings.Contains(res.Content[0].Text, `"file": "report.pdf"`) {
		t.Fatalf("result %s", res.Content[0].Text)
	}
	if res, err := a.ToolsPage.AddDocument("papers", "x.pdf", "%%%", ""); err != nil || !res.IsError ||
		!strings.Contains(res.Content[0].Text, "data must be the file's bytes in base64") {
		t.Fatalf("bad base64: %+v, %v", res, err)
	}
}

// TestAddDocumentSendsBytes: a file added from the window is read by the
// content store from its bytes (Latin-1 here, which the page's
// file.text() used to turn into U+FFFD), errors name the file, not a
// temporary copy, and the same file added again replaces its document.
func TestAddDocumentSendsBytes(t *testing.T) {
	a := newChatApp(t)
	if _, err := a.ToolsPage.CallTool("content-store__createStore", `{"name":"Notes"}`); err != nil {
		t.Fatal(err)
	}
	for i, text := range []string{"caf\xe9 cr\xe8me\n", "caf\xe9 noir\n"} {
		res, err := a.ToolsPage.AddDocument("notes", "menu.txt", base64.StdEncoding.EncodeToString([]byte(text)), "")
		if err != nil || res.IsError || strings.Contains(res.Content[0].Text, `"replaced": true`) != (i == 1) {
			t.Fatalf("add %d = %+v, %v", i, res, err)
		}
	}
	res, err := a.ToolsPage.CallTool("content-store__listContent", `{"storeId":"notes"}`)
	if err != nil || !strings.Contains(res.Content[0].Text, `"total": 1`) {
		t.Fatalf("listContent = %+v, %v", res, err)
	}
	res, err = a.ToolsPage.CallTool("content-store__search", `{"query":"café noir"}`)
	if err != nil || !strings.Contains(res.Content[0].Text, "<mark>café</mark> <mark>noir</mark>") {
		t.Fatalf("search = %+v, %v", res, err)
	}
	res, err = a.ToolsPage.AddDocument("notes", "empty.md", "", "")
	if err != nil || !res.IsError || res.Content[0].Text != "empty.md: no text (the file is empty)" {
		t.Fatalf("empty file = %+v, %v", res, err)
	}
}

// TestCancelDocument: CancelDocument cancels the add it names while it
// runs, and says when there is none.
func TestCancelDocument(t *testing.T) {
	a := &ToolsPage{}
	ctx, cancel := context.WithCancel(t.Context())
	release := documentAdds.hold("add-7", cancel)
	if !a.CancelDocument("add-7") || ctx.Err() == nil {
		t.Fatal("the running add was not cancelled")
	}
	release()
	if a.CancelDocument("add-7") {
		t.Fatal("an add that ended was cancelled")
	}
}
