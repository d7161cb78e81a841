package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strconv"
	"time"

	"github.com/switchboard-app/switchboard/app/host"
)

func modelsCmd() *Command {
	return &Command{
		Name:    "models",
		Summary: "the models that run on this computer: the catalog, downloads, GGUF files (alone: list)",
		Run:     modelsList,
		Subs: []*Command{
			{Name: "list", Summary: "the catalog and what of it is here, and the GGUF files added", Run: modelsList},
			{Name: "download", Args: "NAME", Summary: "download a catalog model, checked against its pinned SHA-256 (Ctrl-C keeps the partial file; run again to resume)", Run: modelsDownload},
			{Name: "add", Args: "FILE.gguf", Summary: "run a GGUF file of your own (it stays where it is)", Run: modelsAdd},
			{Name: "remove", Args: "NAME", Summary: "delete a downloaded model (and a partial download), or forget an added file", Run: modelsRemove},
			{Name: "url", Args: "[URL]", Summary: "print or set where models download from: a mirror's URL or a folder ('' for each model's own URL)", Run: modelsURL},
			modelsRunCmd(),
		},
	}
}

// modelRow is a model as 'models list --json' prints it.
type modelRow struct {
	Name      string `json:"name"`
	Title     string `json:"title"`
	File      string `json:"file"`
	Size      int64  `json:"size"`
	RAM       int64  `json:"ram,omitempty"`
	Licence   string `json:"licence,omitempty"`
	GoodFor   string `json:"goodFor,omitempty"`
	Default   bool   `json:"default,omitempty"`
	Installed bool   `json:"installed"`
	Partial   int64  `json:"partial,omitempty"`
	Path      string `json:"path"`
	Chosen    bool   `json:"chosen,omitempty"`
}

func modelsList(_ context.Context, inv *Invocation, args []string) error {
	if len(args) > 0 {
		return &UsageError{Cmd: inv.Path, Msg: "takes no arguments"}
	}
	h, err := readHost(inv)
	if err != nil {
		return err
	}
	defer closeServers(h)
	models, err := h.Models.List()
	if err != nil {
		return validation(err)
	}
	var list []modelRow
	for _, c := range models {
		list = append(list, modelRow{Name: c.Name, Title: c.Title, File: c.File, Size: c.Size, RAM: c.RAM, Licence: c.Licence,
			GoodFor: c.GoodFor, Default: c.Default, Installed: c.Installed, Partial: c.Partial, Path: c.Path, Chosen: c.Chosen})
	}
	if inv.JSON {
		return inv.PrintJSON(list)
	}
	rows := make([][]string, 0, len(list))
	for _, m := range list {
		status := "not downloaded"
		switch {
		case m.Chosen:
			status = "added: " + m.Path
		case m.Installed:
			status = "downloaded"
		case m.Partial > 0:
			status = fmt.Sprintf("partly downloaded (%s; download again to resume)", host.Bytes(m.Partial))
		}
		if m.Default {
			status += " (recommended)"
		}
		ram := "?"
		if m.RAM > 0 {
			ram = host.Bytes(m.RAM)
		}
		rows = append(rows, []string{cell(m.Name), host.Bytes(m.Size), ram, m.Licence, cell(status), cell(m.GoodFor)})
	}
	return inv.Table("no models", []string{"NAME", "SIZE", "RAM", "LICENCE", "STATUS", "GOOD FOR"}, rows)
}

// progressLine is how often 'models download' prints a progress line.
const progressLine = 2 * time.Second

func modelsDownload(_ context.Context, inv *Invocation, args []string) error {
	if len(args) != 1 {
		return &UsageError{Cmd: inv.Path, Msg: "needs exactly one NAME (see 'switchboard models list')"}
	}
	h, err := openHost(inv, "")
	if err != nil {
		return err
	}
	defer closeServers(h)
	name := args[0]
	var last time.Time
	var lastDone int64 = -1
	err = h.Models.Download(inv.Context(), name, func(done, total int64) {
		// A line when it starts, every few seconds, and at the end.
		if now := time.Now(); now.Sub(last) >= progressLine || done == total && done != lastDone {
			last, lastDone = now, done
			pct := 0.0
			if total > 0 {
				pct = float64(done) * 100 / float64(total)
			}
			fmt.Fprintf(inv.Stderr, "%s: %s of %s (%.0f%%)\n", name, host.Bytes(done), host.Bytes(total), pct)
		}
	})
	de, failed := errors.AsType[*host.DownloadError](err)
	switch {
	case failed && de.WrongFile(), errors.Is(err, host.ErrNotInCatalog), errors.Is(err, host.ErrDownloadRunning):
		return &ValidationError{Err: err}
	case failed:
		// The sentence says why; the terminal's ways on are these commands.
		fmt.Fprintf(inv.Stderr, "Retry with 'switchboard models download %s', download from a mirror ('switchboard models url URL'), or use a GGUF file you have ('switchboard models add FILE').\n", name)
		return err
	case err != nil:
		return err
	}
	p, err := h.Models.Path(name)
	if err != nil {
		return err
	}
	fmt.Fprintf(inv.Stdout, "%s is ready: %s\n", name, p)
	return nil
}

