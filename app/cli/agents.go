package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/switchboard-app/switchboard/app/host"
)

func agentsCmd() *Command {
	return &Command{
		Name:    "agents",
		Summary: "the agents chats start from (a prompt, a model, servers, policies): add, edit, remove, import Claude Code's (alone: list)",
		Run:     agentsList,
		Subs: []*Command{
			{Name: "list", Summary: "list the agents, with the servers and provider they name that are not set up", Run: agentsList},
			{Name: "show", Args: "NAME", Summary: "show one agent (ID or name); with --json, the form 'agents add --file' reads", Run: agentsShow},
			agentsAddCmd("add"),
			agentsAddCmd("edit"),
			{Name: "duplicate", Args: "NAME", Summary: "save a copy of an agent, named \"NAME copy\"", Run: agentsDuplicate},
			{Name: "remove", Args: "NAME", Summary: "remove an agent; its chats stay and go on with the default set-up", Run: agentsRemove},
			agentsImportCmd(),
		},
	}
}

// agentsHost opens the host for an agents command (nothing starts).
func agentsHost(inv *Invocation) (*host.Host, func(), error) {
	h, err := openHost(inv, "")
	if err != nil {
		return nil, nil, err
	}
	return h, func() { closeServers(h) }, nil
}

func agentsList(_ context.Context, inv *Invocation, args []string) error {
	if len(args) > 0 {
		return &UsageError{Cmd: inv.Path, Msg: "takes no arguments"}
	}
	h, done, err := agentsHost(inv)
	if err != nil {
		return err
	}
	defer done()
	list, err := h.Agents.List()
	if err != nil {
		return validation(err)
	}
	if inv.JSON {
		return inv.PrintJSON(list)
	}
	rows := make([][]string, 0, len(list))
	for _, a := range list {
		rows = append(rows, []string{a.Name, agentModel(a), agentServers(a), agentMode(a)})
	}
	return inv.Table("no agents yet: add one with 'switchboard agents add NAME', or import Claude Code's with 'switchboard agents import'",
		[]string{"NAME", "MODEL", "SERVERS", "MODE"}, rows)
}

// agentModel is an agent's provider and model as the list shows them.
func agentModel(a host.Agent) string {
	p := a.Provider
	if a.ProviderMissing {
		p += " (not set up)"
	}
	switch {
	case p == "" && a.Model == "":
		return "default"
	case p == "":
		return a.Model
	case a.Model == "":
		return p
	}
	return p + "/" + a.Model
}

// agentServers lists an agent's servers, each one not set up marked so.
func agentServers(a host.Agent) string {
	if len(a.Servers) == 0 {
		return "(no tools)"
	}
	out := make([]string, len(a.Servers))
	for i, s := range a.Servers {
		out[i] = s
		for _, m := range a.Missing {
			if m == s {
				out[i] = s + " (not set up)"
			}
		}
	}
	return strings.Join(out, ", ")
}

// agentMode is how an agent's chats offer the tools.
func agentMode(a host.Agent) string {
	if a.Delegate {
		return "delegate"
	}
	if a.ToolMode == "" {
		return "as in Settings"
	}
	return a.ToolMode
}

func agentsShow(_ context.Context, inv *Invocation, args []string) error {
	if len(args) != 1 {
		return &UsageError{Cmd: inv.Path, Msg: "needs exactly one NAME (or ID)"}
	}
	h, done, err := agentsHost(inv)
	if err != nil {
		return err
	}
	defer done()
	a, err := h.Agents.Get(args[0])
	if err != nil {
		return &ValidationError{Err: err}
	}
	if inv.JSON {
		return inv.PrintJSON(a)
	}
	rows := [][]string{
		{"id", a.ID}, {"name", a.Name}, {"description", a.Description}, {"model", agentModel(a)},
		{"servers", agentServers(a)}, {"tools", strings.Join(a.Tools, ", ")}, {"skills", strings.Join(a.Skills, ", ")},
		{"mode", agentMode(a)},
	}
	for _, k := range slices.Sorted(maps.Keys(a.Policies)) {
		rows = append(rows, []string{"policy", k + " = " + a.Policies[k]})
	}
	if err := inv.Table("", []string{"FIELD", "VALUE"}, rows); err != nil {
		return err
	}
	if a.System != "" {
		_, err = fmt.Fprintf(inv.Stdout, "\nsystem prompt:\n%s\n", termSafe(a.System))
	}
	return err
}

// agentFlags are the fields 'agents add' and 'agents edit' set; an edit
// changes only those given.
type agentFlags struct {
	fs                                                *flag.FlagSet
	file, name, description, system, systemFile       string
	provider, model, servers, tools, skills, toolMode string
	delegate                                          bool
	policies                                          kvFlag
}

