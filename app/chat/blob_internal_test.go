package chat

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/png"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/chat/provider"
)

// TestBlobResourceText: an embedded blob resource that is text a server
// sent base64-encoded reaches the model as text, like a text resource:
// text-like MIME types (text/*, JSON, XML, YAML, +json/+xml suffixes, with
// parameters), or no type and no NUL byte; valid UTF-8 only. Anything
// else keeps its one-line description.
func TestBlobResourceText(t *testing.T) {
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	const notes = "# Notes\nThe secret word is PINEAPPLE.\n"
	for _, c := range []struct {
		name, mime, blob, want string
	}{
		{"markdown", "text/markdown", b64(notes), "[resource file:///notes.md]\n" + notes},
		{"plain with charset", "text/plain; charset=utf-8", b64("héllo"), "[resource file:///notes.md]\nhéllo"},
		{"JSON", "application/json", b64(`{"a":1}`), "[resource file:///notes.md]\n" + `{"a":1}`},
		{"a +json type", "application/vnd.api+json", b64(`{"a":1}`), "[resource file:///notes.md]\n" + `{"a":1}`},
		{"YAML", "application/yaml", b64("a: 1\n"), "[resource file:///notes.md]\na: 1\n"},
		{"XML in capitals", "Application/XML", b64("<a/>"), "[resource file:///notes.md]\n<a/>"},
		{"no type, text", "", b64("plain words"), "[resource file:///notes.md]\nplain words"},
		{"byte-order mark", "text/csv", b64("\uFEFFa,b\n1,2"), "[resource file:///notes.md]\na,b\n1,2"},
		{"unpadded base64", "text/plain", base64.RawStdEncoding.EncodeToString([]byte("ab")), "[resource file:///notes.md]\nab"},
		{"no type, binary", "", b64("PK\x03\x04\x00\x00"), "[resource file:///notes.md, , binary]"},
		{"text type, not UTF-8", "text/plain", b64("caf\xe9"), "[resource file:///notes.md, text/plain, binary]"},
		{"octet-stream", "application/octet-stream", b64("plain words"), "[resource file:///notes.md, application/octet-stream, binary]"},
		{"PNG", "image/png", b64("\x89PNG\r\n"), "[resource file:///notes.md, image/png, binary]"},
		{"not base64", "text/plain", "%%%", "[resource file:///notes.md, text/plain, binary]"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := &mcp.CallToolResult{Content: []mcp.Content{mcp.EmbeddedResource{Type: "resource",
				Resource: mcp.BlobResourceContents{URI: "file:///notes.md", MIMEType: c.mime, Blob: c.blob}}}}
			if got := resultText(res); got != c.want {
				t.Errorf("the model reads %q, want %q", got, c.want)
			}
		})
	}
}

// TestAttachResourceImages: an embedded blob resource of an image type goes
// to a model that takes images as an image, its line naming the resource;
// without images, or when it cannot be an image (SVG), it is described —
// SVG as the XML text it is.
func TestAttachResourceImages(t *testing.T) {
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewRGBA(image.Rect(0, 0, 4, 4))); err != nil {
		t.Fatal(err)
	}
	pngData := base64.StdEncoding.EncodeToString(buf.Bytes())
	svg := `<svg xmlns="http://www.w3.org/2000/svg"/>`
	content := []mcp.Content{
		mcp.NewTextContent("a screenshot"),
		mcp.EmbeddedResource{Type: "resource", Resource: mcp.BlobResourceContents{URI: "shot://1", MIMEType: "image/png", Blob: pngData}},
		mcp.EmbeddedResource{Type: "resource", Resource: mcp.BlobResourceContents{URI: "shot://2", MIMEType: "image/svg+xml", Blob: base64.StdEncoding.EncodeToString([]byte(svg))}},
	}
	for _, c := range []struct {
		name     string
		md       media
		images   []provider.Image
		wantText string
	}{
		{"images on", media{images: true}, []provider.Image{{MIMEType: "image/png", Data: pngData}},
			"a screenshot\n[resource shot://1: image 1: image/png, attached]\n[resource shot://2]\n" + svg},
		{"images off", media{audio: true}, nil,
			"a screenshot\n[resource shot://1, image/png, binary]\n[resource shot://2]\n" + svg},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := mcp.CallToolResult{Content: content}
			imgs, _ := attach(&res, c.md)
			if len(imgs) != len(c.images) || len(imgs) == 1 && imgs[0] != c.images[0] {
				t.Errorf("images %+v, want %+v", imgs, c.images)
			}
			if got := resultText(&res); got != c.wantText {
				t.Errorf("text\n%s\nwant\n%s", got, c.wantText)
			}
			if _, ok := content[1].(mcp.EmbeddedResource); !ok || strings.Contains(resultText(&mcp.CallToolResult{Content: content}), "attached") {
				t.Fatal("attach changed the caller's content")
			}
		})
	}
}
