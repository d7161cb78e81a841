package cli

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// doc.go's "Commands in detail" is written by hand beside the command tree
// that --help prints (and that the README shows through Example_help); this
// test keeps the two naming the same commands.

// docCommand matches one command line of the list: "switchboard", then the
// command's words (a word may be "enable|disable" or an optional "[list]").
var docCommand = regexp.MustCompile(`^//\tswitchboard((?: \[?[a-z][a-z-]*(?:\|[a-z][a-z-]*)*\]?)*)`)

// documentedCommands returns the command paths doc.go's list names.
func documentedCommands(t *testing.T) map[string]bool {
	t.Helper()
	b, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	paths := map[string]bool{}
	for _, line := range strings.Split(string(b), "\n") {
		m := docCommand.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		prefixes := []string{"switchboard"}
		for _, w := range strings.Fields(m[1]) {
			optional := strings.HasPrefix(w, "[")
			var next []string
			for _, p := range prefixes {
				if optional {
					next = append(next, p)
				}
				for _, alt := range strings.Split(strings.Trim(w, "[]"), "|") {
					next = append(next, p+" "+alt)
				}
			}
			prefixes = next
		}
		for _, p := range prefixes {
			paths[p] = true
		}
	}
	return paths
}

// commandPaths returns every runnable command of the tree, by path.
func commandPaths(c *Command, path string, out *[]string) {
	if c.Run != nil || len(c.Subs) == 0 {
		*out = append(*out, path)
	}
	for _, s := range c.Subs {
		commandPaths(s, path+" "+s.Name, out)
	}
}

func TestDocListsEveryCommand(t *testing.T) {
	documented := documentedCommands(t)
	var tree []string
	commandPaths(root(), "switchboard", &tree)
	for _, p := range tree {
		if !documented[p] {
			t.Errorf("doc.go's Commands in detail does not list %q (switchboard --help does)", p)
		}
	}
	for p := range documented {
		if p != "switchboard" && !slices.Contains(tree, p) {
			t.Errorf("doc.go's Commands in detail lists %q, which is no command of switchboard --help", p)
		}
	}
}
