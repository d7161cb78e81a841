package host

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/mcpmanager/registry"
)

// MaxKeepMB is the most of one capped result Settings lets a chat keep:
// keeping (and indexing) costs memory in proportion (bench: a 10 MB
// result's row in BENCHMARKS.md).
const MaxKeepMB = 64

// SetLongChats saves how long chats stay within the model's window
// (Settings → Chat → Long chats): compactAt percent of the window past
// which earlier messages are summarised (10–95), resultShare percent one
// tool result may take (1–50), keepMB megabytes of a capped result kept
// for the model to read on (1–MaxKeepMB), budgets per tool or server
// ("server__tool=chars" or "server__*=chars") and context windows per
// model ("provider/model=tokens"), one per line; blank lines are skipped.
// A bad line is refused with its number and what to write; nothing is
// saved then.
func (st *Settings) SetLongChats(compactAt, resultShare, keepMB int, budgets, windows []string) error {
	switch {
	case keepMB < 1 || keepMB > MaxKeepMB:
		return fmt.Errorf("keep %d MB of a long tool result: choose 1 to %d MB", keepMB, MaxKeepMB)
	case compactAt < 10 || compactAt > 95:
		return fmt.Errorf("summarise at %d%%: choose 10 to 95 percent of the context window", compactAt)
	case resultShare < 1 || resultShare > 50:
		return fmt.Errorf("one tool result may take %d%%: choose 1 to 50 percent of the context window", resultShare)
	}
	perTool := map[string]int{}
	for i, l := range budgets {
		k, n, ok, err := pair(l, 200)
		if err != nil || ok && !strings.Contains(k, registry.Separator) {
			return fmt.Errorf("tool result budget, line %d %q: write server__tool=characters or server__*=characters (at least 200)", i+1, strings.TrimSpace(l))
		}
		if ok {
			perTool[k] = n
		}
	}
	s, err := st.Chat()
	if err != nil {
		return err
	}
	perModel := map[string]map[string]int{}
	for i, l := range windows {
		k, n, ok, err := pair(l, 1024)
		prov, model, cut := strings.Cut(k, "/")
		if err == nil && ok && cut {
			if _, perr := s.Provider(prov); perr != nil {
				return fmt.Errorf("context window, line %d %q: there is no provider %q; use a name from Model providers above", i+1, strings.TrimSpace(l), prov)
			}
		}
		if err != nil || ok && (!cut || model == "") {
			return fmt.Errorf("context window, line %d %q: write provider/model=tokens (at least 1024), e.g. Ollama/qwen3:8b=32768", i+1, strings.TrimSpace(l))
		}
		if ok {
			if perModel[strings.ToLower(prov)] == nil {
				perModel[strings.ToLower(prov)] = map[string]int{}
			}
			perModel[strings.ToLower(prov)][model] = n
		}
	}
	return st.EditChat(func(c *chat.Settings) error {
		c.CompactAt, c.ResultShare = compactAt, resultShare
		if compactAt == chat.DefaultCompactAt {
			c.CompactAt = 0
		}
		if resultShare == chat.DefaultResultShare {
			c.ResultShare = 0
		}
		c.KeepMB = keepMB
		if keepMB == chat.DefaultKeepLimit>>20 {
			c.KeepMB = 0
		}
		c.ResultBudgets = perTool
		if len(perTool) == 0 {
			c.ResultBudgets = nil
		}
		for i := range c.Providers {
			c.Providers[i].ContextWindows = perModel[strings.ToLower(c.Providers[i].Name)]
		}
		return nil
	})
}

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
func LongChatLines(s chat.Settings) (budgets, windows []string) {
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
