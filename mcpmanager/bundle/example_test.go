package bundle_test

import (
	"archive/zip"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/switchboard-app/switchboard/mcpmanager/bundle"
)

// A bundle from file to server entry: opened and validated, checked
// against this machine, unpacked under root, and turned into the entry
// config.json keeps. A sensitive value is never written: the caller passes
// a ${secret:...} placeholder the keyring resolves when the server starts.
func Example() {
	dir, _ := os.MkdirTemp("", "bundle-example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "weather.mcpb")
	writeZip(path, map[string]string{
		"manifest.json": `{"manifest_version": "0.3", "name": "weather", "version": "1.2.0",
			"description": "Forecasts", "author": {"name": "Example"},
			"server": {"type": "node", "entry_point": "server/index.js",
				"mcp_config": {"command": "node", "args": ["${__dirname}/server/index.js"],
					"env": {"API_KEY": "${user_config.api_key}"}}},
			"user_config": {"api_key": {"type": "string", "title": "API key", "sensitive": true, "required": true}}}`,
		"server/index.js": "// the server",
	})

	b, err := bundle.Open(path) // manifest read and validated
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := b.Manifest.Compatible(context.Background(), ""); err != nil { // platform and runtimes
		fmt.Println(err)
		return
	}
	root := filepath.Join(dir, "bundles")
	unpacked, err := b.Unpack(root) // root/<name>/<version>/, refusing escapes, links, oversize
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := b.Manifest.Entry(bundle.UserVars(unpacked), bundle.Values{"api_key": {"${secret:weather.api_key}"}})
	if err != nil { // a ${secret:…} or ${env:…} the manifest itself put in
		fmt.Println(err)
		return
	}
	fmt.Println(s.Name, s.Command, strings.TrimPrefix(s.Args[0], root))
	fmt.Println(s.Env["API_KEY"])
	// Output:
	// weather node /weather/1.2.0/server/index.js
	// ${secret:weather.api_key}
}

// writeZip writes files into a zip archive at path.
func writeZip(path string, files map[string]string) {
	f, err := os.Create(path)
	if err != nil {
		panic(err)
	}
	defer f.Close()
	w := zip.NewWriter(f)
	for name, body := range files {
		fw, err := w.Create(name)
		if err != nil {
			panic(err)
		}
		_, _ = fw.Write([]byte(body))
	}
	if err := w.Close(); err != nil {
		panic(err)
	}
}
