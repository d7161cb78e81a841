package config

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse checks that Parse never panics, that its results are
// consistent, and that every server it accepts survives a save and load.
func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "parse", "*.json*"))
	for _, p := range seeds {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{
		``, `{`, `[]`, `null`, `{"mcpServers": null}`, `{"servers": 1}`, `{"mcp": {"servers": []}}`,
		`{"projects": {"/": {"mcpServers": {"a": 1}}}}`, "\xef\xbb\xbf/*", `{"a": {"url": "http://[::1"}}`,
		`{"mcpServers": {"a": {"command": "x", "restart": {"delayMs": 1e400}}}}`,
		`{"mcpServers": {"\u00e9\ud800": {"command": "\xff"}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		stripped, open := stripJSONC(data)
		if len(stripped) != len(data) {
			t.Fatalf("stripJSONC changed the length: %d → %d", len(data), len(stripped))
		}
		if open >= len(data) {
			t.Fatalf("open comment offset %d past the end", open)
		}

		file, err := ParseContext(context.Background(), "fuzz.json", data)
		var ve *ValidationError
		if err != nil && (!errors.As(err, &ve) || len(ve.Problems) == 0 || ve.Error() == "") {
			t.Fatalf("error %T %q is not a *ValidationError with problems", err, err)
		}
		if file == nil {
			if err == nil {
				t.Fatal("nil file without an error")
			}
			if errors.Is(err, ErrInvalid) {
				t.Fatalf("nil file with ErrInvalid: %v", err)
			}
			return
		}
		if (err != nil) != hasErrors(file.Problems) {
			t.Fatalf("err = %v but problems = %v", err, file.Problems)
		}
		valid := 0
		for _, e := range file.Entries {
			if e.Valid() {
				valid++
			}
		}
		if valid != len(file.Servers) {
			t.Fatalf("%d valid entries but %d servers", valid, len(file.Servers))
		}

		// Everything accepted must save and load back unchanged.
		cfg := &Config{Servers: file.Servers}
		out, err := json.Marshal(cfg)
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		back, err := parseApp(t.Context(), "config.json", out)
		if err != nil {
			t.Fatalf("accepted servers do not load back: %v\n%s", err, out)
		}
		if len(back.Servers) != len(file.Servers) {
			t.Fatalf("%d servers came back, want %d", len(back.Servers), len(file.Servers))
		}
		for i, s := range file.Servers {
			if back.Servers[i].Name != s.Name {
				t.Fatalf("server %d is %q, want %q", i, back.Servers[i].Name, s.Name)
			}
			if d := Diff(s, back.Servers[i]); len(d) != 0 {
				t.Fatalf("server %q changed in a round trip: %v\n%s", s.Name, d, out)
			}
		}
		_ = Plan(back, file)
	})
}
