// Command testmodel writes a random-weights Qwen3 GGUF (package testmodel)
// for tests outside Go: the end-to-end test serves it as a catalog model
// from a local file server, downloads it through the window and chats with
// it. The tokenizer and chat template come from llama.cpp's source tree:
// -src, else $SWITCHBOARD_LLAMA_SRC, else the tree 'make test-llama'
// caches.
//
//	go run ./app/localmodel/testmodel/cmd/testmodel -o tiny.gguf
package main

import (
	"cmp"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/switchboard-app/switchboard/app/localmodel"
	"github.com/switchboard-app/switchboard/app/localmodel/testmodel"
)

func main() {
	out := flag.String("o", "", "the GGUF file to write")
	src := flag.String("src", "", "llama.cpp's source tree (default $SWITCHBOARD_LLAMA_SRC, else the cached build's)")
	shape := flag.String("shape", "tiny", "tiny, qwen3-0.6b or qwen3-1.7b")
	seed := flag.Uint64("seed", 1, "the weights' random seed")
	flag.Parse()
	shapes := map[string]testmodel.Shape{"tiny": testmodel.Tiny, "qwen3-0.6b": testmodel.Qwen3_06B, "qwen3-1.7b": testmodel.Qwen3_17B}
	s, ok := shapes[*shape]
	if *out == "" || !ok || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: testmodel -o FILE.gguf [-shape tiny|qwen3-0.6b|qwen3-1.7b] [-src LLAMA_SRC] [-seed N]")
		os.Exit(2)
	}
	dir := cmp.Or(*src, os.Getenv("SWITCHBOARD_LLAMA_SRC"), cachedSrc())
	if err := testmodel.Write(*out, dir, s, *seed); err != nil {
		fmt.Fprintf(os.Stderr, "testmodel: %v (llama.cpp's source: %s; 'make test-llama' caches it)\n", err, dir)
		os.Exit(1)
	}
}

// cachedSrc is where the Makefile's LLAMA_DIR keeps llama.cpp's source.
func cachedSrc() string {
	dir, _ := localmodel.RuntimeCacheDir()
	return filepath.Join(dir, "src")
}
