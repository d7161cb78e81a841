package cli

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/switchboard-app/switchboard/app/host"
)

// skillsCmd is 'switchboard skills': the SKILL.md folders on this computer
// (a server's skills are 'servers skills').
func skillsCmd() *Command {
	return &Command{
		Name:    "skills",
		Summary: "the skills on this computer (SKILL.md folders of Claude Code, Codex, Copilot, projects, plugins and Switchboard's own): list, add, remove, switch on and off",
		Run:     skillsList,
		Subs: []*Command{
			{Name: "list", Summary: "every skill found (name, source, state, size), what a held one's checks found, notes on what a skill breaks of the Agent Skills specification (it is loaded as Claude Code loads it), and the malformed skills left out", Run: skillsList},
			skillsAddCmd(),
			{Name: "remove", Args: "NAME", Summary: "delete a skill from Switchboard's own skills folder", Run: skillsRemove},
			{Name: "on", Args: "NAME", Summary: "switch a skill on for the chats (NAME or SOURCE/NAME, e.g. skills@claude/pdf)", Run: skillsSwitch(true)},
			{Name: "off", Args: "NAME", Summary: "switch a skill off for the chats", Run: skillsSwitch(false)},
			skillsAcceptCmd(),
			skillsTrustCmd(),
			skillsFolderCmd(),
		},
	}
}

func skillsHost(inv *Invocation) (*host.Host, error) {
	return openHost(inv, "")
}

// skillErr makes a wrong name or path a usage error (exit 2).
func skillErr(err error) error {
	if errors.Is(err, host.ErrNoSuchSkill) || errors.Is(err, host.ErrSkillAmbiguous) || errors.Is(err, host.ErrNotSkill) ||
		errors.Is(err, host.ErrSkillExists) || errors.Is(err, host.ErrNotOwnSkill) {
		return &ValidationError{Err: err}
	}
	return err
}

func skillsList(ctx context.Context, inv *Invocation, args []string) error {
	if len(args) > 0 {
		return &UsageError{Cmd: inv.Path, Msg: "takes no arguments"}
	}
	h, err := skillsHost(inv)
	if err != nil {
		return err
	}
	defer closeServers(h)
	l, err := h.LocalSkills.List(ctx)
	if err != nil {
		return err
	}
	if inv.JSON {
		return inv.PrintJSON(l)
	}
	rows := [][]string{}
	for _, s := range l.Skills {
		state := map[bool]string{true: "on", false: "off"}[s.On]
		if s.State == host.SkillHeld {
			state = "held: " + strings.Join(s.Changes, ", ")
			if len(s.Changes) == 0 {
				state = "held: new, the checks found something"
			}
		}
		rows = append(rows, []string{termSafe(s.Name), s.Server, state, fmt.Sprintf("%s in %s", bytesText(s.Size), files(len(s.Files))), oneLine(termSafe(s.Description), maxListDescription)})
	}
	if err := inv.Table("no skills found on this computer (see 'switchboard skills add')", []string{"SKILL", "SOURCE", "STATE", "SIZE", "DESCRIPTION"}, rows); err != nil {
		return err
	}
	for _, s := range l.Skills {
		if s.State == host.SkillHeld {
			fmt.Fprintf(inv.Stderr, "%s/%s is held until you review it: 'switchboard skills accept %s/%s' offers it again\n", s.Server, s.Name, s.Server, s.Name)
			for _, f := range s.Findings {
				fmt.Fprintf(inv.Stderr, "  ⚠ %s: %s: %s\n", f.Where, f.Reason, oneLine(termSafe(f.Excerpt), maxListExcerpt))
			}
		}
	}
	for _, s := range l.Skills {
		for _, w := range s.Warnings {
			fmt.Fprintf(inv.Stderr, "note: %s/%s: %s\n", s.Server, s.Name, termSafe(w))
		}
	}
	for _, m := range l.Malformed {
		fmt.Fprintf(inv.Stderr, "left out %s: %s\n", termSafe(m.Folder), termSafe(m.Reason))
	}
	return nil
}

// What 'skills list' shows of a description and of a finding's excerpt:
// a table row is one line, the whole is in --json.
const (
	maxListDescription = 72
	maxListExcerpt     = 100
)

// oneLine is s cut to max characters ("…" ending a cut one).
func oneLine(s string, max int) string {
	if r := []rune(s); len(r) > max {
		return strings.TrimRight(string(r[:max-1]), " ") + "…"
	}
	return s
}

// files is "1 file", "3 files".
func files(n int) string {
	if n == 1 {
		return "1 file"
	}
	return fmt.Sprintf("%d files", n)
}

