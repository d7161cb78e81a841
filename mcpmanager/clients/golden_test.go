package clients

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// golden compares got with testdata/<name>, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if string(got) != string(want) {
		t.Errorf("%s differs (run go test -update if the change is intended)\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// sample is one app file under testdata/in and the app's file it stands for.
type sample struct {
	in    string
	style config.ClientStyle
	key   []string
	move  string // a server to move out, "" for none
}

var samples = []sample{
	{"claude-desktop.json", config.StyleMCPServers, []string{"mcpServers"}, "github"},
	{"claude-code.json", config.StyleTyped, []string{"mcpServers"}, "everything"},
	{"claude-code.json", config.StyleTyped, []string{"projects", "/home/me/proj", "mcpServers"}, ""},
	{"vscode.jsonc", config.StyleTyped, []string{"servers"}, "memory"},
	{"zed.jsonc", config.StyleZed, []string{"context_servers"}, ""},
	{"opencode.jsonc", config.StyleOpencode, []string{"mcp"}, "filesystem"},
	{"empty-servers.json", config.StyleMCPServers, []string{"mcpServers"}, ""},
	{"gemini-nonewline.json", config.StyleMCPServers, []string{"mcpServers"}, ""},
	{"codex.toml", config.StyleCodex, []string{"mcp_servers"}, "github"},
	{"codex-no-newline.toml", config.StyleCodex, []string{"mcp_servers"}, ""},
	{"goose.yaml", config.StyleGoose, []string{"extensions"}, "memory"},
	{"goose-empty.yaml", config.StyleGoose, []string{"extensions"}, ""},
	{"continue.yaml", config.StyleContinue, []string{"mcpServers"}, "memory"},
}

func (s sample) file() config.ClientFile {
	return config.ClientFile{Path: filepath.Join("testdata", "in", s.in), Scope: "user", Key: s.key, Style: s.style}
}

func (s sample) name() string {
	if len(s.key) > 1 {
		return s.in + ".local"
	}
	return s.in
}

var testEntry = Entry{Command: "/usr/bin/switchboard", Args: []string{"serve", "--client", "test"}}

func read(t *testing.T, f config.ClientFile, data []byte) *Doc {
	t.Helper()
	d, err := Read(f, data)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// Connecting adds only the entry; connecting again changes nothing;
// disconnecting gives back the very bytes the file had.
func TestConnectDisconnectRoundTrip(t *testing.T) {
	for _, s := range samples {
		t.Run(s.name(), func(t *testing.T) {
			orig, err := os.ReadFile(s.file().Path)
			if err != nil {
				t.Fatal(err)
			}
			d := read(t, s.file(), orig)
			created := !d.HasContainer()
			before, _ := d.Servers()
			out, err := d.Add(testEntry)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, filepath.Join("connected", s.name()), out)
			d2 := read(t, s.file(), out)
			e, ok := d2.Connected()
			if !ok || e.Command != testEntry.Command || strings.Join(e.Args, " ") != "serve --client test" {
				t.Fatalf("the connected file's entry reads back as %+v, %v", e, ok)
			}
			after, _ := d2.Servers()
			if len(after) != len(before)+1 {
				t.Errorf("servers: %d before, %d after connect; want one more", len(before), len(after))
			}
			again, err := d2.Add(testEntry)
			if err != nil || string(again) != string(out) {
				t.Errorf("connecting twice changed the file (%v):\n%s", err, again)
			}
			back, err := d2.Remove(EntryName, created)
			if err != nil {
				t.Fatal(err)
			}
			if string(back) != string(orig) {
				t.Errorf("disconnect did not restore the file\n--- got\n%s\n--- want\n%s", back, orig)
			}
		})
	}
}

// Moving a server out and connecting gives the expected file;
// disconnecting and putting the server back where it was gives the file
// as it was, byte for byte.
func TestMoveOut(t *testing.T) {
	for _, s := range samples {
		if s.move == "" {
			continue
		}
		t.Run(s.name(), func(t *testing.T) {
			orig, _ := os.ReadFile(s.file().Path)
			d := read(t, s.file(), orig)
			var moved Server
			ss, _ := d.Servers()
			for _, srv := range ss {
				if srv.Name == s.move {
					moved = srv
				}
			}
			if moved.Command == "" || moved.Text == "" {
				t.Fatalf("server %s not read: %+v", s.move, moved)
			}
			out, slot, err := d.Take(s.move)
			if err != nil {
				t.Fatal(err)
			}
			out, err = read(t, s.file(), out).Add(testEntry)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, filepath.Join("moved", s.name()), out)
			if read(t, s.file(), out).Has(s.move) {
				t.Errorf("%s is still in the file", s.move)
			}
			back, err := read(t, s.file(), out).Remove(EntryName, false)
			if err != nil {
				t.Fatal(err)
			}
			back, err = read(t, s.file(), back).Put(s.move, moved.Text, slot)
			if err != nil {
				t.Fatal(err)
			}
			if string(back) != string(orig) {
				t.Errorf("the server did not return where it was\n--- got\n%s\n--- want\n%s", back, orig)
			}
			got, _ := read(t, s.file(), back).Servers()
			var again Server
			for _, srv := range got {
				if srv.Name == s.move {
					again = srv
				}
			}
			if again.Command != moved.Command || strings.Join(again.Args, " ") != strings.Join(moved.Args, " ") || len(again.Env) != len(moved.Env) {
				t.Errorf("returned server reads %+v, was %+v", again, moved)
			}
		})
	}
}

