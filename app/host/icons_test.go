package host

import (
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// TestIconsShowOnlyWhatSrcPicked: the window gets an icon only after a
// view picked it (Src), so it never has a server's arbitrary URL fetched.
func TestIconsShowOnlyWhatSrcPicked(t *testing.T) {
	h := open(t)
	const png = "data:image/png;base64,iVBORw0KGgo="
	if _, err := h.Icons.DataURL(t.Context(), png); err == nil {
		t.Fatal("an icon no view picked was shown")
	}
	src := h.Icons.Src([]mcp.Icon{{Src: "http://example.invalid/a.png"}, {Src: png}})
	if src != png {
		t.Fatalf("Src = %q, want the data: icon (http is never shown)", src)
	}
	if got, err := h.Icons.DataURL(t.Context(), src); err != nil || got != png {
		t.Fatalf("DataURL = %q, %v", got, err)
	}
}
