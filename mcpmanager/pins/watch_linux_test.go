package pins

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// TestVersionAfterTheFolderGoes: a watch whose folder is removed ends, and
// the version follows the file again by looking at it every time.
func TestVersionAfterTheFolderGoes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	path := filepath.Join(dir, "pins.json")
	s := Open(path, Options{})
	t.Cleanup(func() { s.Close() })
	s.Screen("a", []mcp.Tool{tool("x", "one")}) // makes the folder
	s.Version()
	w := s.w
	if w == nil {
		t.Fatal("no watch of the folder")
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	select {
	case <-w.done:
	case <-time.After(10 * time.Second):
		t.Fatal("the watch did not end when its folder went")
	}
	v := s.Version()
	other := Open(path, Options{})
	other.Screen("a", []mcp.Tool{tool("x", "one")})
	if s.Version() == v {
		t.Fatal("the file made again by another store did not move the version at once")
	}
}
