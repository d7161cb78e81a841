package gui

import (
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
	res, err := a.ToolsPage.AddDocument("papers", "../../report.pdf", base64.StdEncoding.EncodeToString(pdf))
	if err != nil || res.IsError {
		t.Fatalf("AddDocument = %+v, %v", res, err)
	}
	if !strings.Contains(res.Content[0].Text, `"added": 1`) && !strings.Contains(res.Content[0].Text, `"added":1`) {
		t.Fatalf("result %s", res.Content[0].Text)
	}
	if _, err := a.ToolsPage.AddDocument("papers", "x.pdf", "%%%"); err == nil {
		t.Fatal("bad base64 accepted")
	}
}
