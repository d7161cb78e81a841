package cli

import (
	"context"
	"fmt"
	"runtime"

	"github.com/switchboard-app/switchboard/app/buildinfo"
)

// root is the command tree. Commands are added here as features land; the
// help text is generated from it, so it never lists what does not exist.
func root() *Command {
	return &Command{
		Name:    "switchboard",
		Summary: "bring your MCP servers to any model, on your own machine",
		Subs: []*Command{
			serversCmd(),
			registryCmd(),
			toolsCmd(),
			secretsCmd(),
			chatCmd(),
			agentsCmd(),
			modelsCmd(),
			serveCmd(),
			daemonCmd(),
			clientsCmd(),
			builtinCmd(),
			skillsCmd(),
			versionCmd(),
		},
	}
}

func versionCmd() *Command {
	return &Command{
		Name:    "version",
		Summary: "print the version",
		Run: func(_ context.Context, inv *Invocation, args []string) error {
			if len(args) > 0 {
				return &UsageError{Cmd: inv.Path, Msg: fmt.Sprintf("takes no arguments, got %q", args[0])}
			}
			v := buildinfo.String()
			if inv.JSON {
				return inv.PrintJSON(struct {
					Version string `json:"version"`
					Go      string `json:"go"`
					OS      string `json:"os"`
					Arch    string `json:"arch"`
				}{v, runtime.Version(), runtime.GOOS, runtime.GOARCH})
			}
			_, err := fmt.Fprintf(inv.Stdout, "switchboard %s (%s %s/%s)\n", v, runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return err
		},
	}
}