func skillsAddCmd() *Command {
	var dry, yes, replace bool
	return &Command{
		Name:    "add",
		Args:    "PATH",
		Summary: "preview a skill folder or .zip (its files and what the checks found) and copy it into Switchboard's skills folder",
		Flags: func(fs *flag.FlagSet) {
			fs.BoolVar(&dry, "dry-run", false, "show the preview only")
			fs.BoolVar(&yes, "yes", false, "add it even when the checks found something")
			fs.BoolVar(&replace, "replace", false, "replace a skill of the same name in Switchboard's skills folder")
		},
		Run: func(ctx context.Context, inv *Invocation, args []string) error {
			if len(args) != 1 {
				return &UsageError{Cmd: inv.Path, Msg: "needs exactly one PATH (a skill folder or a .zip)"}
			}
			h, err := skillsHost(inv)
			if err != nil {
				return err
			}
			defer closeServers(h)
			req := host.AddSkill{Path: args[0], Replace: replace}
			p, err := h.LocalSkills.Preview(req)
			if err != nil {
				return skillErr(err)
			}
			if !inv.JSON {
				printPreview(inv, p)
			}
			var why string
			switch {
			case dry:
			case len(p.Findings) > 0 && !yes:
				why = "the checks found what looks like hidden instructions (above); read the skill, then add it with --yes if you trust it"
			case p.Exists && !replace:
				why = fmt.Sprintf("Switchboard's skills folder already has a skill named %s; add it with --replace to replace it", p.Name)
			}
			if dry || why != "" {
				if inv.JSON {
					if err := inv.PrintJSON(map[string]any{"preview": p, "added": nil}); err != nil {
						return err
					}
				}
				if why != "" {
					return &ValidationError{Err: fmt.Errorf("%s: not added: %s", args[0], why)}
				}
				return nil
			}
			sk, err := h.LocalSkills.Add(ctx, req)
			if err != nil {
				return skillErr(err)
			}
			if inv.JSON {
				return inv.PrintJSON(map[string]any{"preview": p, "added": sk})
			}
			_, err = fmt.Fprintf(inv.Stdout, "added %s to %s; the chats and serve offer it as %s/%s\n", sk.Name, sk.Folder, sk.Server, sk.Name)
			return err
		},
	}
}

func printPreview(inv *Invocation, p host.SkillPreview) {
	w := inv.Stdout
	fmt.Fprintf(w, "skill %s: %s\n", termSafe(p.Name), termSafe(p.Description))
	fmt.Fprintf(w, "from %s, %s in %s:\n", termSafe(p.From), bytesText(p.Size), files(len(p.Files)))
	for _, f := range p.Files {
		fmt.Fprintf(w, "  %-40s %s\n", termSafe(f.Path), bytesText(f.Size))
	}
	for _, l := range p.LeftOut {
		fmt.Fprintf(w, "left out: %s\n", termSafe(l))
	}
	for _, n := range p.Warnings {
		fmt.Fprintf(w, "note: %s\n", termSafe(n))
	}
	printFindings(w, p.Findings)
	if len(p.Findings) == 0 {
		fmt.Fprintln(w, "checks: nothing found")
	}
}

// printFindings writes what the checks found, one ⚠ line each.
func printFindings(w io.Writer, fs []host.SkillFinding) {
	for _, f := range fs {
		fmt.Fprintf(w, "⚠ %s: %s: %s\n", f.Where, f.Reason, termSafe(f.Excerpt))
	}
}

func skillsRemove(ctx context.Context, inv *Invocation, args []string) error {
	if len(args) != 1 {
		return &UsageError{Cmd: inv.Path, Msg: "needs exactly one NAME"}
	}
	h, err := skillsHost(inv)
	if err != nil {
		return err
	}
	defer closeServers(h)
	if err := h.LocalSkills.Remove(ctx, args[0]); err != nil {
		return skillErr(err)
	}
	_, err = fmt.Fprintf(inv.Stdout, "removed %s from Switchboard's skills folder\n", args[0])
	return err
}

func skillsSwitch(on bool) func(context.Context, *Invocation, []string) error {
	return func(ctx context.Context, inv *Invocation, args []string) error {
		if len(args) != 1 {
			return &UsageError{Cmd: inv.Path, Msg: "needs exactly one NAME"}
		}
		h, err := skillsHost(inv)
		if err != nil {
			return err
		}
		defer closeServers(h)
		sk, err := h.LocalSkills.SetOn(ctx, args[0], on)
		if err != nil {
			return skillErr(err)
		}
		if inv.JSON {
			return inv.PrintJSON(sk)
		}
		_, err = fmt.Fprintf(inv.Stdout, "%s/%s is %s for the chats\n", sk.Server, sk.Name, map[bool]string{true: "on", false: "off"}[on])
		return err
	}
}

