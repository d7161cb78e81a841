package clients

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
	"gopkg.in/yaml.v3"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// realFiles are other people's config files (testdata/real, sources in
// its README) as each app keeps them.
var realFiles = []struct {
	file  string
	style config.ClientStyle
	key   string
}{
	{"claude-desktop.json", config.StyleMCPServers, "mcpServers"},
	{"cursor-jsonc.json", config.StyleMCPServers, "mcpServers"},
	{"vscode.json", config.StyleTyped, "servers"},
	{"windsurf.json", config.StyleMCPServers, "mcpServers"},
	{"zed.json", config.StyleZed, "context_servers"},
	{"gemini.json", config.StyleMCPServers, "mcpServers"},
	{"codex.toml", config.StyleCodex, "mcp_servers"},
	{"goose.yaml", config.StyleGoose, "extensions"},
	{"goose-remote.yaml", config.StyleGoose, "extensions"},
	{"continue.yaml", config.StyleContinue, "mcpServers"},
	{"lmstudio.json", config.StyleMCPServers, "mcpServers"},
	{"opencode.json", config.StyleOpencode, "mcp"},
	{"opencode-remote.jsonc", config.StyleOpencode, "mcp"},
	{"roo.json", config.StyleMCPServers, "mcpServers"},
	{"kiro.json", config.StyleMCPServers, "mcpServers"},
}

// parses checks that data is still a file of its syntax.
func parses(t *testing.T, style config.ClientStyle, data []byte) {
	t.Helper()
	var v any
	var err error
	switch style.Syntax() {
	case "toml":
		err = toml.Unmarshal(data, &v)
	case "yaml":
		err = yaml.Unmarshal(data, &v)
	default:
		_, err = config.ParseJSONC("x.json", data)
		if err == nil && !bytes.Contains(data, []byte("//")) && !bytes.Contains(data, []byte("/*")) && !bytes.Contains(data, []byte(",\n}")) {
			err = json.Unmarshal(data, &v) // a strict JSON file stays strict JSON
		}
	}
	if err != nil {
		t.Fatalf("the file no longer parses: %v\n%s", err, data)
	}
}

// commentLines are the lines of data that hold only a comment.
func commentLines(data []byte) []string {
	var out []string
	for line := range strings.SplitSeq(string(data), "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "//") || strings.HasPrefix(t, "/*") || strings.HasPrefix(t, "#") {
			out = append(out, t)
		}
	}
	return out
}

// Connect --move then disconnect on real files: every server the app
// can run moves out and Switchboard's entry goes in (comments on lines of
// their own stay, the file still parses), then Switchboard's entry goes
// and each server returns where it was: the very bytes the file had.
func TestRealFilesMoveRoundTrip(t *testing.T) {
	for _, rf := range realFiles {
		t.Run(rf.file, func(t *testing.T) {
			f := config.ClientFile{Path: filepath.Join("testdata", "real", rf.file), Scope: "user", Key: []string{rf.key}, Style: rf.style}
			orig, err := os.ReadFile(f.Path)
			if err != nil {
				t.Fatal(err)
			}
			connected, err := read(t, f, orig).Add(testEntry)
			if err != nil {
				t.Fatal(err)
			}
			parses(t, rf.style, connected)
			if back, err := read(t, f, connected).Remove(EntryName, false); err != nil || !bytes.Equal(back, orig) {
				t.Fatalf("connect then disconnect is not the file it was (%v):\n%s", err, back)
			}

			servers, _ := read(t, f, orig).Servers()
			type taken struct {
				name, text string
				slot       Slot
			}
			var moved []taken
			out := orig
			for _, s := range servers {
				if s.AppOnly != "" {
					continue // stays in the app's file
				}
				next, slot, err := read(t, f, out).Take(s.Name)
				if err != nil {
					t.Fatal(err)
				}
				moved = append(moved, taken{s.Name, s.Text, slot})
				out = next
				parses(t, rf.style, out)
			}
			if len(moved) == 0 {
				t.Fatal("no server to move")
			}
			if out, err = read(t, f, out).Add(testEntry); err != nil {
				t.Fatal(err)
			}
			parses(t, rf.style, out)
			for _, c := range commentLines(orig) {
				if !strings.Contains(string(out), c) && !slices.ContainsFunc(moved, func(m taken) bool { return strings.Contains(m.text+m.slot.Trail, c) }) {
					t.Errorf("the comment %q is gone from the file, and went with no server", c)
				}
			}
			if out, err = read(t, f, out).Remove(EntryName, false); err != nil {
				t.Fatal(err)
			}
			for i := len(moved) - 1; i >= 0; i-- {
				if out, err = read(t, f, out).Put(moved[i].name, moved[i].text, moved[i].slot); err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Equal(out, orig) {
				t.Errorf("after move and disconnect the file differs:\n%s", lineDiffForTest(string(orig), string(out)))
			}
		})
	}
}

// lineDiffForTest shows the first lines where two texts differ.
func lineDiffForTest(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < max(len(al), len(bl)); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return fmt.Sprintf("line %d:\n- %s\n+ %s\n--- got\n%s", i+1, x, y, b)
		}
	}
	return ""
}
