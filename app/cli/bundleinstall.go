package cli

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/switchboard-app/switchboard/app/host"
)

// valuesFlag collects repeated KEY=VALUE flags; a key given again adds a
// value (an option with "multiple").
type valuesFlag map[string][]string

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
	var accept bool
	return &Command{
		Name:    "install",
		Args:    "FILE.mcpb [--set KEY=VALUE ...]",
		Summary: "install an MCP Bundle (.mcpb) as a server named after its manifest",
		Flags: func(fs *flag.FlagSet) {
			fs.Var(values, "set", "a value of the bundle's user_config KEY=VALUE (repeatable; again for several values; a relative file or folder is taken from the current directory)")
			fs.BoolVar(&accept, "accept-changes", false, "reinstall even though the version is older or the author, signer or command differs from the installed copy (a new command's tools are reviewed again)")
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
			if err := absolutePaths(inv, in, values); err != nil {
				return err
			}
			install := b.Install
			if accept {
				install = b.InstallChanged
			}
			name, err := install(inv.Context(), args[0], values)
			if ce := (*host.BundleChangedError)(nil); errors.As(err, &ce) && isTTY(inv.Stdin) && askChanges(inv, ce) {
				name, err = b.InstallChanged(inv.Context(), args[0], values)
			}
			if err != nil {
				return bundleErr(err)
			}
			m := in.Bundle.Manifest
			verb := "installed"
			if in.Installed != "" {
				verb = "reinstalled (was " + in.Installed + ")"
			}
			fmt.Fprintf(inv.Stdout, "%s %s %s: %s by %s\n%s\n", verb, name, m.Version, termSafe(cmp.Or(m.DisplayName, m.Name)), termSafe(m.Author.Name), in.Bundle.Signature.Summary())
			for _, c := range in.Changes {
				if c.What == "version" {
					fmt.Fprintf(inv.Stdout, "went back to %s from %s\n", termSafe(c.Now), termSafe(c.Was))
					continue
				}
				fmt.Fprintf(inv.Stdout, "changed %s: %s (was %s)\n", c.What, termSafe(c.Now), termSafe(c.Was))
				if c.What == "command" {
					fmt.Fprintf(inv.Stdout, "its tools are withheld until you review them: 'switchboard tools list', then 'switchboard tools trust'\n")
				}
			}
			for _, w := range in.Warnings {
				fmt.Fprintf(inv.Stderr, "warning: %s\n", termSafe(w))
			}
			return nil
		},
	}
}

// absolutePaths makes the relative values of the bundle's file and folder
// options absolute against the current directory, where the user typed
// them (the server runs in the bundle's folder, where they would mean
// another file), and warns of a path that does not exist.
func absolutePaths(inv *Invocation, in *host.Inspection, values valuesFlag) error {
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	home, _ := os.UserHomeDir()
	for key, vs := range values {
		o, ok := in.Bundle.Manifest.UserConfig.Lookup(key)
		if !ok || o.Type != host.BundleFile && o.Type != host.BundleDirectory {
			continue // Install names a key the manifest lacks
		}
		for i, v := range vs {
			switch {
			case v == "" || strings.HasPrefix(v, "${"): // a placeholder: ${HOME}/notes
				continue
			case v == "~" && home != "":
				v = home
			case strings.HasPrefix(v, "~/") && home != "":
				v = filepath.Join(home, v[2:])
			case !filepath.IsAbs(v):
				v = filepath.Join(wd, v)
			}
			vs[i] = v
			fi, err := os.Stat(v)
			switch {
			case err != nil:
				fmt.Fprintf(inv.Stderr, "warning: %s (%s): %s does not exist\n", termSafe(o.Title), key, termSafe(v))
			case o.Type == host.BundleDirectory && !fi.IsDir():
				fmt.Fprintf(inv.Stderr, "warning: %s (%s): %s is not a folder\n", termSafe(o.Title), key, termSafe(v))
			case o.Type == host.BundleFile && fi.IsDir():
				fmt.Fprintf(inv.Stderr, "warning: %s (%s): %s is a folder, not a file\n", termSafe(o.Title), key, termSafe(v))
			}
		}
	}
	return nil
}

// askChanges shows how the bundle differs from the installed copy and
// asks on the terminal whether to install it anyway.
func askChanges(inv *Invocation, ce *host.BundleChangedError) bool {
	fmt.Fprintf(inv.Stderr, "This is not the %s bundle you installed:\n", ce.Name)
	for _, c := range ce.Changes {
		if c.What == "version" {
			fmt.Fprintf(inv.Stderr, "  it is an older version: %s (installed: %s)\n", termSafe(c.Now), termSafe(c.Was))
			continue
		}
		fmt.Fprintf(inv.Stderr, "  %s was: %s\n  %s now: %s\n", c.What, termSafe(c.Was), c.What, termSafe(c.Now))
	}
	fmt.Fprint(inv.Stderr, "Install it anyway? [y/N]: ")
	line, _ := bufio.NewReader(inv.Stdin).ReadString('\n')
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true
	}
	return false
}

// bundleErr makes a bundle the user must fix (or may not install) a
// validation error (exit 2).
func bundleErr(err error) error {
	for _, e := range []error{host.ErrBundleManifest, host.ErrBundleUnsafe, host.ErrBundleIncompatible, host.ErrBundleUserConfig,
		host.ErrBundleInvalidSignature, host.ErrBundleChanged, host.ErrBundleNotBundle} {
		if errors.Is(err, e) {
			return &ValidationError{Err: err}
		}
	}
	return validation(err)
}
