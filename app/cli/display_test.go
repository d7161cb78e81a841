package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"text/tabwriter"
)

// TestServersListAlignsWideNames: 'servers list' keeps its columns in
// line after names of wide (CJK), combining (a decomposed é) or accented
// characters: the TRANSPORT column starts at the same terminal column on
// every line.
func TestServersListAlignsWideNames(t *testing.T) {
	dir := t.TempDir()
	names := []string{"数据库", "cafe\u0301-notes", "my.server name-ü", "plain"}
	servers := map[string]any{}
	for _, n := range names {
		servers[n] = map[string]any{"command": "true"}
	}
	cfg, _ := json.Marshal(map[string]any{"mcpServers": servers})
	if err := os.WriteFile(filepath.Join(dir, "config.json"), cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runIn(t, dir, "servers", "list")
	if code != 0 {
		t.Fatalf("servers list = %d %s", code, errOut)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	col := -1
	for _, l := range lines {
		at := strings.Index(l, "TRANSPORT")
		if at < 0 {
			at = strings.Index(l, "stdio")
		}
		if at < 0 {
			continue
		}
		if c := displayWidth(l[:at]); col < 0 {
			col = c
		} else if c != col {
			t.Errorf("column at %d, want %d:\n%s", c, col, out)
		}
	}
	if col < 0 {
		t.Fatalf("no table:\n%s", out)
	}
}

// TestWriteTableAsTabwriter: with one-column-wide characters only, a
// table is printed as text/tabwriter printed it (padding 2, the last
// column as it is), empty cells too.
func TestWriteTableAsTabwriter(t *testing.T) {
	header := []string{"NAME", "TRANSPORT", "TAGS", "COMMAND / URL"}
	for _, rows := range [][][]string{
		{{"everything", "stdio", "", "npx -y x"}, {"a", "http", "t1,t2", "https://example.com/mcp"}},
		{{"", "", "", ""}},
		{{"naïve", "stdio", "ü", "x"}},
	} {
		var want strings.Builder
		tw := tabwriter.NewWriter(&want, 0, 4, 2, ' ', 0)
		for _, l := range append([][]string{header}, rows...) {
			_, _ = tw.Write([]byte(strings.Join(l, "\t") + "\n"))
		}
		_ = tw.Flush()
		var got strings.Builder
		if err := writeTable(&got, header, rows); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("got\n%q\nwant (tabwriter)\n%q", got.String(), want.String())
		}
	}
}

func TestDisplayWidth(t *testing.T) {
	for s, want := range map[string]int{"abc": 3, "ü": 1, "cafe\u0301": 4, "数据库": 6, "ｆｕｌｌ": 8, "한국": 4, "a\u200bb": 2, "🙂": 2} {
		if got := displayWidth(s); got != want {
			t.Errorf("displayWidth(%q) = %d, want %d", s, got, want)
		}
	}
}