func (f *agentFlags) register(fs *flag.FlagSet, edit bool) {
	f.fs, f.policies = fs, kvFlag{}
	fs.StringVar(&f.file, "file", "", "read the agent from a JSON file (as 'agents show NAME --json' prints it); the flags below change what it says")
	if edit {
		fs.StringVar(&f.name, "name", "", "rename it")
	}
	fs.StringVar(&f.description, "description", "", "what it is for, one line")
	fs.StringVar(&f.system, "system", "", "its system prompt")
	fs.StringVar(&f.systemFile, "system-file", "", "read its system prompt from a file ('-': standard input)")
	fs.StringVar(&f.provider, "provider", "", "a provider from Settings → Models (\"\": the default one)")
	fs.StringVar(&f.model, "model", "", "the model (\"\": the provider's default)")
	fs.StringVar(&f.servers, "servers", "", "the servers it may use, comma-separated (\"\": none, a chat without tools)")
	fs.StringVar(&f.tools, "tools", "", "only these tools of its servers, comma-separated server__tool (\"\": all of them)")
	fs.StringVar(&f.skills, "skills", "", "only these skills of its servers, comma-separated server/name (\"\": all of them)")
	fs.StringVar(&f.toolMode, "tool-mode", "", "how its chats offer the tools: direct, code or both (\"\": as Settings say); not for a delegating agent")
	fs.BoolVar(&f.delegate, "delegate", false, "each server is one specialist (ask_<server>) with only its own tools; --delegate=false turns it off")
	fs.Var(f.policies, "policy", "approval over Settings' for a tool or server, PATTERN=ask|allow|deny (server__tool or server__*; PATTERN= removes it); repeat for more")
}

// set reports whether the flag name was given.
func (f *agentFlags) set(name string) bool {
	given := false
	f.fs.Visit(func(fl *flag.Flag) { given = given || fl.Name == name })
	return given
}

