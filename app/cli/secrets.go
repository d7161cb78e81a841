package cli

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"

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
			secretsGrantCmd(),
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
	logins, err := h.Servers.Logins() // remote servers' OAuth logins (oauth.NAME) are kept there too
	if err != nil {
		return validation(err)
	}
	list = append(list, logins...)
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
	value, err := readSecret(inv, bufio.NewReader(inv.Stdin), args[0])
	if err != nil {
		return err
	}
	return edit(inv, func(h *host.Host) error { return h.Secrets.Set(args[0], value) })
}

// readSecret reads one secret value, a line of standard input (asked for
// by name on a terminal, where what is typed is not shown), so it never
// sits on the command line, in the shell's history or on the screen.
func readSecret(inv *Invocation, in *bufio.Reader, name string) (string, error) {
	if f, ok := terminal(inv); ok {
		fmt.Fprintf(inv.Stderr, "value for %s (not shown; end with Enter): ", name)
		b, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(inv.Stderr)
		return string(b), err
	}
	return readLine(in)
}

// terminal is standard input when it is a terminal.
func terminal(inv *Invocation) (*os.File, bool) {
	f, ok := inv.Stdin.(*os.File)
	return f, ok && isTerminal(f)
}

// readLine is one line of in, without its line break.
func readLine(in *bufio.Reader) (string, error) {
	line, err := in.ReadString('\n')
	if err != nil && err != io.EOF {
		return "", err
	}
	return strings.TrimRight(line, "\r\n"), nil
}

func secretsGrantCmd() *Command {
	var server string
	return &Command{
		Name:    "grant",
		Args:    "NAME --server SERVER",
		Summary: "let a server use a keyring secret that is not its own (one its imported entry, registry entry or bundle names)",
		Flags: func(fs *flag.FlagSet) {
			fs.StringVar(&server, "server", "", "the server that may use it")
		},
		Run: func(_ context.Context, inv *Invocation, args []string) error {
			if len(args) != 1 || server == "" {
				return &UsageError{Cmd: inv.Path, Msg: "needs exactly one NAME and --server SERVER"}
			}
			return edit(inv, func(h *host.Host) error { return h.Secrets.Grant(args[0], server) })
		},
	}
}

func secretsDelete(_ context.Context, inv *Invocation, args []string) error {
	if len(args) != 1 {
		return &UsageError{Cmd: inv.Path, Msg: "needs exactly one NAME"}
	}
	return edit(inv, func(h *host.Host) error { return h.Secrets.Delete(args[0]) })
}

// isTerminal reports whether f is a terminal someone types into. A
// character device is not enough: /dev/null is one, and a command run
// with </dev/null would ask questions nobody can answer (and an
// elicitation would fail with an error instead of being declined).
// Through SyscallConn, not Fd: Fd would put the file in blocking mode.
func isTerminal(f *os.File) bool {
	rc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	tty := false
	if err := rc.Control(func(fd uintptr) { tty = term.IsTerminal(int(fd)) }); err != nil {
		return false
	}
	return tty
}
