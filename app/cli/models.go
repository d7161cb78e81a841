package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"
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
			{Name: "download", Args: "NAME", Summary: "download a catalog model, checked against its pinned SHA-256 (Ctrl-C keeps the partial file; run again to resume; a download of it running elsewhere is followed, not repeated)", Run: modelsDownload},
			{Name: "add", Args: "[FILE.gguf]", Summary: "run a GGUF file of your own (it stays where it is; checked first); alone: list those Ollama and LM Studio keep here", Run: modelsAdd},
			{Name: "found", Summary: "the GGUF models Ollama and LM Studio keep on this computer, which 'models add' can run as they are", Run: modelsFound},
			{Name: "remove", Args: "NAME", Summary: "delete a downloaded model (and a partial download), or forget an added file", Run: modelsRemove},
			{Name: "url", Args: "[URL]", Summary: "print or set where models download from: a mirror's URL or a folder ('' for each model's own URL)", Run: modelsURL},
			modelsRunCmd(),
			{Name: "status", Args: "[NAME]", Summary: "the runtime (llama-server: where, its CPU backends) and how NAME (default: the default model) runs here: context, KV cache, memory, threads", Run: modelsStatus},
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

func rowOf(c host.CatalogModel) modelRow {
	return modelRow{Name: c.Name, Title: c.Title, File: c.File, Size: c.Size, RAM: c.RAM, Licence: c.Licence,
		GoodFor: c.GoodFor, Default: c.Default, Installed: c.Installed, Partial: c.Partial, Path: c.Path, Chosen: c.Chosen}
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
	list := []modelRow{}
	for _, c := range models {
		list = append(list, rowOf(c))
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
			status = fmt.Sprintf("partly downloaded (%s; download again to resume)", host.ModelBytes(m.Partial))
		}
		if m.Default {
			status += " (recommended)"
		}
		ram := "?"
		if m.RAM > 0 {
			ram = host.ModelBytes(m.RAM)
		}
		rows = append(rows, []string{cell(m.Name), host.ModelBytes(m.Size), ram, m.Licence, cell(status), cell(m.GoodFor)})
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
			fmt.Fprintf(inv.Stderr, "%s: %s of %s (%.0f%%)\n", name, host.ModelBytes(done), host.ModelBytes(total), pct)
		}
	})
	de, failed := errors.AsType[*host.DownloadError](err)
	switch {
	case errors.Is(err, host.ErrNotInCatalog), errors.Is(err, host.ErrDownloadRunning):
		return &ValidationError{Err: err}
	case failed && de.WrongFile():
		return &ValidationError{Err: &downloadFailed{de: de, do: "Check the download URL ('switchboard models url'), or use a GGUF file you have ('switchboard models add FILE')."}}
	case failed:
		// The sentence says why; the terminal's ways on are these commands, after it.
		return &downloadFailed{de: de, do: fmt.Sprintf("Retry with 'switchboard models download %s', download from a mirror ('switchboard models url URL'), or use a GGUF file you have ('switchboard models add FILE').", name)}
	case err != nil:
		return err
	}
	p, err := h.Models.Path(name)
	if err != nil {
		return err
	}
	if inv.JSON {
		return printModel(inv, h, name)
	}
	fmt.Fprintf(inv.Stdout, "%s is ready: %s\n", name, p)
	return nil
}

// downloadFailed is a failed download as the terminal says it: the
// sentence (which model, why), then what to do with its commands, then
// the detail.
type downloadFailed struct {
	de *host.DownloadError
	do string
}

func (e *downloadFailed) Error() string { return e.de.Error() }
func (e *downloadFailed) Unwrap() error { return e.de }

// Plain puts the advice after the sentence (plain.Explainer).
func (e *downloadFailed) Plain() (sentence, detail string) {
	s, d := e.de.Plain()
	return s + "\n" + e.do, d
}

// printModel prints the model name as 'models list --json' does.
func printModel(inv *Invocation, h *host.Host, name string) error {
	list, err := h.Models.List()
	if err != nil {
		return err
	}
	for _, c := range list {
		if strings.EqualFold(c.Name, name) {
			return inv.PrintJSON(rowOf(c))
		}
	}
	return fmt.Errorf("model %q %w", name, host.ErrModelNotInstalled)
}

func modelsAdd(ctx context.Context, inv *Invocation, args []string) error {
	switch len(args) {
	case 0:
		return modelsFound(ctx, inv, nil)
	case 1:
	default:
		return &UsageError{Cmd: inv.Path, Msg: "takes one FILE.gguf (alone, it lists the models Ollama and LM Studio keep here)"}
	}
	var m host.InstalledModel
	if err := edit(inv, func(h *host.Host) (err error) {
		if m, err = h.Models.Choose(args[0]); err != nil {
			return &ValidationError{Err: err}
		}
		if inv.JSON {
			return printModel(inv, h, m.Name)
		}
		return nil
	}); err != nil {
		return err
	}
	if !inv.JSON {
		fmt.Fprintf(inv.Stdout, "added %s (%s, %s)\n", m.Name, m.Path, host.ModelBytes(m.Size))
	}
	return nil
}