// apply changes a by the flags given.
func (f *agentFlags) apply(inv *Invocation, a *host.Agent) error {
	list := func(s string) []string {
		out := []string{}
		for _, p := range strings.Split(s, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
		return out
	}
	strs := map[string]*string{"name": &a.Name, "description": &a.Description, "system": &a.System, "provider": &a.Provider, "model": &a.Model, "tool-mode": &a.ToolMode}
	vals := map[string]string{"name": f.name, "description": f.description, "system": f.system, "provider": f.provider, "model": f.model, "tool-mode": f.toolMode}
	for k, p := range strs {
		if f.set(k) {
			*p = vals[k]
		}
	}
	if f.set("system-file") {
		b, err := readFileOrStdin(inv, f.systemFile)
		if err != nil {
			return err
		}
		a.System = strings.TrimSpace(string(b))
	}
	if f.set("servers") {
		// A server taken out leaves no tools, skills or policies behind (the form does the same).
		a.Servers = list(f.servers)
		kept := func(s, sep string) bool {
			server, _, _ := strings.Cut(s, sep)
			return slices.Contains(a.Servers, server)
		}
		a.Tools = slices.DeleteFunc(a.Tools, func(t string) bool { return !kept(t, "__") })
		a.Skills = slices.DeleteFunc(a.Skills, func(k string) bool { return !kept(k, "/") })
		maps.DeleteFunc(a.Policies, func(k, _ string) bool { return !kept(k, "__") })
	}
	if f.set("tools") {
		a.Tools = list(f.tools)
	}
	if f.set("skills") {
		a.Skills = list(f.skills)
	}
	if f.set("delegate") {
		a.Delegate = f.delegate
	}
	for k, v := range f.policies {
		if a.Policies == nil {
			a.Policies = map[string]string{}
		}
		if v == "" {
			delete(a.Policies, k)
		} else {
			a.Policies[k] = v
		}
	}
	return nil
}

func readFileOrStdin(inv *Invocation, path string) ([]byte, error) {
	if path == "-" {
		return io.ReadAll(inv.Stdin)
	}
	return os.ReadFile(path)
}

func agentsAddCmd(name string) *Command {
	var f agentFlags
	edit := name == "edit"
	c := &Command{
		Name:    name,
		Args:    "NAME",
		Summary: "add an agent from flags or a --file",
		Flags:   func(fs *flag.FlagSet) { f.register(fs, edit) },
		Run: func(_ context.Context, inv *Invocation, args []string) error {
			switch {
			case edit && len(args) != 1:
				return &UsageError{Cmd: inv.Path, Msg: "needs one NAME (or ID)"}
			case len(args) > 1 || len(args) == 0 && f.file == "":
				return &UsageError{Cmd: inv.Path, Msg: "needs one NAME (or a --file that names it)"}
			}
			h, done, err := agentsHost(inv)
			if err != nil {
				return err
			}
			defer done()
			var a host.Agent
			if edit {
				if a, err = h.Agents.Get(args[0]); err != nil {
					return &ValidationError{Err: err}
				}
			}
			if f.file != "" {
				b, err := readFileOrStdin(inv, f.file)
				if err != nil {
					return err
				}
				id := a.ID
				if err := json.Unmarshal(b, &a); err != nil {
					return &ValidationError{Err: fmt.Errorf("%s: %w; write it as 'switchboard agents show NAME --json' prints one", f.file, err)}
				}
				a.ID = id // add makes a new agent, edit keeps the one it edits
			}
			if !edit && len(args) == 1 {
				a.Name = args[0]
			}
			if err := f.apply(inv, &a); err != nil {
				return err
			}
			saved, err := h.Agents.Save(a)
			if err != nil {
				return &ValidationError{Err: err}
			}
			return agentSaved(inv, saved)
		},
	}
	if edit {
		c.Summary = "change an agent (ID or name): only the fields whose flags are given"
	}
	return c
}

// agentSaved prints a saved agent, saying what it names that is not set up.
func agentSaved(inv *Invocation, a host.Agent) error {
	if inv.JSON {
		return inv.PrintJSON(a)
	}
	fmt.Fprintf(inv.Stdout, "saved agent %s (id %s)\n", termSafe(a.Name), a.ID)
	if len(a.Missing) > 0 {
		fmt.Fprintf(inv.Stderr, "switchboard: agent %s names servers that are not set up: %s; its chats run without them until you add them ('switchboard servers add')\n",
			termSafe(a.Name), termSafe(strings.Join(a.Missing, ", ")))
	}
	if a.ProviderMissing {
		fmt.Fprintf(inv.Stderr, "switchboard: the provider %s is not set up: its chats fail until you add it in Settings → Models or choose another with --provider\n", termSafe(strconv.Quote(a.Provider)))
	}
	if a.Delegate && a.ToolMode != "" {
		fmt.Fprintf(inv.Stderr, "switchboard: a delegating agent's chats do not use its tool mode %q: its specialists call their server's tools directly\n", a.ToolMode)
	}
	return nil
}

func agentsDuplicate(_ context.Context, inv *Invocation, args []string) error {
	if len(args) != 1 {
		return &UsageError{Cmd: inv.Path, Msg: "needs exactly one NAME (or ID)"}
	}
	h, done, err := agentsHost(inv)
	if err != nil {
		return err
	}
	defer done()
	a, err := h.Agents.Get(args[0])
	if err != nil {
		return &ValidationError{Err: err}
	}
	c, err := h.Agents.Duplicate(a.ID)
	if err != nil {
		return &ValidationError{Err: err}
	}
	return agentSaved(inv, c)
}

func agentsRemove(_ context.Context, inv *Invocation, args []string) error {
	if len(args) != 1 {
		return &UsageError{Cmd: inv.Path, Msg: "needs exactly one NAME (or ID)"}
	}
	h, done, err := agentsHost(inv)
	if err != nil {
		return err
	}
	defer done()
	a, err := h.Agents.Get(args[0])
	if err != nil {
		return &ValidationError{Err: err}
	}
	if err := h.Agents.Remove(a.ID); err != nil {
		return validation(err)
	}
	if !inv.JSON {
		fmt.Fprintf(inv.Stdout, "removed agent %s; its chats stay and go on with the default set-up\n", termSafe(a.Name))
	}
	return nil
}

func agentsImportCmd() *Command {
	var dryRun bool
	return &Command{
		Name: "import",
		Args: "[PATH...]",
		Summary: "import Claude Code's agents (subagent .md files: files, or folders of them; default ~/.claude/agents and ./.claude/agents), " +
			"saying what does not carry over; an agent whose name is taken is skipped",
		Flags: func(fs *flag.FlagSet) {
			fs.BoolVar(&dryRun, "dry-run", false, "show what would be imported; change nothing")
		},
		Run: func(_ context.Context, inv *Invocation, args []string) error {
			h, done, err := agentsHost(inv)
			if err != nil {
				return err
			}
			defer done()
			wd, err := os.Getwd()
			if err != nil {
				return err
			}
			if len(args) == 0 && len(h.Agents.ClaudeCodeAgentDirs(wd)) == 0 {
				return &ValidationError{Err: errors.New("no Claude Code agents here: it keeps them in ~/.claude/agents and a project's .claude/agents; name a file or folder to import")}
			}
			var files []host.AgentFile
			if dryRun {
				files, err = h.Agents.Find(args, wd)
			} else {
				files, err = h.Agents.Import(args, wd)
			}
			if err != nil {
				return validation(err)
			}
			if inv.JSON {
				return inv.PrintJSON(files)
			}
			return printAgentFiles(inv, files, dryRun)
		},
	}
}

// printAgentFiles prints what an import did (or would do) with each file,
// and its notes below it.
func printAgentFiles(inv *Invocation, files []host.AgentFile, dryRun bool) error {
	rows := make([][]string, 0, len(files))
	var notes []string
	for _, f := range files {
		outcome := "imported"
		switch {
		case f.Problem != "":
			outcome = "skipped: " + f.Problem
		case f.Exists:
			outcome = "skipped: an agent of this name exists (rename or remove it first)"
		case dryRun:
			outcome = "would import"
		case f.Imported == "":
			outcome = "skipped"
		}
		rows = append(rows, []string{f.Path, f.Agent.Name, outcome})
		for _, n := range f.Notes {
			notes = append(notes, f.Agent.Name+": "+n)
		}
	}
	if err := inv.Table("no agent files found", []string{"FILE", "AGENT", "OUTCOME"}, rows); err != nil {
		return err
	}
	for _, n := range notes {
		fmt.Fprintln(inv.Stdout, "  note: "+cell(n))
	}
	return nil
}
