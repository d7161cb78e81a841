package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/switchboard-app/switchboard/mcpmanager/bundle"
)

// valuesFlag collects repeated KEY=VALUE flags; a key given again adds a
// value (an option with "multiple").
type valuesFlag bundle.Values

func (v valuesFlag) String() string { return "" }
func (v valuesFlag) Set(s string) error {
	key, val, ok := strings.Cut(s, "=")
	if !ok || key == "" {
		return fmt.Errorf("want KEY=VALUE, got %q", s)
	}
	v[key] = append(v[key], val)
	return nil
}

func serversInstallCmd() *Command {
	values := valuesFlag{}
	return &Command{
		Name:    "install",
		Args:    "FILE.mcpb [--set KEY=VALUE ...]",
		Summary: "install an MCP Bundle (.mcpb) as a server named after its manifest",
		Flags: func(fs *flag.FlagSet) {
			fs.Var(values, "set", "a value of the bundle's user_config KEY=VALUE (repeatable; again for several values)")
		},
		Run: func(ctx context.Context, inv *Invocation, args []string) error {
			if len(args) != 1 {
				return &UsageError{Cmd: inv.Path, Msg: "needs exactly one FILE.mcpb"}
			}
			h, err := openHost(inv, "")
			if err != nil {
				return err
			}
			defer closeServers(h)
			b := h.Bundles
			in, err := b.Inspect(inv.Context(), args[0])
			if err != nil {
				return bundleErr(err)
			}
			name, err := b.Install(inv.Context(), args[0], bundle.Values(values))
			if err != nil {
				return bundleErr(err)
			}
			m := in.Bundle.Manifest
			verb := "installed"
			if in.Installed != "" {
				verb = "reinstalled (was " + in.Installed + ")"
			}
			fmt.Fprintf(inv.Stdout, "%s %s %s: %s by %s\n%s\n", verb, name, m.Version, displayName(m), m.Author.Name, in.Bundle.Signature.Summary())
			return nil
		},
	}
}

func displayName(m bundle.Manifest) string {
	if m.DisplayName != "" {
		return m.DisplayName
	}
	return m.Name
}

// bundleErr makes a bundle the user must fix (or may not install) a
// validation error (exit 2).
func bundleErr(err error) error {
	if errors.Is(err, bundle.ErrManifest) || errors.Is(err, bundle.ErrUnsafe) || errors.Is(err, bundle.ErrIncompatible) || errors.Is(err, bundle.ErrUserConfig) {
		return &ValidationError{Err: err}
	}
	return validation(err)
}