// A file that cannot be parsed is refused with its line and column.
func TestInvalidRefused(t *testing.T) {
	for _, tt := range []struct {
		in    string
		style config.ClientStyle
		want  string
	}{
		{"bad.json", config.StyleMCPServers, "bad.json:4:5: "},
		{"bad.toml", config.StyleCodex, "bad.toml:2:"},
		{"bad.yaml", config.StyleGoose, "bad.yaml: line 3: "},
	} {
		t.Run(tt.in, func(t *testing.T) {
			f := config.ClientFile{Path: filepath.Join("testdata", "in", tt.in), Key: []string{"x"}, Style: tt.style}
			data, _ := os.ReadFile(f.Path)
			_, err := Read(f, data)
			if !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "fix the file") {
				t.Errorf("got %v, want ErrSyntax naming %q", err, tt.want)
			}
		})
	}
}

// A missing file becomes one holding only the entry, in the app's shape.
func TestConnectEmptyFile(t *testing.T) {
	for _, s := range []sample{
		{"x.json", config.StyleTyped, []string{"mcpServers"}, ""},
		{"x.toml", config.StyleCodex, []string{"mcp_servers"}, ""},
		{"x.yaml", config.StyleGoose, []string{"extensions"}, ""},
		{"y.yaml", config.StyleContinue, []string{"mcpServers"}, ""},
	} {
		out, err := read(t, s.file(), nil).Add(testEntry)
		if err != nil {
			t.Fatal(err)
		}
		golden(t, filepath.Join("new", s.in), out)
		if _, ok := read(t, s.file(), out).Connected(); !ok {
			t.Errorf("%s: the new file has no entry:\n%s", s.in, out)
		}
	}
}

// Codex's servers written as one inline table cannot take a section of
// Switchboard's: connect says how to write them instead of writing a
// file Codex refuses to load.
func TestCodexInlineTableRefused(t *testing.T) {
	f := config.ClientFile{Path: "config.toml", Key: []string{"mcp_servers"}, Style: config.StyleCodex}
	for _, in := range []string{
		"model = \"o3\"\nmcp_servers = { memory = { command = \"npx\" } }\n",
		"mcp_servers = {}\n",
	} {
		_, err := read(t, f, []byte(in)).Add(testEntry)
		if !errors.Is(err, ErrShape) || !strings.Contains(err.Error(), "[mcp_servers.NAME] section of its own") {
			t.Errorf("%q: err = %v, want ErrShape saying what to write", in, err)
		}
	}
	// Sections, and keys of an [mcp_servers] table, still take it.
	for _, in := range []string{"[mcp_servers]\nmemory = { command = \"npx\" }\n", "[mcp_servers.memory]\ncommand = \"npx\"\n"} {
		out, err := read(t, f, []byte(in)).Add(testEntry)
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		var v map[string]any
		if err := toml.Unmarshal(out, &v); err != nil {
			t.Errorf("%q: the file written is not TOML: %v\n%s", in, err, out)
		}
	}
}
