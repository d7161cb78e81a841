package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/switchboard-app/switchboard/app/host"
	"github.com/switchboard-app/switchboard/mcpmanager"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/library"
)

func serversTestCmd() *Command {
	var file string
	inputs := kvFlag{}
	return &Command{
		Name:    "test",
		Args:    "NAME",
		Summary: "start one server on its own, run initialize and tools/list, and time each step",
		Flags:   func(fs *flag.FlagSet) { configFlags(fs, &file, inputs) },
		Run: func(ctx context.Context, inv *Invocation, args []string) error {
			if len(args) != 1 {
				return &UsageError{Cmd: inv.Path, Msg: "needs exactly one NAME"}
			}
			servers, err := loadServers(inv, file, inputs)
			if err != nil {
				return err
			}
			i := slices.IndexFunc(servers, func(s config.Server) bool { return s.Name == args[0] })
			if i < 0 {
				return &ValidationError{Err: fmt.Errorf("no server named %q; see 'switchboard servers list'", args[0])}
			}
			h, err := openHost(inv, file)
			if err != nil {
				return err
			}
			defer closeServers(h)
			r, err := h.Servers.Test(ctx, servers[i])
			if err != nil {
				return &ValidationError{Err: err}
			}
			if err := printReport(inv, r); err != nil {
				return err
			}
			if !r.OK {
				return fmt.Errorf("%s: the %s step failed: %s", r.Server, r.Failed, firstLine(r.Error))
			}
			return nil
		},
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func printReport(inv *Invocation, r mcpmanager.TestReport) error {
	if inv.JSON {
		return inv.PrintJSON(r)
	}
	rows := [][]string{}
	for _, s := range r.Steps {
		res := "ok"
		if s.Error != "" {
			res = "FAILED: " + termSafe(firstLine(s.Error))
		}
		rows = append(rows, []string{s.Name, fmt.Sprintf("%.1f ms", s.Ms), res})
	}
	if err := inv.Table("", []string{"STEP", "TIME", "RESULT"}, rows); err != nil {
		return err
	}
	if r.OK {
		_, err := fmt.Fprintf(inv.Stdout, "%s: ok in %.1f ms (%s %s over %s, %s)\n", r.Server, r.TotalMs, termSafe(r.ServerName), termSafe(r.Version), r.Transport, r.Summary)
		return err
	}
	if len(r.Stderr) > 0 {
		fmt.Fprintf(inv.Stdout, "last stderr lines:\n  %s\n", termSafe(strings.Join(r.Stderr, "\n  ")))
	}
	return nil
}

func serversTemplatesCmd() *Command {
	return &Command{
		Name:    "templates",
		Summary: "list the server templates (the catalogue and those in the app config) and their parameters",
		Run: func(_ context.Context, inv *Invocation, args []string) error {
			h, err := readHost(inv)
			if err != nil {
				return err
			}
			defer closeServers(h)
			ts := h.Library.Templates()
			type view struct {
				ID          string          `json:"id"`
				Title       string          `json:"title"`
				Description string          `json:"description"`
				Params      []library.Param `json:"params"`
			}
			var out []view
			rows := [][]string{}
			for _, t := range ts {
				ps, err := t.Params()
				if err != nil {
					fmt.Fprintf(inv.Stderr, "%v\n", err)
					continue
				}
				out = append(out, view{t.ID, t.Title, t.Description, ps})
				var names []string
				for _, p := range ps {
					n := p.Name
					if p.Required {
						n += "*"
					}
					names = append(names, n)
				}
				rows = append(rows, []string{t.ID, strings.Join(names, " "), t.Description})
			}
			if inv.JSON {
				return inv.PrintJSON(out)
			}
			if err := inv.Table("no templates", []string{"TEMPLATE", "PARAMETERS (* required)", "DESCRIPTION"}, rows); err != nil {
				return err
			}
			_, err = fmt.Fprintln(inv.Stdout, "add one with: switchboard servers add NAME --template ID --param KEY=VALUE ...")
			return err
		},
	}
}

// addFromTemplate adds the server a template makes; secret parameters go
// to the keyring.
func addFromTemplate(inv *Invocation, name, id string, params map[string]string) error {
	var t library.Template
	err := edit(inv, func(h *host.Host) (err error) {
		t, err = h.Library.AddFromTemplate(id, name, params)
		return err
	})
	var pe *library.ParamError
	switch {
	case errors.As(err, &pe) || errors.Is(err, library.ErrInvalidParam) || errors.Is(err, library.ErrBadTemplate):
		return &ValidationError{Err: fmt.Errorf("%w; set it with --param KEY=VALUE", err)}
	case errors.Is(err, library.ErrUnknownTemplate):
		return &ValidationError{Err: err}
	case err != nil:
		return err
	}
	_, err = fmt.Fprintf(inv.Stdout, "added %s from template %s\n", name, t.ID)
	return err
}

func serversProfileCmd() *Command {
	var none bool
	return &Command{
		Name:    "profile",
		Args:    "[NAME | --none]",
		Summary: "show the profiles servers declare, or switch every server to one",
		Flags:   func(fs *flag.FlagSet) { fs.BoolVar(&none, "none", false, "use no profile: every server as written") },
		Run: func(_ context.Context, inv *Invocation, args []string) error {
			if len(args) > 1 || (none && len(args) > 0) {
				return &UsageError{Cmd: inv.Path, Msg: "give one profile NAME, --none, or nothing to list them"}
			}
			if len(args) == 1 || none {
				name := ""
				if !none {
					name = args[0]
				}
				return edit(inv, func(h *host.Host) error {
					if err := h.Library.SetProfile(name); err != nil {
						return &ValidationError{Err: err}
					}
					return nil
				})
			}
			h, err := readHost(inv)
			if err != nil {
				return err
			}
			defer closeServers(h)
			active, names, err := h.Library.Profiles()
			if err != nil {
				return validation(err)
			}
			if inv.JSON {
				if names == nil {
					names = []string{}
				}
				return inv.PrintJSON(struct {
					Active string   `json:"active"`
					Names  []string `json:"names"`
				}{active, names})
			}
			rows := [][]string{}
			for _, n := range names {
				mark := ""
				if n == active {
					mark = "active"
				}
				rows = append(rows, []string{n, mark})
			}
			return inv.Table("no server declares a profile (add \"profiles\": {\"work\": {...}} to one)", []string{"PROFILE", ""}, rows)
		},
	}
}
