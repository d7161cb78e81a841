package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/switchboard-app/switchboard/app/host"
)

func secretsCmd() *Command {
	return &Command{
		Name:    "secrets",
		Summary: "list, set and delete the secrets kept in the OS keyring",
		Subs: []*Command{
			{Name: "list", Summary: "secret names with masked values and the servers using them", Run: secretsList},
			{Name: "set", Args: "NAME", Summary: "store a secret read from standard input (never from the command line)", Run: secretsSet},
			{Name: "delete", Args: "NAME", Summary: "delete a secret from the keyring", Run: secretsDelete},
		},
	}
}

func secretsList(_ context.Context, inv *Invocation, args []string) error {
	if len(args) > 0 {
		return &UsageError{Cmd: inv.Path, Msg: "takes no arguments"}
	}
	h, err := openHost(inv, "")
	if err != nil {
		return err
	}
	defer closeServers(h)
	if err := h.Secrets.Available(); err != nil {
		fmt.Fprintln(inv.Stderr, "switchboard: "+err.Error())
	}
	list, err := h.Secrets.InUse() // the same "used by" as Settings: servers and providers
	if err != nil {
		return validation(err)
	}
	if inv.JSON {
		return inv.PrintJSON(list)
	}
	rows := make([][]string, 0, len(list))
	for _, s := range list {
		rows = append(rows, []string{s.Name, s.Masked, strings.Join(s.UsedBy, ", ")})
	}
	return inv.Table("no secrets yet", []string{"NAME", "VALUE", "USED BY"}, rows)
}

func secretsSet(_ context.Context, inv *Invocation, args []string) error {
	if len(args) != 1 {
		return &UsageError{Cmd: inv.Path, Msg: "needs exactly one NAME; the value is read from standard input"}
	}
	if f, ok := inv.Stdin.(*os.File); ok && isTerminal(f) {
		fmt.Fprintf(inv.Stderr, "value for %s (end with Enter): ", args[0])
	}
	line, err := bufio.NewReader(inv.Stdin).ReadString('\n')
	if err != nil && err != io.EOF {
		return err
	}
	value := strings.TrimRight(line, "\r\n")
	return edit(inv, func(h *host.Host) error { return h.Secrets.Set(args[0], value) })
}

func secretsDelete(_ context.Context, inv *Invocation, args []string) error {
	if len(args) != 1 {
		return &UsageError{Cmd: inv.Path, Msg: "needs exactly one NAME"}
	}
	return edit(inv, func(h *host.Host) error { return h.Secrets.Delete(args[0]) })
}

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
