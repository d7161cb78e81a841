package sandbox_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/switchboard-app/switchboard/mcpmanager/process"
	"github.com/switchboard-app/switchboard/mcpmanager/sandbox"
)

// A server whose entry says "sandbox": {"allowWrite": ["/srv/data"]}: the
// plan shows what it will see, and Prepare (as the supervisor calls it at
// every start) turns the spec into the bwrap command that runs it.
func Example() {
	// The folder must exist, and must not hold the home folder of whoever
	// runs this (a /tmp would, for a HOME under /tmp: NewPlan refuses it).
	data, err := os.MkdirTemp("", "data")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(data)
	spec := process.Spec{Command: "/bin/sh", Args: []string{"-c", "echo hi"}, Env: []string{"HOME=/home/me", "PATH=/usr/bin:/bin"}}
	plan, err := sandbox.NewPlan(spec, sandbox.Policy{AllowWrite: []string{data}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range plan.Mounts {
		switch {
		case m.Why == "private home":
			fmt.Println(m.Path, m.Why)
		case m.Why == "allowWrite" && m.Path == data:
			defer fmt.Println("the data folder", m.Why) // after the rest: mounts are in path order
		}
	}
	fmt.Println(strings.Join(sandbox.BwrapArgs(plan)[:3], " "))
	// sandboxed, err := sandbox.Prepare(ctx, spec, policy)
	// p, err := process.Start(sandboxed)

	// Output:
	// /home/me private home
	// --new-session --die-with-parent --unshare-all
	// the data folder allowWrite
}
