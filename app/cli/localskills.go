package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
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
			{Name: "list", Summary: "every skill found (name, source, state, size), the folders looked in and the malformed skills left out", Run: skillsList},
			skillsAddCmd(),
			{Name: "remove", Args: "NAME", Summary: "delete a skill from Switchboard's own skills folder", Run: skillsRemove},
			{Name: "on", Args: "NAME", Summary: "switch a skill on for the chats (NAME or SOURCE/NAME, e.g. skills@claude/pdf)", Run: skillsSwitch(true)},
			{Name: "off", Args: "NAME", Summary: "switch a skill off for the chats", Run: skillsSwitch(false)},
			{Name: "accept", Args: "NAME", Summary: "accept a skill held because its files changed (or it is new and the checks found something), as it is now", Run: skillsAccept},
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
		rows = append(rows, []string{termSafe(s.Name), s.Server, state, fmt.Sprintf("%s in %d files", bytesText(s.Size), len(s.Files)), termSafe(s.Description)})
	}
	if err := inv.Table("no skills found on this computer (see 'switchboard skills add')", []string{"SKILL", "SOURCE", "STATE", "SIZE", "DESCRIPTION"}, rows); err != nil {
		return err
	}
	for _, s := range l.Skills {
		if s.State == host.SkillHeld {
			fmt.Fprintf(inv.Stderr, "%s/%s is held until you review it: 'switchboard skills accept %s/%s' offers it again\n", s.Server, s.Name, s.Server, s.Name)
		}
	}
	for _, m := range l.Malformed {
		fmt.Fprintf(inv.Stderr, "left out %s: %s\n", termSafe(m.Folder), termSafe(m.Reason))
	}
	return nil
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
	fmt.Fprintf(w, "from %s, %s in %d files:\n", termSafe(p.From), bytesText(p.Size), len(p.Files))
	for _, f := range p.Files {
		fmt.Fprintf(w, "  %-40s %s\n", termSafe(f.Path), bytesText(f.Size))
	}
	for _, l := range p.LeftOut {
		fmt.Fprintf(w, "left out: %s\n", termSafe(l))
	}
	for _, f := range p.Findings {
		fmt.Fprintf(w, "⚠ %s: %s: %s\n", f.Where, f.Reason, termSafe(f.Excerpt))
	}
	if len(p.Findings) == 0 {
		fmt.Fprintln(w, "checks: nothing found")
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

func skillsAccept(ctx context.Context, inv *Invocation, args []string) error {
	if len(args) != 1 {
		return &UsageError{Cmd: inv.Path, Msg: "needs exactly one NAME"}
	}
	h, err := skillsHost(inv)
	if err != nil {
		return err
	}
	defer closeServers(h)
	sk, err := h.LocalSkills.Accept(ctx, args[0])
	if err != nil {
		return skillErr(err)
	}
	if inv.JSON {
		return inv.PrintJSON(sk)
	}
	_, err = fmt.Fprintf(inv.Stdout, "accepted %s/%s as it is now (%d files); the chats and serve offer it\n", sk.Server, sk.Name, len(sk.Files))
	return err
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