// foundRow is a model another app keeps here, as 'models found --json'
// prints it.
type foundRow struct {
	Name  string `json:"name"`
	App   string `json:"app"`
	Path  string `json:"path"`
	Size  int64  `json:"size"`
	Added string `json:"added,omitempty"`
}

func modelsFound(_ context.Context, inv *Invocation, args []string) error {
	if len(args) > 0 {
		return &UsageError{Cmd: inv.Path, Msg: "takes no arguments"}
	}
	h, err := readHost(inv)
	if err != nil {
		return err
	}
	defer closeServers(h)
	found, err := h.Models.Found()
	if err != nil {
		return err
	}
	list := []foundRow{}
	for _, f := range found {
		list = append(list, foundRow{Name: f.Name, App: f.App, Path: f.Path, Size: f.Size, Added: f.Added})
	}
	if inv.JSON {
		return inv.PrintJSON(list)
	}
	rows := make([][]string, 0, len(list))
	for _, f := range list {
		added := "-"
		if f.Added != "" {
			added = "added as " + f.Added
		}
		rows = append(rows, []string{cell(f.Name), f.App, host.ModelBytes(f.Size), cell(added), cell(f.Path)})
	}
	if err := inv.Table("no GGUF models of Ollama or LM Studio on this computer (add any GGUF file with 'switchboard models add FILE.gguf')",
		[]string{"NAME", "APP", "SIZE", "ADDED", "FILE"}, rows); err != nil {
		return err
	}
	if len(rows) > 0 {
		fmt.Fprintln(inv.Stdout, "Run one here as it is with 'switchboard models add FILE' (nothing is copied).")
	}
	return nil
}

// removedRow is what 'models remove --json' prints.
type removedRow struct {
	Name string `json:"name"`
	// Removed is "deleted" (a downloaded model's file) or "forgotten" (an
	// added file, which stays where it is).
	Removed string `json:"removed"`
	Path    string `json:"path"`
}

func modelsRemove(_ context.Context, inv *Invocation, args []string) error {
	if len(args) != 1 {
		return &UsageError{Cmd: inv.Path, Msg: "needs exactly one NAME (see 'switchboard models list')"}
	}
	var r removedRow
	err := edit(inv, func(h *host.Host) error {
		list, err := h.Models.List()
		if err != nil {
			return err
		}
		for _, c := range list {
			if strings.EqualFold(c.Name, args[0]) && c.Installed {
				r = removedRow{Name: c.Name, Removed: "deleted", Path: c.Path}
				if c.Chosen {
					r.Removed = "forgotten"
				}
			}
		}
		err = h.Models.Remove(args[0])
		if errors.Is(err, host.ErrModelNotInstalled) {
			return &ValidationError{Err: err}
		}
		return err
	})
	switch {
	case err != nil:
		return err
	case inv.JSON:
		return inv.PrintJSON(r)
	case r.Removed == "forgotten":
		fmt.Fprintf(inv.Stdout, "forgot %s (its file stays: %s)\n", r.Name, r.Path)
	default:
		fmt.Fprintf(inv.Stdout, "deleted %s (%s)\n", r.Name, r.Path)
	}
	return nil
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
		return printURL(inv, u)
	case 1:
		if err := edit(inv, func(h *host.Host) error {
			if err := h.Models.SetDownloadURL(args[0]); err != nil {
				return &ValidationError{Err: err}
			}
			return nil
		}); err != nil {
			return err
		}
		if inv.JSON {
			return inv.PrintJSON(map[string]string{"url": strings.TrimSpace(args[0])})
		}
		return nil
	}
	return &UsageError{Cmd: inv.Path, Msg: "takes at most one URL"}
}

func printURL(inv *Invocation, u string) error {
	if inv.JSON {
		return inv.PrintJSON(map[string]string{"url": u}) // "": each model's own URL
	}
	if u == "" {
		u = "(each model's own URL)"
	}
	_, err := fmt.Fprintln(inv.Stdout, u)
	return err
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
				return printRun(inv, s.Local.Context, s.Local.Threads)
			}
			var c, t int
			if err := edit(inv, func(h *host.Host) error {
				s, err := h.Settings.Chat()
				if err != nil {
					return err
				}
				c, t = s.Local.Context, s.Local.Threads
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
			}); err != nil {
				return err
			}
			if inv.JSON {
				return printRun(inv, c, t)
			}
			return nil
		},
	}
}

