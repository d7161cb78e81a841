package cli

import (
	"encoding/json"
	"fmt"
	"github.com/switchboard-app/switchboard/app/host"
	"strings"
)

// scriptOf is the script of a run_script call (code mode).
func scriptOf(c *host.TurnCall) (string, bool) {
	if c.Name != host.RunScriptName || c.Parent != "" {
		return "", false
	}
	var args struct {
		Script string `json:"script"`
	}
	if json.Unmarshal([]byte(c.Args), &args) != nil || args.Script == "" {
		return "", false
	}
	return args.Script, true
}

// scriptEnd prints what a finished script printed and returned (its calls
// were printed as they ran), or the sentence that ended it.
func (s *streamPrinter) scriptEnd(c *host.TurnCall) {
	if _, ok := scriptOf(c); !ok || len(c.Result) == 0 {
		return
	}
	var res struct {
		StructuredContent *host.ScriptResult `json:"structuredContent"`
	}
	if json.Unmarshal(c.Result, &res) != nil || res.StructuredContent == nil {
		return
	}
	out := res.StructuredContent
	for _, l := range out.Logs {
		fmt.Fprint(s.errOut, termSafe("  printed: "+l+"\n"))
	}
	if out.Error != "" {
		// The call's own line ("← run_script error: …") already says the
		// sentence the script ended with; say it again only when it differs.
		if out.Error != c.Error {
			fmt.Fprint(s.errOut, termSafe("  "+out.Error+"\n"))
		}
		return
	}
	fmt.Fprint(s.errOut, termSafe("  returned: "+excerpt(string(out.Value), MaxShownArgs)+"\n"))
}

func indentLines(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return strings.Join(lines, "\n")
}