func modelsAdd(_ context.Context, inv *Invocation, args []string) error {
	if len(args) != 1 {
		return &UsageError{Cmd: inv.Path, Msg: "needs exactly one FILE.gguf"}
	}
	var m host.InstalledModel
	if err := edit(inv, func(h *host.Host) (err error) {
		if m, err = h.Models.Choose(args[0]); err != nil {
			return &ValidationError{Err: err}
		}
		return nil
	}); err != nil {
		return err
	}
	fmt.Fprintf(inv.Stdout, "added %s (%s)\n", m.Name, m.Path)
	return nil
}

func modelsRemove(_ context.Context, inv *Invocation, args []string) error {
	if len(args) != 1 {
		return &UsageError{Cmd: inv.Path, Msg: "needs exactly one NAME (see 'switchboard models list')"}
	}
	return edit(inv, func(h *host.Host) error {
		err := h.Models.Remove(args[0])
		if errors.Is(err, host.ErrModelNotInstalled) {
			return &ValidationError{Err: err}
		}
		return err
	})
}

func modelsURL(_ context.Context, inv *Invocation, args []string) error {
	switch len(args) {
	case 0:
		h, err := readHost(inv)
		if err != nil {
			return err
		}
		defer closeServers(h)
		u, err := h.Models.DownloadURL()
		if err != nil {
			return err
		}
		if u == "" {
			u = "(each model's own URL)"
		}
		_, err = fmt.Fprintln(inv.Stdout, u)
		return err
	case 1:
		return edit(inv, func(h *host.Host) error {
			if err := h.Models.SetDownloadURL(args[0]); err != nil {
				return &ValidationError{Err: err}
			}
			return nil
		})
	}
	return &UsageError{Cmd: inv.Path, Msg: "takes at most one URL"}
}

// modelsRunCmd prints or sets how the model runs: its context size and
// threads, 0 fitted to this machine (the window's Settings → Models).
func modelsRunCmd() *Command {
	var ctxSize, threads int
	return &Command{
		Name:    "run",
		Summary: "print or set the context size and threads the model runs with (0: fitted to this machine's memory and CPUs)",
		Flags: func(fs *flag.FlagSet) {
			fs.IntVar(&ctxSize, "context", -1, "context size in `TOKENS` (0: fitted to the free memory)")
			fs.IntVar(&threads, "threads", -1, "`N` threads (0: fitted to the CPUs)")
		},
		Run: func(ctx context.Context, inv *Invocation, args []string) error {
			if len(args) > 0 {
				return &UsageError{Cmd: inv.Path, Msg: "takes no arguments: use --context and --threads"}
			}
			if ctxSize < 0 && threads < 0 {
				h, err := readHost(inv)
				if err != nil {
					return err
				}
				defer closeServers(h)
				s, err := h.Settings.Chat()
				if err != nil {
					return err
				}
				_, err = fmt.Fprintf(inv.Stdout, "context %s, threads %s\n", orFitted(s.Local.Context), orFitted(s.Local.Threads))
				return err
			}
			return edit(inv, func(h *host.Host) error {
				s, err := h.Settings.Chat()
				if err != nil {
					return err
				}
				c, t := s.Local.Context, s.Local.Threads
				if ctxSize >= 0 {
					c = ctxSize
				}
				if threads >= 0 {
					t = threads
				}
				if err := h.Local.SetRun(ctx, c, t); err != nil {
					return &ValidationError{Err: err}
				}
				return nil
			})
		},
	}
}

func orFitted(n int) string {
	if n == 0 {
		return "fitted to this machine"
	}
	return strconv.Itoa(n)
}