// printRun prints how the model is set to run (0: fitted to this machine).
func printRun(inv *Invocation, contextSize, threads int) error {
	if inv.JSON {
		return inv.PrintJSON(map[string]int{"context": contextSize, "threads": threads})
	}
	_, err := fmt.Fprintf(inv.Stdout, "context %s, threads %s\n", orFitted(contextSize), orFitted(threads))
	return err
}

func orFitted(n int) string {
	if n == 0 {
		return "fitted to this machine"
	}
	return strconv.Itoa(n)
}

// statusView is what 'models status --json' prints: the runtime and how
// a model runs here.
type statusView struct {
	// State is what the runtime of this command does (a chat in the
	// window runs its own): stopped, starting, ready, restarting, failed.
	State       string   `json:"state"`
	Runtime     string   `json:"runtime"` // llama-server's path, "" when missing
	NoRuntime   string   `json:"noRuntime,omitempty"`
	CPUVariants []string `json:"cpuVariants,omitempty"`
	CPU         string   `json:"cpu,omitempty"` // the backend it last loaded
	Model       string   `json:"model,omitempty"`
	Problem     string   `json:"problem,omitempty"` // why the model cannot run
	Context     int      `json:"context,omitempty"`
	Why         string   `json:"why,omitempty"`
	QuantizedKV bool     `json:"quantizedKv,omitempty"`
	KVMemory    int64    `json:"kvMemory,omitempty"`
	Memory      int64    `json:"memory,omitempty"`
	Threads     int      `json:"threads,omitempty"`
	Err         string   `json:"err,omitempty"`
	LogPath     string   `json:"logPath"`
}

func modelsStatus(_ context.Context, inv *Invocation, args []string) error {
	if len(args) > 1 {
		return &UsageError{Cmd: inv.Path, Msg: "takes at most one NAME"}
	}
	h, err := readHost(inv)
	if err != nil {
		return err
	}
	defer closeServers(h)
	name := ""
	if len(args) == 1 {
		name = args[0]
	}
	st, perr := h.Local.Preview(name)
	v := statusView{State: st.State, Runtime: st.Runtime, NoRuntime: st.NoRuntime, CPUVariants: st.CPUVariants, CPU: st.CPU,
		Model: st.Model, Context: st.Context, Why: st.Why, QuantizedKV: st.QuantizedKV, KVMemory: st.KVMemory, Memory: st.Memory,
		Threads: st.Threads, Err: st.Err, LogPath: st.LogPath}
	if perr != nil {
		v.Problem = host.Plain(perr)
	}
	if inv.JSON {
		return inv.PrintJSON(v)
	}
	w := inv.Stdout
	switch {
	case v.Runtime == "":
		fmt.Fprintf(w, "Runtime:   missing: %s\n", v.NoRuntime)
	case len(v.CPUVariants) > 0:
		last := ""
		if v.CPU != "" {
			last = "; it last loaded " + v.CPU
		}
		fmt.Fprintf(w, "Runtime:   %s (llama.cpp %s, with ggml's CPU backends %s%s)\n", v.Runtime, host.LocalRuntimeVersion, strings.Join(v.CPUVariants, ", "), last)
	default:
		fmt.Fprintf(w, "Runtime:   %s (llama.cpp %s)\n", v.Runtime, host.LocalRuntimeVersion)
	}
	switch {
	case v.Model == "":
		fmt.Fprintln(w, "Model:     none yet: download one ('switchboard models download NAME', see 'switchboard models') or add a GGUF file ('switchboard models add FILE')")
	case v.Problem != "":
		fmt.Fprintf(w, "Model:     %s: %s\n", v.Model, v.Problem)
	default:
		kv := "f16"
		if v.QuantizedKV {
			kv = "q8_0 (memory is short)"
		}
		fmt.Fprintf(w, "Model:     %s\n", v.Model)
		fmt.Fprintf(w, "Runs with: context %d tokens (%s), KV cache %s of %s, %d %s; about %s of memory in all\n",
			v.Context, v.Why, kv, host.ModelBytes(v.KVMemory), v.Threads, plural(v.Threads, "thread"), host.ModelBytes(v.Memory))
	}
	state := map[string]string{
		"stopped":    "not running in this command: a chat starts it ('switchboard chat', or the window, which runs its own)",
		"failed":     "could not start: " + v.Err,
		"restarting": "stopped unexpectedly (" + v.Err + "); starting again",
	}[v.State]
	if state == "" {
		state = v.State
	}
	fmt.Fprintf(w, "State:     %s\n", state)
	_, err = fmt.Fprintf(w, "Log:       %s\n", v.LogPath)
	return err
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
