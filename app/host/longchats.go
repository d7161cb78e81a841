package host

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// MaxKeepMB is the most of one capped result Settings lets a chat keep:
// keeping (and indexing) costs memory in proportion (bench: a 10 MB
// result's row in BENCHMARKS.md).
const MaxKeepMB = 64

// pair reads "key=number" with number ≥ min; ok is false for a blank line.
func pair(line string, min int) (key string, n int, ok bool, err error) {
	line = strings.TrimSpace(line)
	if line == "" {
		return "", 0, false, nil
	}
	k, v, cut := strings.Cut(line, "=")
	k = strings.TrimSpace(k)
	n, err = strconv.Atoi(strings.TrimSpace(strings.ReplaceAll(v, "_", "")))
	if !cut || k == "" || err != nil || n < min {
		return "", 0, false, fmt.Errorf("bad line")
	}
	return k, n, true, nil
}

// LongChatLines are the per-tool budgets and per-model windows of s as
// the Long chats form edits them, sorted.
func LongChatLines(s ChatSettings) (budgets, windows []string) {
	budgets, windows = []string{}, []string{}
	for k, n := range s.ResultBudgets {
		budgets = append(budgets, fmt.Sprintf("%s=%d", k, n))
	}
	for _, p := range s.Providers {
		for m, n := range p.ContextWindows {
			windows = append(windows, fmt.Sprintf("%s/%s=%d", p.Name, m, n))
		}
	}
	slices.Sort(budgets)
	slices.Sort(windows)
	return budgets, windows
}
