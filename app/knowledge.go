package app

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// MaxDocument bounds a document the Knowledge page sends as bytes.
const MaxDocument = 64 << 20

// AddDocument adds a file the page read as bytes (PDFs and other binary
// formats the browser cannot read as text) to a content store: it is
// written under its own name to a private temporary folder, added by path
// through the content store's addContent tool, and removed again.
func (a *ToolsPage) AddDocument(storeID, name, dataBase64 string) (CallResult, error) {
	name = filepath.Base(filepath.Clean("/" + name)) // a name, never a path
	if name == "/" || name == "." {
		return CallResult{}, fmt.Errorf("the document has no file name")
	}
	if base64.StdEncoding.DecodedLen(len(dataBase64)) > MaxDocument {
		return CallResult{}, fmt.Errorf("%s is larger than %d MB; add it from a folder with the model's addContent path instead", name, MaxDocument>>20)
	}
	data, err := base64.StdEncoding.DecodeString(dataBase64)
	if err != nil {
		return CallResult{}, fmt.Errorf("%s: the page sent unreadable data: %w", name, err)
	}
	dir, err := os.MkdirTemp("", "switchboard-doc-")
	if err != nil {
		return CallResult{}, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		return CallResult{}, err
	}
	args, _ := json.Marshal(map[string]string{"storeId": storeID, "path": path})
	return a.CallTool("content-store__addContent", string(args))
}