func skillsAcceptCmd() *Command {
	var yes bool
	return &Command{
		Name:    "accept",
		Args:    "NAME",
		Summary: "accept a skill held because its files changed (or it is new and the checks found something), as it is now; what the checks found is shown first, and needs --yes (or a yes on the terminal)",
		Flags: func(fs *flag.FlagSet) {
			fs.BoolVar(&yes, "yes", false, "accept it even when the checks found what looks like hidden instructions")
		},
		Run: func(ctx context.Context, inv *Invocation, args []string) error {
			if len(args) != 1 {
				return &UsageError{Cmd: inv.Path, Msg: "needs exactly one NAME"}
			}
			h, err := skillsHost(inv)
			if err != nil {
				return err
			}
			defer closeServers(h)
			sk, err := h.LocalSkills.Find(ctx, args[0])
			if err != nil {
				return skillErr(err)
			}
			if err := confirmAccept(inv, sk, yes); err != nil {
				return err
			}
			sk, err = h.LocalSkills.Accept(ctx, sk.Server+"/"+sk.Name)
			if err != nil {
				return skillErr(err)
			}
			if inv.JSON {
				return inv.PrintJSON(sk)
			}
			_, err = fmt.Fprintf(inv.Stdout, "accepted %s/%s as it is now (%s); the chats and serve offer it\n", sk.Server, sk.Name, files(len(sk.Files)))
			return err
		},
	}
}

// confirmAccept shows what accepting the held skill sk lets through (which
// files changed, what the checks found) and, when the checks found
// something, asks: --yes, or a yes typed on the terminal. Accepting is
// trusting: a skill's text reaches the model as instructions.
func confirmAccept(inv *Invocation, sk host.LocalSkill, yes bool) error {
	if sk.State != host.SkillHeld {
		return nil
	}
	w := inv.Stdout
	if inv.JSON {
		w = inv.Stderr // stdout is the JSON
	}
	key := sk.Server + "/" + sk.Name
	if len(sk.Changes) > 0 {
		fmt.Fprintf(w, "%s is held: %s since you accepted it (its folder: %s)\n", key, strings.Join(sk.Changes, ", "), termSafe(sk.Folder))
	} else {
		fmt.Fprintf(w, "%s is held: it is new, and the checks found something (its folder: %s)\n", key, termSafe(sk.Folder))
	}
	printFindings(w, sk.Findings)
	if len(sk.Findings) == 0 || yes {
		return nil
	}
	if _, ok := terminal(inv); ok && !inv.JSON {
		fmt.Fprint(inv.Stderr, "The chats would follow this text as instructions. Accept it anyway? [y/N]: ")
		line, _ := bufio.NewReader(inv.Stdin).ReadString('\n')
		if a := strings.ToLower(strings.TrimSpace(line)); a == "y" || a == "yes" {
			return nil
		}
	}
	return &ValidationError{Err: fmt.Errorf("%s: not accepted: the checks found what looks like hidden instructions (above); read the skill, then accept it with --yes if you trust it", key)}
}

func skillsTrustCmd() *Command {
	var off bool
	return &Command{
		Name:    "trust",
		Args:    "FOLDER",
		Summary: "mark a folder as your own: changes to the skills in it are not held for review (--off to undo)",
		Flags:   func(fs *flag.FlagSet) { fs.BoolVar(&off, "off", false, "hold changes in this folder for review again") },
		Run: func(_ context.Context, inv *Invocation, args []string) error {
			if len(args) != 1 {
				return &UsageError{Cmd: inv.Path, Msg: "needs exactly one FOLDER"}
			}
			h, err := skillsHost(inv)
			if err != nil {
				return err
			}
			defer closeServers(h)
			if err := h.LocalSkills.Trust(args[0], !off); err != nil {
				return err
			}
			_, err = fmt.Fprintf(inv.Stdout, "%s is %s\n", args[0], map[bool]string{false: "trusted: your edits there are not held", true: "no longer trusted: changes there are held for review"}[off])
			return err
		},
	}
}

func skillsFolderCmd() *Command {
	var remove bool
	return &Command{
		Name:    "folder",
		Args:    "FOLDER",
		Summary: "look for skills in a project folder too (its .claude/skills, .agents/skills, .github/skills, and itself); --remove to stop",
		Flags:   func(fs *flag.FlagSet) { fs.BoolVar(&remove, "remove", false, "stop looking in this folder") },
		Run: func(_ context.Context, inv *Invocation, args []string) error {
			if len(args) != 1 {
				return &UsageError{Cmd: inv.Path, Msg: "needs exactly one FOLDER"}
			}
			h, err := skillsHost(inv)
			if err != nil {
				return err
			}
			defer closeServers(h)
			if err := h.LocalSkills.AddFolder(args[0], !remove); err != nil {
				return &ValidationError{Err: err}
			}
			_, err = fmt.Fprintf(inv.Stdout, "%s: %s\n", args[0], map[bool]string{false: "skills in it are found", true: "no longer looked in"}[remove])
			return err
		},
	}
}
