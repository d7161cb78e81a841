package sandbox

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/switchboard-app/switchboard/mcpmanager/process"
)

// Bubblewrap is the bwrap program, looked up on the login shell's PATH
// (and /usr/bin). A variable so tests can name one that is missing.
var Bubblewrap = "bwrap"

// probes remembers, per bwrap path, whether it could create a sandbox.
var probes sync.Map // path → func() error

// bwrapPath finds bwrap.
func bwrapPath() (string, error) {
	p, err := process.LookPath(Bubblewrap, process.MergePATH(process.LoginPATH(), "/usr/bin:/bin"))
	if err != nil {
		return "", &Error{Op: "bwrap", Err: ErrNoBubblewrap}
	}
	return p, nil
}

// available checks once per bwrap that it can make namespaces here (a
// kernel or AppArmor may forbid them to unprivileged users).
func available(ctx context.Context) error {
	bwrap, err := bwrapPath()
	if err != nil {
		return err
	}
	probe, _ := probes.LoadOrStore(bwrap, sync.OnceValue(func() error {
		cmd := exec.CommandContext(context.WithoutCancel(ctx), bwrap, "--unshare-all", "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev", "true")
		var out bytes.Buffer
		cmd.Stderr = &out
		if err := cmd.Run(); err != nil {
			return &Error{Op: "bwrap", Err: fmt.Errorf("%w (%s)", ErrNoNamespaces, strings.TrimSpace(out.String()))}
		}
		return nil
	}))
	return probe.(func() error)()
}

// Prlimit is util-linux's prlimit, which sets the limits inside the
// sandbox (see MaxProcesses). A variable so tests can name one that is
// missing.
var Prlimit = "prlimit"

// wrap runs plan under bwrap, its program under prlimit inside: set after
// the sandbox's user namespace is made, the process limit counts the
// sandbox's own processes, not all of the user's.
func wrap(plan Plan) (process.Spec, error) {
	bwrap, err := bwrapPath()
	if err != nil {
		return process.Spec{}, err
	}
	prlimit, err := process.LookPath(Prlimit, process.MergePATH(process.LoginPATH(), "/usr/bin:/bin"))
	if err != nil {
		return process.Spec{}, &Error{Op: "prlimit", Err: ErrNoPrlimit}
	}
	if real, err := filepath.EvalSymlinks(prlimit); err == nil {
		prlimit = real
	}
	if !underSystem(prlimit) {
		plan.Mounts = append(plan.Mounts, Mount{Path: prlimit, Source: prlimit, Kind: Bind, Why: "limits"})
	}
	plan.Args = append([]string{fmt.Sprintf("--nproc=%d", MaxProcesses), fmt.Sprintf("--data=%d", MaxDataBytes), "--", plan.Command}, plan.Args...)
	plan.Command = prlimit
	// bwrap itself runs in the app's working directory; the server's is
	// --chdir inside.
	dir, _ := os.Getwd()
	return process.Spec{Command: bwrap, Args: BwrapArgs(plan), Env: plan.Env, Dir: dir}, nil
}
