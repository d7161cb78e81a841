package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// renderParse prints everything Parse returned, for golden files.
func renderParse(f *File, err error) string {
	var b strings.Builder
	kind := "none"
	var ve *ValidationError
	if errors.As(err, &ve) {
		kind = ve.Kind.Error()
	} else if err != nil {
		kind = "unexpected " + fmt.Sprintf("%T", err)
	}
	fmt.Fprintf(&b, "error kind: %s\n", kind)
	if err != nil {
		fmt.Fprintf(&b, "error:\n%s\n", indent(err.Error(), "  "))
	}
	if f == nil {
		b.WriteString("file: nil\n")
		return b.String()
	}
	fmt.Fprintf(&b, "format: %s\n", f.Format)
	fmt.Fprintf(&b, "entries:\n")
	for _, e := range f.Entries {
		renderEntry(&b, e, "  ")
	}
	if len(f.Inputs) > 0 {
		in, _ := json.Marshal(f.Inputs)
		fmt.Fprintf(&b, "inputs: %s\n", in)
	}
	if ids := f.InputIDs(); len(ids) > 0 {
		fmt.Fprintf(&b, "input ids: %q\n", ids)
	}
	for _, p := range f.Projects {
		fmt.Fprintf(&b, "project %s:\n", p.Path)
		for _, e := range p.Entries {
			renderEntry(&b, e, "  ")
		}
		for _, pr := range p.Problems {
			fmt.Fprintf(&b, "  problem: %s\n", pr)
		}
	}
	return b.String()
}

func renderEntry(b *strings.Builder, e Entry, pre string) {
	state := "valid"
	if !e.Valid() {
		state = "INVALID"
	}
	fmt.Fprintf(b, "%s%q %s at %s %d:%d\n", pre, e.Name, state, e.Path, e.Line, e.Col)
	js, err := json.Marshal(e.Server)
	if err != nil {
		js = []byte("marshal error: " + err.Error())
	}
	fmt.Fprintf(b, "%s  %s\n", pre, js)
	for _, p := range e.Problems {
		fmt.Fprintf(b, "%s  - %s\n", pre, p)
	}
}

func TestParseGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "parse", "*.json*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	for _, path := range files {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f, err := Parse(name, data)
			golden(t, filepath.Join("parse", strings.TrimSuffix(name, filepath.Ext(name))+".golden"), renderParse(f, err))
		})
	}
}
