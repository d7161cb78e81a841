package sandbox_test

import (
	"fmt"
	"strings"

	"github.com/switchboard-app/switchboard/mcpmanager/process"
	"github.com/switchboard-app/switchboard/mcpmanager/sandbox"
)

// A server whose entry says "sandbox": {"allowWrite": ["/srv/data"]}: the
// plan shows what it will see, and Prepare (as the supervisor calls it at
// every start) turns the spec into the bwrap command that runs it.
func Example() {
	spec := process.Spec{Command: "/bin/sh", Args: []string{"-c", "echo hi"}, Env: []string{"HOME=/home/me", "PATH=/usr/bin:/bin"}}
	plan, err := sandbox.NewPlan(spec, sandbox.Policy{AllowWrite: []string{"/tmp"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range plan.Mounts {
		if m.Why == "allowWrite" || m.Why == "private home" {
			fmt.Println(m.Path, m.Why)
		}
	}
	fmt.Println(strings.Join(sandbox.BwrapArgs(plan)[:3], " "))
	// sandboxed, err := sandbox.Prepare(ctx, spec, policy)
	// p, err := process.Start(sandboxed)

	// Output:
	// /tmp allowWrite
	// /home/me private home
	// --new-session --die-with-parent --unshare-all
}
